// Open MPI 4.1's non-blocking collectives as the sends of one rank: the
// schedules the `libnbc` component builds by default (nbc_i<collective>.c,
// coll_libnbc_*_algorithm and coll_libnbc_ibcast_skip_dt_decision at their
// defaults). openmpi_collectives.h hands every MPI_I* call here.
//
// libnbc picks few algorithms: linear broadcasts on up to 4 ranks and
// binomial ones above; binomial reductions (Rabenseifner's for long
// commutative vectors); a dissemination barrier; linear schedules for the
// rooted, all-to-all and all-gather kinds; a chain for scans. Unlike the
// blocking algorithms, most schedules send their empty messages: a zero-count
// Iallgather still sends one message to every other rank.
//
//   patterns::ElementSends out(send, /*type_size=*/8);
//   CollectiveCall call{.kind = Collective::kBcast, .size = 8, .count = 1,
//                       .type_size = 8, .nonblocking = true};
//   internal::LibnbcSends(call, /*me=*/0, out);  // 8 bytes to 1, 2 and 4
#ifndef RANKMAP_MPI_BINDINGS_OPENMPI_LIBNBC_H_
#define RANKMAP_MPI_BINDINGS_OPENMPI_LIBNBC_H_

#include "mpi_bindings/collective_call.h"
#include "mpi_bindings/collective_patterns.h"

namespace rankmap::mpi_bindings::profile::internal {

// Calls out once per message rank `me` (0 <= me < call.size, size >= 2)
// sends in the non-blocking `call`.
void LibnbcSends(const CollectiveCall& call, int me,
                 const patterns::ElementSends& out);

}  // namespace rankmap::mpi_bindings::profile::internal

#endif  // RANKMAP_MPI_BINDINGS_OPENMPI_LIBNBC_H_
