// What the PMPI interceptions in librankmap_reorder.so share: reading the
// engine's options from the environment and running one collective
// reordering with an agreed fallback.
//
//   ReorderOutcome out;
//   if (!PlanReordering(comm, edges, absl::OkStatus(), &out)) return
//   PMPI_Cart_create(...);
//   ... create the topology communicator on out.comm, then free out.comm.
//
// Environment: RANKMAP_TOPOLOGY, RANKMAP_NETWORK (reorder.h),
// RANKMAP_ALGORITHM (an engine algorithm or preset), RANKMAP_SEED,
// RANKMAP_BIND=none|cpu|cpu+mem (after reordering, bind each process to its
// new slot's PU, and its memory to that PU's NUMA node; default none) and
// RANKMAP_BIND_REPORT=1 (each rank prints what it bound on stderr; a refused
// memory binding is printed regardless).
#ifndef RANKMAP_MPI_BINDINGS_INTERCEPT_PLAN_H_
#define RANKMAP_MPI_BINDINGS_INTERCEPT_PLAN_H_

#include <mpi.h>

#include <vector>

#include "absl/status/status.h"
#include "mpi_bindings/reorder.h"

namespace rankmap::mpi_bindings {

// Collective over comm. True with out->comm reordered; false (on every rank
// alike) when mapping failed: rank 0 has printed one line on stderr, out->comm
// is already freed and the caller falls back to the plain PMPI call. `local`
// is an error this rank already has (collecting its edges failed): it is
// agreed on, so every rank falls back together.
bool PlanReordering(MPI_Comm comm, const std::vector<LocalEdge>& edges,
                    absl::Status local, ReorderOutcome* out);

// Intercommunicators are passed through untouched (same answer on all ranks).
bool IsIntercommunicator(MPI_Comm comm);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_INTERCEPT_PLAN_H_
