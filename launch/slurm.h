// Slurm: a SLURM_HOSTFILE (line r is the host of rank r) for
// `srun --distribution=arbitrary`, and the binding.
//
//   SLURM_HOSTFILE=m.hosts srun --distribution=arbitrary --cpu-bind=map_cpu:1,0
//   -n 2 ./app m.hosts: # SLURM_HOSTFILE for srun --distribution=arbitrary: one
//   line per rank node01 node01
//
// Binding (BindingMode::kAuto): srun's map_cpu/mask_cpu lists apply to the
// node-local task ids of every node alike (local ids follow rank order on each
// node), so they are used when every node's list is a prefix of one common
// list: `--cpu-bind=map_cpu:<PU os index per local task>`, or
// `--cpu-bind=mask_cpu:<hex mask per local task>` when a rank has several PUs
// (core leaves). Otherwise a wrapper script `<hostfile>.bind.sh` binds each
// rank by SLURM_PROCID with hwloc-bind, and srun gets --cpu-bind=none:
//   SLURM_HOSTFILE=m.hosts srun --distribution=arbitrary --cpu-bind=none -n 8
//   m.hosts.bind.sh ./app
// Ranks sharing a PU add --overcommit (srun refuses more tasks than CPUs
// otherwise). Host names must be Slurm node names. Slurm ignores a binding
// outside the job step's CPUs: allocate whole nodes (--exclusive) or the CPUs
// the mapping uses.
#ifndef RANKMAP_LAUNCH_SLURM_H_
#define RANKMAP_LAUNCH_SLURM_H_

#include <string>

#include "absl/status/statusor.h"
#include "launch/binding_mode.h"
#include "launch/job_placement.h"
#include "launch/launch_plan.h"

namespace rankmap::launch {

// Files: the hostfile at `path` (and `path`.bind.sh with the wrapper). Errors:
// no rank; a binding other than kNone for ranks without PU os indexes.
// O(ranks + PUs).
absl::StatusOr<LaunchPlan> SlurmLaunch(const JobPlacement& job,
                                       const std::string& path,
                                       BindingMode binding);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_SLURM_H_
