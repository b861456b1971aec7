#include "cli/launch_output.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "launch/launch.h"

namespace rankmap::cli {

bool IsLaunchFormat(const std::string& format) {
  return launch::IsLaunchFormatName(format);
}

absl::Status WriteLaunchFormat(const std::string& format,
                               const std::string& bind,
                               const topology::Tree& tree,
                               const core::Mapping& mapping,
                               const std::string& output, std::ostream& out) {
  ASSIGN_OR_RETURN(const launch::LaunchFormat f,
                   launch::ParseLaunchFormat(format));
  launch::LaunchOptions options;
  ASSIGN_OR_RETURN(options.binding, launch::ParseBindingMode(bind));
  if (output.empty() && (f == launch::LaunchFormat::kSlurm ||
                         f == launch::LaunchFormat::kHydra)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--format ", format,
                     ": the launch command names the hostfile; give --output"));
  }
  ASSIGN_OR_RETURN(
      const launch::LaunchPlan plan,
      launch::PlanLaunch(f, tree, mapping, output.empty() ? "FILE" : output,
                         options));
  if (output.empty()) {
    out << plan.files[0].contents;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(launch::WriteLaunchFiles(plan));
  out << "launch: " << plan.command << " ./app\n";
  return absl::OkStatus();
}

}  // namespace rankmap::cli
