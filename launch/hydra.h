// MPICH's Hydra (mpiexec.hydra): a hostfile of `host:count` runs in rank order
// and the binding.
//
//   mpiexec.hydra -f m.hosts -bind-to user:1,0 -n 2 ./app
//   m.hosts:
//   # mpiexec.hydra -f: host:count runs in rank order
//   node01:2
//
// Hydra starts one proxy per hostfile line (consecutive lines naming one host
// merge) and numbers ranks locally per proxy; `-bind-to user:a,b+c,...`
// binds local rank k of every proxy to entry k (PU os indexes, `+` joining
// several). That list is used when every run's list is a prefix of one common
// list; otherwise (or with BindingMode::kWrapper) the wrapper script
// `<hostfile>.bind.sh` binds each rank by PMI_RANK with hwloc-bind:
//   mpiexec.hydra -f m.hosts -n 8 m.hosts.bind.sh ./app
#ifndef RANKMAP_LAUNCH_HYDRA_H_
#define RANKMAP_LAUNCH_HYDRA_H_

#include <string>

#include "absl/status/statusor.h"
#include "launch/binding_mode.h"
#include "launch/job_placement.h"
#include "launch/launch_plan.h"

namespace rankmap::launch {

// Files: the hostfile at `path` (and `path`.bind.sh with the wrapper). Errors:
// no rank; a binding other than kNone for ranks without PU os indexes.
// O(ranks + PUs).
absl::StatusOr<LaunchPlan> HydraLaunch(const JobPlacement& job,
                                       const std::string& path,
                                       BindingMode binding);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_HYDRA_H_
