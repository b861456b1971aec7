#include "launch/launch.h"

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "launch/hwloc_bind.h"
#include "launch/hydra.h"
#include "launch/job_placement.h"
#include "launch/rankfile.h"
#include "launch/slurm.h"

namespace rankmap::launch {

absl::StatusOr<LaunchFormat> ParseLaunchFormat(std::string_view name) {
  if (name == "rankfile") return LaunchFormat::kRankfile;
  if (name == "ompi5") return LaunchFormat::kOmpi5;
  if (name == "slurm") return LaunchFormat::kSlurm;
  if (name == "hydra") return LaunchFormat::kHydra;
  if (name == "hwloc") return LaunchFormat::kHwloc;
  return absl::InvalidArgumentError(
      absl::StrCat("launch: unknown format '", std::string(name),
                   "' (expected rankfile, ompi5, slurm, hydra, hwloc)"));
}

bool IsLaunchFormatName(std::string_view name) {
  return ParseLaunchFormat(name).ok();
}

absl::StatusOr<LaunchPlan> PlanLaunch(LaunchFormat format,
                                      const topology::Tree& tree,
                                      const core::Mapping& mapping,
                                      const std::string& path,
                                      const LaunchOptions& options) {
  // The path is quoted wherever a command holds it, but a line break would
  // still split the comment lines of the files that repeat the command.
  for (const char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(
          "launch: the output path holds a control character (a line break "
          "would split the launcher file's lines)");
    }
  }
  ASSIGN_OR_RETURN(const JobPlacement job, PlaceJob(tree, mapping));
  switch (format) {
    case LaunchFormat::kRankfile:
      return OpenMpi4Rankfile(job, path);
    case LaunchFormat::kOmpi5:
      return OpenMpi5Rankfile(job, path);
    case LaunchFormat::kSlurm:
      return SlurmLaunch(job, path, options.binding);
    case LaunchFormat::kHydra:
      return HydraLaunch(job, path, options.binding);
    case LaunchFormat::kHwloc:
      return HwlocCpusets(job, path);
  }
  return absl::InternalError("launch: unhandled format");
}

absl::Status StageLaunchFiles(const LaunchPlan& plan, base::FileBatch& files) {
  for (const LaunchFile& f : plan.files) {
    RETURN_IF_ERROR(files.Write(f.path, f.contents, f.executable));
  }
  return absl::OkStatus();
}

absl::Status WriteLaunchFiles(const LaunchPlan& plan) {
  base::FileBatch files;
  RETURN_IF_ERROR(StageLaunchFiles(plan, files));
  return files.Commit();
}

}  // namespace rankmap::launch
