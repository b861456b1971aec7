#include "cli/eval_command.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/leaf_numbering.h"
#include "cli/mapping_reader.h"
#include "cli/outputs.h"
#include "core/objective/link_load.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "models/channel_params.h"

namespace rankmap::cli {
namespace {

void PrintLevelVolumes(const topology::Tree& tree, const core::CostReport& cost,
                       std::ostream& out) {
  out << "volume by level of the common ancestor:\n";
  for (const LevelVolume& v : LevelVolumes(tree, cost)) {
    out << absl::StrFormat("  depth %d %-10s %.10g\n", v.depth, v.label,
                           v.volume);
  }
}

}  // namespace

absl::Status RunEval(const EvalCommand& cmd, std::ostream& out) {
  if (!cmd.model.empty())
    RETURN_IF_ERROR(models::ParseModel(cmd.model).status());
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  RETURN_IF_ERROR(CheckCostRangeOf(cmd.inputs, tree, graph));
  // Everything the report needs is read and checked before it starts.
  ASSIGN_OR_RETURN(const std::optional<TimeModel> model,
                   LoadTimeModel(cmd.model, cmd.params, tree));
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError("--mapping: a mapping file is required");
  ASSIGN_OR_RETURN(core::Mapping mapping,
                   ReadAnyMappingFile(cmd.mapping, tree,
                                      LeafNumbering::For(cmd.inputs, tree)));
  // n-to-1 (a partition): capacities are shares, checked against the
  // imbalance asked for.
  if (!(cmd.imbalance >= 0) || !std::isfinite(cmd.imbalance)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--imbalance: ", cmd.imbalance, " is not a finite number >= 0"));
  }
  absl::StatusOr<core::CostReport> checked =
      core::CheckedCost(tree, graph, mapping, cmd.imbalance);
  if (!checked.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        cmd.mapping, ": ", std::string(checked.status().message())));
  }
  const core::CostReport& cost = *checked;
  std::optional<double> seconds;
  if (model) {
    ASSIGN_OR_RETURN(seconds, PredictExchange(*model, tree, graph, mapping));
  }
  Facts facts = MappingFacts(tree, graph, cost);
  if (tree.has_links()) {
    // The engine's own prediction, what map, compare and advise decide by.
    facts.push_back(
        {"time/iteration",
         absl::StrFormat(
             "%.6g s predicted (message rounds and link loads, "
             "core/objective/link_load.h)",
             core::EstimateLinkLoad(tree, graph, mapping).seconds)});
  }
  if (core::IsNTo1(tree, graph)) {
    facts.push_back(
        {"imbalance",
         absl::StrFormat("%.4f (heaviest leaf over its share)",
                         PartitionImbalance(tree, graph, mapping))});
  }
  PrintFacts(facts, out);
  PrintLevelVolumes(tree, cost, out);
  if (seconds) {
    facts.push_back(
        {"predicted time",
         absl::StrFormat("%.6g s per exchange (%s model, every edge both "
                         "ways in one phase)",
                         *seconds, cmd.model)});
    PrintFacts({facts.back()}, out);
  }
  if (!cmd.report.empty()) {
    base::FileBatch files;
    RETURN_IF_ERROR(WriteReport(files, cmd.report,
                                absl::StrCat("rankmap eval: ", cmd.mapping,
                                             " on ", cmd.inputs.topology),
                                facts, tree, graph, mapping, cost, 1, out));
    return files.Commit();
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
