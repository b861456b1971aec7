#include "cli/launch_output.h"

#include <algorithm>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "launch/launch.h"
#include "topology/tleaf.h"

namespace rankmap::cli {

bool IsLaunchFormat(const std::string& format) {
  return launch::IsLaunchFormatName(format);
}

absl::Status CheckLaunchableTopology(const Inputs& inputs,
                                     const std::string& format) {
  std::string head = inputs.topology;
  if (inputs.hierarchy.empty() && base::IsRegularFile(inputs.topology)) {
    // The first token decides (topology::LooksLikeTleaf): a few KiB will do.
    head.assign(4096, '\0');
    std::ifstream file(inputs.topology, std::ios::binary);
    file.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(
        static_cast<size_t>(std::max<std::streamsize>(file.gcount(), 0)));
  }
  // --hierarchy is a tleaf too (topology/hierarchy.h).
  if (inputs.hierarchy.empty() && !topology::LooksLikeTleaf(head))
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "--format ", format,
      ": a tleaf is not a real machine (with links its hosts n0, n1, ... are "
      "names rankmap made up); map onto 'this', an hwloc XML export, a "
      "network spec that names its nodes or a SimGrid platform"));
}

absl::Status WriteLaunchFormat(const std::string& format,
                               const std::string& bind,
                               const topology::Tree& tree,
                               const core::Mapping& mapping,
                               const std::string& output,
                               base::FileBatch& files, std::ostream& out) {
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
  RETURN_IF_ERROR(launch::StageLaunchFiles(plan, files));
  out << "launch: " << plan.command << " ./app\n";
  return absl::OkStatus();
}

}  // namespace rankmap::cli
