#include "sim/simulate.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "sim/smpi_hostfile.h"
#include "topology/simgrid_platform.h"

namespace rankmap::sim {
namespace {

// smpirun runs in the simulator's directory: relative paths must not be.
std::string Absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  char buf[4096];
  if (getcwd(buf, sizeof(buf)) == nullptr) return path;
  return absl::StrCat(buf, "/", path);
}

}  // namespace

absl::StatusOr<Simulator> Simulator::Create(const topology::Tree& tree,
                                            const std::string& platform) {
  ASSIGN_OR_RETURN(base::TempDir dir, base::TempDir::Create("sim"));
  std::string path = Absolute(platform);
  if (path.empty()) {
    ASSIGN_OR_RETURN(const std::string xml,
                     topology::WriteSimGridPlatform(tree));
    path = dir.path() + "/platform.xml";
    RETURN_IF_ERROR(base::WriteFile(path, xml));
  }
  return Simulator(&tree, std::move(dir), std::move(path));
}

absl::StatusOr<SmpiOutput> Simulator::Run(
    const std::string& program, std::vector<std::string> args,
    const core::Mapping& mapping, SmpiModel model,
    std::vector<std::string> extra_flags) const {
  ASSIGN_OR_RETURN(const std::string hosts, SmpiHostfile(*tree_, mapping));
  SmpiRun run;
  run.program = program;
  run.args = std::move(args);
  run.platform = platform_;
  run.hostfile = dir() + "/hostfile";
  run.ranks = static_cast<int32_t>(mapping.size());
  run.model = model;
  run.extra_flags = std::move(extra_flags);
  run.work_dir = dir();
  RETURN_IF_ERROR(base::WriteFile(run.hostfile, hosts));
  return RunSmpi(run);
}

absl::StatusOr<double> Simulator::Replay(const std::string& graph_path,
                                         const core::Mapping& mapping,
                                         const SimulateOptions& options) const {
  RETURN_IF_ERROR(core::ValidateMapping(
      *tree_, static_cast<int64_t>(mapping.size()), mapping));
  ASSIGN_OR_RETURN(const std::string program,
                   FindSmpiProgram("replay_smpi.so"));
  ASSIGN_OR_RETURN(const SmpiOutput out,
                   Run(program,
                       {Absolute(graph_path),
                        absl::StrCat("--iterations=", options.iterations)},
                       mapping, options.model));
  return ParseTimePerIteration(out.out);
}

}  // namespace rankmap::sim
