#include "cli/compare_command.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "api/named_options.h"
#include "base/status_macros.h"
#include "cli/comparison.h"
#include "cli/evaluation.h"
#include "cli/outputs.h"
#include "cli/progress_line.h"
#include "cli/simulate_command.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "models/channel_params.h"

namespace rankmap::cli {

absl::Status RunCompare(const CompareCommand& cmd, std::ostream& out) {
  if (!cmd.model.empty())
    RETURN_IF_ERROR(models::ParseModel(cmd.model).status());
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(const graphs::Traffic traffic,
                   LoadTraffic(cmd.inputs, MapBytes(tree, cmd.threads)));
  const graphs::CommGraph& graph = traffic.graph;
  RETURN_IF_ERROR(CheckCostRangeOf(cmd.inputs, tree, graph));
  ASSIGN_OR_RETURN(const std::optional<TimeModel> model,
                   LoadTimeModel(cmd.model, cmd.params, tree));
  std::vector<core::Algorithm> selected;
  if (!cmd.algorithms.empty()) {
    ASSIGN_OR_RETURN(selected, ParseAlgorithmList(cmd.algorithms));
  }
  ASSIGN_OR_RETURN(
      core::MappingOptions opts,
      api::ResolveOptions(
          {.preset = cmd.preset, .seed = cmd.seed, .threads = cmd.threads}));
  RETURN_IF_ERROR(ApplyChoice(cmd.choice, cmd.inputs, tree, &opts));
  RETURN_IF_ERROR(ApplyExchange(cmd.choice, graph, &opts));
  core::MapReport choice_report;
  opts.report = &choice_report;
  out << absl::StrFormat("%d processes, %d edges, %d leaves\n",
                         graph.num_vertices(), graph.num_edges(),
                         tree.num_leaves());
  // With --simulate the replay plan's line names the messages instead.
  if (const std::string line = MessagesLine(traffic);
      !line.empty() && !cmd.simulate)
    out << line << "\n";
  std::optional<sim::Simulator> simulator;
  ExtraColumn simulated;
  if (cmd.simulate) {
    ASSIGN_OR_RETURN(sim::SimulateOptions sim_opts,
                     ParseSimulateOptions(cmd.iterations, cmd.smpi_model));
    sim_opts.graph_format = cmd.inputs.comm_format;
    sim_opts.messages = cmd.inputs.messages;
    ASSIGN_OR_RETURN(const sim::ReplayPlan plan,
                     PlanReplayOf(cmd.inputs, sim_opts));
    ASSIGN_OR_RETURN(simulator, SimulatorFor(cmd.inputs, tree));
    out << MessagesLine(plan, cmd.inputs, sim_opts) << "\n";
    simulated.header = "simulated (s)";
    simulated.ranks = true;
    simulated.value = [&, sim_opts, plan](const core::Mapping& m) {
      return simulator->Replay(plan, m, sim_opts);
    };
  }
  core::Mapping best;
  {
    ProgressLine progress("comparing algorithms",
                          ProgressModeFor(cmd.quiet, cmd.progress));
    RETURN_IF_ERROR(PrintComparison(
        tree, graph, opts, out, &best, model ? &*model : nullptr, &progress,
        cmd.simulate ? &simulated : nullptr, selected));
  }
  if (const std::string line = PresentVerdict(choice_report, cmd.choice);
      !line.empty())
    out << line << "\n";
  if (!cmd.svg.empty()) {
    ASSIGN_OR_RETURN(const core::CostReport cost,
                     core::CheckedCost(tree, graph, best, opts.imbalance));
    base::FileBatch files;
    RETURN_IF_ERROR(
        WritePictures(files, cmd.svg, tree, graph, best, cost, 1, out));
    return files.Commit();
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
