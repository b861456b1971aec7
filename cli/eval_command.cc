#include "cli/eval_command.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/mapping_io.h"
#include "core/mapping.h"
#include "core/options.h"
#include "models/channel_params.h"

namespace rankmap::cli {
namespace {

// Name of a tree level for reports: the kind of the first node found at that
// depth.
std::string LevelName(const topology::Tree& tree, int32_t depth) {
  for (topology::NodeId v = tree.num_nodes() - 1; v >= 0; --v) {
    if (tree.depth(v) == depth) return tree.kind(v);
  }
  return "?";
}

}  // namespace

absl::Status RunEval(const EvalCommand& cmd, std::ostream& out) {
  if (!cmd.model.empty())
    RETURN_IF_ERROR(models::ParseModel(cmd.model).status());
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError("--mapping: a mapping file is required");
  ASSIGN_OR_RETURN(core::Mapping mapping, ReadMappingFile(cmd.mapping));
  if (IsNToOne(tree, graph)) {
    // n-to-1 (a partition): capacities are shares, checked against the default
    // imbalance.
    const double imbalance = core::MappingOptions().imbalance;
    if (absl::Status s =
            core::ValidatePartitionMapping(tree, graph, mapping, imbalance);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(cmd.mapping, ": ", std::string(s.message())));
    }
    out << absl::StrFormat("processes        %d (n-to-1 on %d leaves)\n",
                           graph.num_vertices(), tree.num_leaves());
    out << absl::StrFormat("J                %.10g\n",
                           core::ComputeJ(tree, graph, mapping));
    return absl::OkStatus();
  }
  if (absl::Status s =
          core::ValidateMapping(tree, graph.num_vertices(), mapping);
      !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(cmd.mapping, ": ", std::string(s.message())));
  }
  ASSIGN_OR_RETURN(core::CostReport cost, core::Cost(tree, graph, mapping));
  out << absl::StrFormat("processes        %d\n", graph.num_vertices());
  out << absl::StrFormat("leaves           %d\n", tree.num_leaves());
  out << absl::StrFormat("J                %.10g\n", cost.j);
  out << absl::StrFormat("hop-bytes        %.10g\n", cost.hop_bytes);
  out << absl::StrFormat(
      "max link volume  %.10g (above node %d, %s)\n", cost.max_link_volume,
      cost.max_link_node,
      cost.max_link_node >= 0 ? tree.kind(cost.max_link_node) : "-");
  out << "volume by level of the common ancestor:\n";
  for (int32_t d = 0; d < static_cast<int32_t>(cost.level_volume.size()); ++d) {
    out << absl::StrFormat(
        "  depth %d %-10s %.10g\n", d,
        d == tree.height() ? "same leaf" : LevelName(tree, d),
        cost.level_volume[d]);
  }
  if (!cmd.model.empty()) {
    ASSIGN_OR_RETURN(
        const double seconds,
        PredictExchange(cmd.model, cmd.params, tree, graph, mapping));
    out << absl::StrFormat(
        "predicted time   %.6g s per exchange (%s model, every edge both "
        "ways in one phase)\n",
        seconds, cmd.model);
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
