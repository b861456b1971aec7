// MPICH 4.0's collectives as the sends of one rank (collective_model.h).
//
// MPICH picks an algorithm per call from a JSON selection tree compiled into
// the library (maint/tuning/coll/mpir/generic.json, the copy in MPICH 4.0.2's
// libmpich): by communicator size (and whether it is a power of two), the
// message size, the count against the largest power of two below the size,
// whether the operation commutes or is predefined, MPI_IN_PLACE. The model
// follows that tree's branches for communicators without node-aware hierarchy
// and MPICH's flat algorithms (binomial trees, scatter + allgather broadcasts,
// recursive doubling, Rabenseifner's reduce-scatter + allgather/gather,
// Bruck, rings, recursive halving, pairwise exchange, dissemination barrier);
// the non-blocking forms follow the same tree's I* branches, whose schedules
// send what the blocking algorithms send.
//
// Not modelled: the ch4 device's node-aware compositions (intra-node then
// inter-node steps) and its shared-memory collectives (release/gather), which
// depend on which ranks share a node, i.e. on the placement a mapping is about
// to change; a profile of an MPICH job on several nodes under-reports
// nothing but spreads collective traffic as a flat algorithm would.
//
//   CollectiveCall call{.kind = Collective::kAllreduce, .size = 8,
//                       .count = 1, .type_size = 8};
//   MpichSends(call, /*me=*/3, send);  // 8 bytes to ranks 2, 1 and 7
#ifndef RANKMAP_MPI_BINDINGS_MPICH_COLLECTIVES_H_
#define RANKMAP_MPI_BINDINGS_MPICH_COLLECTIVES_H_

#include "mpi_bindings/collective_call.h"

namespace rankmap::mpi_bindings::profile {

// Calls send once per message rank `me` sends in `call` (0 <= me < size).
void MpichSends(const CollectiveCall& call, int me, SendSink send);

}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_MPICH_COLLECTIVES_H_
