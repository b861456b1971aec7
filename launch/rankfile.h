// Open MPI rankfiles: every rank on its host and CPUs, as the mapping says.
//
// Open MPI 4 (`mpirun --rankfile`), physical numbers when every rank has PU os
// indexes (hwloc inputs, network specs over hwloc nodes):
//   # mpirun --use-hwthread-cpus --mca rmaps_rank_file_physical 1 --rankfile
//   m.rf -np 2 ./app rank 0=node01 slot=1 rank 1=node01 slot=0,8        (a core
//   leaf: both hardware threads)
// Otherwise (tleaf nodes of a network spec) node-local logical numbers, read
// without rmaps_rank_file_physical. --use-hwthread-cpus makes Open MPI 4 read
// each number as a PU, not as the core holding it; it is left out when the
// logical numbers count cores.
//
// Open MPI 5 (PRRTE) reads logical numbers only:
//   # mpirun --map-by rankfile:file=m.rf:HWTCPUS -np 2 ./app
//   rank 0=node01 slot=1          (hwloc's logical PU index on node01)
// with core leaves the numbers are logical core indexes and the qualifier
// HWTCPUS is dropped.
//
// Each file opens with a comment holding the command that reads it.
#ifndef RANKMAP_LAUNCH_RANKFILE_H_
#define RANKMAP_LAUNCH_RANKFILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "launch/job_placement.h"
#include "launch/launch_plan.h"

namespace rankmap::launch {

// Open MPI 4; one file at `path`. Errors: no rank, logical numbering that
// mixes cores and PUs. O(ranks + PUs).
absl::StatusOr<LaunchPlan> OpenMpi4Rankfile(const JobPlacement& job,
                                            const std::string& path);

// Open MPI 5 (PRRTE); one file at `path`. Errors: as above.
absl::StatusOr<LaunchPlan> OpenMpi5Rankfile(const JobPlacement& job,
                                            const std::string& path);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_RANKFILE_H_
