#include "cli/simulate_command.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "cli/leaf_numbering.h"
#include "cli/mapping_reader.h"
#include "core/objective/link_load.h"
#include "core/model/mapping.h"
#include "graphs/traffic.h"
#include "topology/simgrid_platform.h"

namespace rankmap::cli {
namespace {

// The last component of a path.
std::string FileName(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

}  // namespace

absl::StatusOr<sim::SimulateOptions> ParseSimulateOptions(
    int64_t iterations, const std::string& smpi_model) {
  // The simulation's work is iterations x messages: a million iterations of
  // one edge took a minute. The time per iteration settles within tens of
  // iterations (2 processes: 2.037e-07 s after 10, 2.027e-07 after 1,000).
  if (iterations < 1 || iterations > kMaxIterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("--iterations: expected an integer in [1, ",
                     kMaxIterations, "], found ", iterations));
  }
  sim::SimulateOptions o;
  o.iterations = iterations;
  o.max_messages = kCommandReplayMessages;
  ASSIGN_OR_RETURN(o.model, sim::ParseSmpiModel(smpi_model));
  return o;
}

absl::StatusOr<sim::ReplayPlan> PlanReplayOf(const Inputs& in,
                                             const sim::SimulateOptions& opts) {
  if (in.comm.empty())
    return absl::InvalidArgumentError(
        "--comm: a communication graph file is required");
  return sim::PlanReplay(in.comm, opts);
}

std::string MessagesLine(const sim::ReplayPlan& plan, const Inputs& in,
                         const sim::SimulateOptions& opts) {
  std::string counts = absl::StrFormat(
      "%d per iteration in %d round%s", plan.messages_per_iteration,
      plan.rounds, plan.rounds == 1 ? "" : "s");
  if (plan.divisor > 1) {
    absl::StrAppend(&counts, ", the recorded counts divided by ", plan.divisor,
                    " to bound the replay's work (the time is a whole "
                    "iteration's)");
  }
  if (!plan.messages.empty()) {
    // Only the name: the output reads the same wherever the files lie.
    const std::string name = FileName(plan.messages);
    return absl::StrCat("messages from ", name, ": ", counts);
  }
  const std::string beside = FileName(graphs::MessagesPathBeside(in.comm));
  const std::string why =
      opts.messages == "none" ? "--messages none"
      : beside.empty()        ? "none named (--messages FILE)"
                       : absl::StrCat("no ", beside, " beside the graph");
  return absl::StrCat("messages: one per pair and direction, ", counts,
                      " (no counts: ", why, ")");
}

absl::StatusOr<sim::Simulator> SimulatorFor(const Inputs& in,
                                            const topology::Tree& tree) {
  if (base::IsRegularFile(in.topology)) {
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(in.topology, "topology file"));
    if (topology::LooksLikeSimGridPlatform(text))
      return sim::Simulator::Create(tree, in.topology);
  }
  return sim::Simulator::Create(tree);
}

absl::Status RunSimulate(const SimulateCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(sim::SimulateOptions opts,
                   ParseSimulateOptions(cmd.iterations, cmd.smpi_model));
  opts.graph_format = cmd.inputs.comm_format;
  opts.messages = cmd.inputs.messages;
  ASSIGN_OR_RETURN(const topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(const sim::ReplayPlan plan, PlanReplayOf(cmd.inputs, opts));
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError("--mapping: a mapping file is required");
  ASSIGN_OR_RETURN(const core::Mapping mapping,
                   ReadAnyMappingFile(cmd.mapping, tree,
                                      LeafNumbering::For(cmd.inputs, tree)));
  if (absl::Status s = core::ValidateMapping(tree, plan.processes, mapping);
      !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(cmd.mapping, ": ", std::string(s.message())));
  }
  ASSIGN_OR_RETURN(const sim::Simulator simulator,
                   SimulatorFor(cmd.inputs, tree));
  ASSIGN_OR_RETURN(const double seconds, simulator.Replay(plan, mapping, opts));
  out << absl::StrFormat(
      "%d processes, %d edges, %d iterations on the %s SMPI model\n",
      plan.processes, plan.edges, opts.iterations, cmd.smpi_model);
  out << MessagesLine(plan, cmd.inputs, opts) << "\n";
  out << absl::StrFormat("simulated time per iteration  %.6g s\n", seconds);
  // What the engine predicts for the same traffic (core/objective/link_load.h), when
  // the machine is rankmap's own tree and the model one it follows.
  ASSIGN_OR_RETURN(const graphs::Traffic traffic, LoadTraffic(cmd.inputs));
  const core::LinkLoad predicted = core::EstimateLinkLoad(
      tree, traffic.graph, mapping, true,
      opts.model == sim::SmpiModel::kExact ? core::LinkModel::kExact
                                           : core::LinkModel::kSmpi);
  out << absl::StrFormat(
      "predicted time per iteration  %.6g s (rankmap's model, "
      "core/objective/link_load.h: %+.1f%% of the simulated)\n",
      predicted.seconds, 100 * (predicted.seconds / seconds - 1));
  return absl::OkStatus();
}

}  // namespace rankmap::cli
