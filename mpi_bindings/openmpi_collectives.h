// Open MPI 4.1's collectives as the sends of one rank (collective_model.h).
//
// Blocking collectives on intracommunicators go to the `tuned` component,
// whose fixed decision rules (coll_tuned_decision_fixed.c) pick an algorithm
// from the communicator size and the message size (and whether the operation
// commutes); the algorithms are coll/base's. The rules are modelled as Open
// MPI 4.1 ships them, numbered as its coll_tuned_<collective>_algorithm MCA
// parameters number them. Segment sizes are those the fixed rules pass: none,
// so every tree edge carries one message. Where an algorithm hands part of the
// work to another collective (Allreduce's reduce + broadcast, Allgatherv's
// gatherv + broadcast) that collective goes through the rules again, as it
// does in Open MPI. Gatherv, Scatterv and Alltoallw (not in tuned) are the
// `basic` component's linear ones.
//
// Non-blocking collectives go to the `libnbc` component, whose default
// schedules are modelled in openmpi_libnbc.h.
//
// What the model cannot see: MCA parameters that force algorithms or read a
// rules file (coll_tuned_use_dynamic_rules), other components a site enables
// (hcoll, han, sm), and message sizes a derived datatype's packing changes.
//
//   CollectiveCall call{.kind = Collective::kBcast, .size = 8, .count = 100,
//                       .type_size = 1};
//   internal::OpenMpiAlgorithm(call);  // 7: k-nomial tree (radix 4)
//   OpenMpiSends(call, /*me=*/0, send);  // 100 bytes to 1, 2, 3 and 4
#ifndef RANKMAP_MPI_BINDINGS_OPENMPI_COLLECTIVES_H_
#define RANKMAP_MPI_BINDINGS_OPENMPI_COLLECTIVES_H_

#include "mpi_bindings/collective_call.h"

namespace rankmap::mpi_bindings::profile {

// Calls send once per message rank `me` sends in `call` (0 <= me < size).
void OpenMpiSends(const CollectiveCall& call, int me, SendSink send);

namespace internal {

// The algorithm Open MPI's rules pick for a blocking call, in Open MPI's
// numbering for the call's kind (0 where the kind has one algorithm).
int OpenMpiAlgorithm(const CollectiveCall& call);

}  // namespace internal
}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_OPENMPI_COLLECTIVES_H_
