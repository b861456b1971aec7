// Binding by hwloc-bind, for launchers that cannot express a mapping's binding
// themselves: a file of one cpuset per rank, and a wrapper script that binds
// the rank it runs as and then executes the program.
//
//   cpusets file (format `hwloc`):      wrapper (Slurm/Hydra fallback):
//     # rank host cpuset                  srun ... m.slurm.bind.sh ./app
//     0 node01 0x00000002                 -> exec hwloc-bind 0x00000002 --
//     ./app 1 node01 0x00000001
//
// Cpusets are hwloc bitmaps of PU os indexes (launch/cpu_sets.h). The wrapper
// finds its rank as launch/rank_environment.h does (the launcher's own
// variable before SLURM_PROCID, which leaks into mpirun or mpiexec.hydra jobs
// started inside an allocation), so it serves srun, mpiexec.hydra and mpirun.
#ifndef RANKMAP_LAUNCH_HWLOC_BIND_H_
#define RANKMAP_LAUNCH_HWLOC_BIND_H_

#include <string>

#include "absl/status/statusor.h"
#include "launch/job_placement.h"
#include "launch/launch_plan.h"

namespace rankmap::launch {

// The cpusets file at `path`; the plan's command is the per-rank prefix
// `hwloc-bind $(awk ...) --` with $RANK standing for the launcher's rank
// variable. Errors: a rank without PU os indexes. O(ranks + PUs).
absl::StatusOr<LaunchPlan> HwlocCpusets(const JobPlacement& job,
                                        const std::string& path);

// A POSIX shell script that binds its rank to job.ranks[rank].pus with
// hwloc-bind and execs "$@"; `name` is the script's own name in its
// messages. Errors: a rank without PU os indexes.
absl::StatusOr<std::string> BindWrapperScript(const JobPlacement& job,
                                              const std::string& name);

// Where the wrapper for a hostfile at `path` goes: `path`.bind.sh.
std::string WrapperPath(const std::string& path);

// `path` as a command: "./" prepended to a relative path (a bare name would
// be looked up in PATH, a leading '-' read as an option).
std::string CommandPath(const std::string& path);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_HWLOC_BIND_H_
