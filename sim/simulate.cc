#include "sim/simulate.h"

#include <unistd.h>

#include <set>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/shell_quote.h"
#include "base/status_macros.h"
#include "graphs/graphs.h"
#include "graphs/traffic.h"
#include "sim/message_plan.h"
#include "sim/platform_check.h"
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

// The tree's host names, each once.
std::vector<std::string> HostNames(const topology::Tree& tree) {
  std::set<std::string> names;
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    if (!tree.host(l).empty()) names.insert(tree.host(l));
  }
  return {names.begin(), names.end()};
}

}  // namespace

absl::StatusOr<ReplayPlan> PlanReplay(const std::string& graph_path,
                                      const SimulateOptions& options) {
  graphs::TrafficOptions traffic_options;
  ASSIGN_OR_RETURN(traffic_options.format,
                   graphs::ParseGraphFormat(options.graph_format));
  ASSIGN_OR_RETURN(traffic_options.messages_format,
                   graphs::ParseGraphFormat(options.messages_format));
  traffic_options.messages = options.messages;
  ASSIGN_OR_RETURN(const graphs::Traffic traffic,
                   graphs::ReadTraffic(graph_path, traffic_options));
  const int64_t divisor = ReplayDivisor(traffic.graph, options.iterations,
                                        options.max_messages);
  ASSIGN_OR_RETURN(const MessagePlan messages,
                   PlanMessages(traffic.graph, graph_path, divisor));
  RETURN_IF_ERROR(CheckReplayWork(messages.messages, options.iterations,
                                  options.max_messages));
  ReplayPlan plan;
  plan.graph = Absolute(graph_path);
  plan.graph_format = options.graph_format;
  plan.messages = Absolute(traffic.messages_path);
  plan.messages_format = options.messages_format;
  plan.processes = traffic.graph.num_vertices();
  plan.edges = traffic.graph.num_edges();
  plan.messages_per_iteration = messages.messages;
  plan.rounds = messages.rounds;
  plan.bytes_per_iteration = messages.bytes;
  plan.divisor = messages.divisor;
  return plan;
}

absl::StatusOr<Simulator> Simulator::Create(const topology::Tree& tree,
                                            const std::string& platform) {
  ASSIGN_OR_RETURN(base::TempDir dir, base::TempDir::Create("sim"));
  // smpirun works there and splits its path at blanks ($TMPDIR may hold
  // one): then /tmp.
  if (base::ShellQuote(dir.path()) != dir.path()) {
    ASSIGN_OR_RETURN(dir, base::TempDir::CreateIn("/tmp", "sim"));
  }
  std::string path = Absolute(platform);
  if (path.empty()) {
    ASSIGN_OR_RETURN(const std::string xml,
                     topology::WriteSimGridPlatform(tree));
    path = dir.path() + "/platform.xml";
    RETURN_IF_ERROR(base::WriteFile(path, xml));
  }
  RETURN_IF_ERROR(CheckPlatform(path, HostNames(tree), dir.path()));
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
  run.hostfile = "hostfile";  // in the work directory
  run.ranks = static_cast<int32_t>(mapping.size());
  run.model = model;
  run.extra_flags = std::move(extra_flags);
  run.work_dir = dir();
  RETURN_IF_ERROR(base::WriteFile(dir() + "/hostfile", hosts));
  return RunSmpi(run);
}

absl::StatusOr<double> Simulator::Replay(const ReplayPlan& plan,
                                         const core::Mapping& mapping,
                                         const SimulateOptions& options) const {
  RETURN_IF_ERROR(core::ValidateMapping(
      *tree_, static_cast<int64_t>(mapping.size()), mapping));
  if (static_cast<int64_t>(mapping.size()) != plan.processes) {
    return absl::InvalidArgumentError(absl::StrCat(
        plan.graph, ": ", plan.processes, " processes in the graph, ",
        mapping.size(), " MPI ranks"));
  }
  RETURN_IF_ERROR(CheckReplayWork(plan.messages_per_iteration,
                                  options.iterations, options.max_messages));
  ASSIGN_OR_RETURN(const std::string program,
                   FindSmpiProgram("replay_smpi.so"));
  // The replay's files as smpirun cannot misread them.
  ASSIGN_OR_RETURN(const std::string graph,
                   SmpiSafePath(plan.graph, dir(), "traffic"));
  std::vector<std::string> args = {
      graph, absl::StrCat("--iterations=", options.iterations),
      absl::StrCat("--format=", plan.graph_format)};
  if (plan.messages.empty()) {
    args.push_back("--messages=none");
  } else {
    ASSIGN_OR_RETURN(const std::string messages,
                     SmpiSafePath(plan.messages, dir(), "messages"));
    args.push_back(absl::StrCat("--messages=", messages));
    args.push_back(absl::StrCat("--messages-format=", plan.messages_format));
    if (plan.divisor > 1)
      args.push_back(absl::StrCat("--divide=", plan.divisor));
  }
  ASSIGN_OR_RETURN(const SmpiOutput out,
                   Run(program, std::move(args), mapping, options.model));
  return ParseTimePerIteration(out.out);
}

absl::StatusOr<double> Simulator::Replay(const std::string& graph_path,
                                         const core::Mapping& mapping,
                                         const SimulateOptions& options) const {
  ASSIGN_OR_RETURN(const ReplayPlan plan, PlanReplay(graph_path, options));
  return Replay(plan, mapping, options);
}

}  // namespace rankmap::sim
