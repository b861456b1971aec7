// One collective call as one rank sees it, in plain numbers, and the sink its
// modelled messages go to: the vocabulary of the collective models
// (collective_model.h, collective_patterns.h, openmpi_collectives.h,
// mpich_collectives.h). MPI-free.
//
//   CollectiveCall call{.kind = Collective::kBcast, .size = 8, .root = 0,
//                       .count = 100, .type_size = 8};
//   SendSink send = [&](int peer, double bytes) { ... };
#ifndef RANKMAP_MPI_BINDINGS_COLLECTIVE_CALL_H_
#define RANKMAP_MPI_BINDINGS_COLLECTIVE_CALL_H_

#include <cstdint>
#include <span>

#include "absl/functional/function_ref.h"
#include "mpi_bindings/traffic_model.h"

namespace rankmap::mpi_bindings::profile {

// One rank's view of one collective call on an intracommunicator.
struct CollectiveCall {
  Collective kind = Collective::kBcast;
  int size = 1;  // ranks in the communicator
  int root = 0;  // rooted kinds only
  // Elements of the uniform block: the count argument of Bcast, Reduce,
  // Allreduce, Scan, Exscan and Reduce_scatter_block, the per-rank block of
  // Allgather, Alltoall, Gather and Scatter, this rank's send block of
  // Gatherv.
  int64_t count = 0;
  int64_t type_size = 0;  // bytes per element
  // Elements per rank of the v forms, `size` entries: the receive counts of
  // Allgatherv and Reduce_scatter (the same on every rank), this rank's send
  // counts of Alltoallv and Alltoallw (type_size 1: bytes), the root's send
  // counts of Scatterv (read on the root only).
  std::span<const int64_t> counts;
  bool commutative = true;   // MPI_Op_commutative
  bool builtin_op = true;    // a predefined MPI_Op
  bool in_place = false;     // MPI_IN_PLACE send buffer
  bool nonblocking = false;  // MPI_I* form
};

// send(peer, bytes): one message to rank `peer` of the communicator.
using SendSink = absl::FunctionRef<void(int peer, double bytes)>;

}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_COLLECTIVE_CALL_H_
