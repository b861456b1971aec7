// Front door of launch/: what launchers read, written from a Tree and a
// Mapping, so a mapped job starts with its ranks where the mapping put them.
// No MPI here: these are files and command lines.
//
//   ASSIGN_OR_RETURN(LaunchPlan plan,
//                    PlanLaunch(LaunchFormat::kSlurm, tree, mapping,
//                    "m.hosts"));
//   RETURN_IF_ERROR(WriteLaunchFiles(plan));
//   std::cout << plan.command << " ./app\n";
//   // SLURM_HOSTFILE=m.hosts srun --distribution=arbitrary
//   --cpu-bind=map_cpu:1,0 -n 2 ./app
//
// Formats (rankfiles and cpuset files open with a comment holding the
// command that reads them; hostfiles with a short fixed comment):
//   rankfile  Open MPI 4 `mpirun --rankfile` (launch/rankfile.h)
//   ompi5     Open MPI 5 `mpirun --map-by rankfile:file=F` (launch/rankfile.h)
//   slurm     SLURM_HOSTFILE + --cpu-bind or a wrapper (launch/slurm.h)
//   hydra     MPICH `mpiexec.hydra -f F -bind-to user:...` (launch/hydra.h)
//   hwloc     one cpuset per rank for hwloc-bind (launch/hwloc_bind.h)
// Hosts and PU numbers come from the tree's leaves (launch/job_placement.h): a
// tree without host names (tleaf, synthetic) is refused with an error.
//
// For a binder running inside each rank (rankmap bind): the rank a launcher
// gave the process (launch/rank_environment.h) and OpenMP places for the
// leaves it owns (launch/thread_places.h).
#ifndef RANKMAP_LAUNCH_LAUNCH_H_
#define RANKMAP_LAUNCH_LAUNCH_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/file_batch.h"
#include "core/model/mapping.h"
#include "launch/binding_mode.h"
#include "launch/launch_plan.h"
#include "launch/rank_environment.h"
#include "launch/thread_places.h"
#include "topology/tree.h"

namespace rankmap::launch {

enum class LaunchFormat { kRankfile, kOmpi5, kSlurm, kHydra, kHwloc };

// "rankfile", "ompi5", "slurm", "hydra", "hwloc"; nullopt-like error for
// anything else (the message lists them).
absl::StatusOr<LaunchFormat> ParseLaunchFormat(std::string_view name);
bool IsLaunchFormatName(std::string_view name);

struct LaunchOptions {
  // Slurm and Hydra only (launch/binding_mode.h).
  BindingMode binding = BindingMode::kAuto;
};

// The files and command of `format` for mapping[rank] = leaf, the main file
// at `path`. Every path and host name in the command and in generated scripts
// is quoted for the shell (base::ShellQuote), host names are checked
// (base::CheckHostName). Errors: invalid leaf ids, leaves without hosts or
// with names CheckHostName refuses, a path with a control character, formats
// that need PU os indexes on trees without them, bindings a format cannot
// express.
absl::StatusOr<LaunchPlan> PlanLaunch(LaunchFormat format,
                                      const topology::Tree& tree,
                                      const core::Mapping& mapping,
                                      const std::string& path,
                                      const LaunchOptions& options = {});

// Writes every file of the plan (wrapper scripts with mode 0755). Errors name
// the file.
// The plan's files into `files` (base/file_batch.h), wrapper scripts
// executable; the caller commits them with its other outputs.
absl::Status StageLaunchFiles(const LaunchPlan& plan, base::FileBatch& files);

// The plan's files, all or none.
absl::Status WriteLaunchFiles(const LaunchPlan& plan);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_LAUNCH_H_
