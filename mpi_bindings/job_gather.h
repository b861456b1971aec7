// Where a job's ranks run, gathered over a communicator: what Reorder and the
// partitioner plugins (plugins/petsc) both need before they map anything.
//
//   ASSIGN_OR_RETURN(JobTree job, GatherJobTree(comm, {.network = "m.net"}));
//   // on rank 0: job.tree, job.slot_of_rank[r] (the leaf rank r runs on)
//
// Every rank reports its host (SLURMD_NODENAME where set and a valid host
// name, as the profiler records hosts: several slurmd, or a launcher's remote
// shell, can share one machine under several node names; else MPI's
// processor name), its binding and SLURM_TOPOLOGY_ADDR; rank 0 builds the
// tree (job_tree.h). reorder.h does not include it: Reorder's callers never
// need it.
#ifndef RANKMAP_MPI_BINDINGS_JOB_GATHER_H_
#define RANKMAP_MPI_BINDINGS_JOB_GATHER_H_

#include <mpi.h>

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mpi_bindings/job_tree.h"

namespace rankmap::mpi_bindings {

// This rank's number in `comm`, and the number of ranks.
int CommRank(MPI_Comm comm);
int CommSize(MPI_Comm comm);

// Collective: what every rank reports, on `root` (empty elsewhere); the
// binding only when want_binding.
std::vector<ProcessInfo> GatherProcessInfo(MPI_Comm comm, bool want_binding,
                                           int root = 0);

// Collective: `root`'s status on every rank.
absl::Status BroadcastStatus(MPI_Comm comm, int root, const absl::Status& s);

// `options` with RANKMAP_TOPOLOGY and RANKMAP_NETWORK where they are empty
// and read_environment, and SLURM_TOPOLOGY_ADDR_PATTERN (where the job runs,
// not a user's override: always).
JobTreeOptions WithEnvironment(JobTreeOptions options, bool read_environment);

// Collective: the tree of the slots `comm`'s ranks occupy, built on rank 0
// with WithEnvironment(options, read_environment). The JobTree is rank 0's
// (empty elsewhere); the status is the same on every rank. Errors:
// BuildJobTree's (a network spec without the job's hosts, an override with
// fewer slots than ranks, hwloc failures).
absl::StatusOr<JobTree> GatherJobTree(MPI_Comm comm,
                                      const JobTreeOptions& options,
                                      bool read_environment = true);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_JOB_GATHER_H_
