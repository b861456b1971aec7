#include "cli/eval_command.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/mapping_reader.h"
#include "core/mapping.h"
#include "core/options.h"
#include "models/channel_params.h"

namespace rankmap::cli {
namespace {

// "volume by level of the common ancestor": one row per depth, or, where
// nodes of different kinds share a depth (a network of unlike machines), one
// row per kind there, so that each label says what its volume crossed.
void PrintLevelVolumes(const topology::Tree& tree, const core::CostReport& cost,
                       std::ostream& out) {
  out << "volume by level of the common ancestor:\n";
  // Kinds per depth in left-to-right order, with their volumes.
  std::vector<std::vector<std::pair<std::string, double>>> rows(tree.height());
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    // Each internal node once: from its first leaf, walk up while l starts it.
    for (topology::NodeId v = tree.parent(l); v >= 0 && tree.leaf_begin(v) == l;
         v = tree.parent(v)) {
      auto& row = rows[tree.depth(v)];
      auto it = std::find_if(row.begin(), row.end(), [&](const auto& r) {
        return r.first == tree.kind(v);
      });
      if (it == row.end()) {
        row.push_back({tree.kind(v), 0.0});
        it = row.end() - 1;
      }
      it->second += cost.node_volume[v];
    }
  }
  for (int32_t d = 0; d < tree.height(); ++d) {
    if (rows[d].size() == 1) {
      out << absl::StrFormat("  depth %d %-10s %.10g\n", d, rows[d][0].first,
                             cost.level_volume[d]);
      continue;
    }
    for (const auto& [kind, volume] : rows[d]) {
      out << absl::StrFormat("  depth %d %-10s %.10g\n", d, kind, volume);
    }
  }
  out << absl::StrFormat("  depth %d %-10s %.10g\n", tree.height(), "same leaf",
                         cost.level_volume[tree.height()]);
}

}  // namespace

absl::Status RunEval(const EvalCommand& cmd, std::ostream& out) {
  if (!cmd.model.empty())
    RETURN_IF_ERROR(models::ParseModel(cmd.model).status());
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  // Everything the report needs is read and checked before it starts.
  ASSIGN_OR_RETURN(const std::optional<TimeModel> model,
                   LoadTimeModel(cmd.model, cmd.params, tree));
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError("--mapping: a mapping file is required");
  ASSIGN_OR_RETURN(core::Mapping mapping,
                   ReadAnyMappingFile(cmd.mapping, tree));
  const bool n_to_one = IsNToOne(tree, graph);
  // n-to-1 (a partition): capacities are shares, checked against the default
  // imbalance.
  absl::StatusOr<core::CostReport> checked =
      CheckedCost(tree, graph, mapping, core::MappingOptions().imbalance);
  if (!checked.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        cmd.mapping, ": ", std::string(checked.status().message())));
  }
  const core::CostReport& cost = *checked;
  std::optional<double> seconds;
  if (model) {
    ASSIGN_OR_RETURN(seconds, PredictExchange(*model, tree, graph, mapping));
  }
  out << absl::StrFormat("processes        %d%s\n", graph.num_vertices(),
                         n_to_one ? " (n-to-1)" : "");
  out << absl::StrFormat("leaves           %d\n", tree.num_leaves());
  out << absl::StrFormat("J                %.10g\n", cost.j);
  out << absl::StrFormat("hop-bytes        %.10g\n", cost.hop_bytes);
  out << absl::StrFormat(
      "max link volume  %.10g (above node %d, %s)\n", cost.max_link_volume,
      cost.max_link_node,
      cost.max_link_node >= 0 ? tree.kind(cost.max_link_node) : "-");
  PrintLevelVolumes(tree, cost, out);
  if (seconds) {
    out << absl::StrFormat(
        "predicted time   %.6g s per exchange (%s model, every edge both "
        "ways in one phase)\n",
        *seconds, cmd.model);
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
