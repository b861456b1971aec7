#include "cli/evaluation.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "models/channel_params.h"
#include "models/cost_model.h"
#include "models/flow.h"

namespace rankmap::cli {

Facts MappingFacts(const topology::Tree& tree, const graphs::CommGraph& graph,
                   const core::CostReport& cost) {
  return {
      {"processes", absl::StrCat(graph.num_vertices(),
                                 core::IsNTo1(tree, graph) ? " (n-to-1)" : "")},
      {"leaves", absl::StrCat(tree.num_leaves())},
      {"J", absl::StrFormat("%.10g", cost.j)},
      {"hop-bytes", absl::StrFormat("%.10g", cost.hop_bytes)},
      {"max link volume",
       absl::StrFormat(
           "%.10g (above node %d, %s)", cost.max_link_volume,
           cost.max_link_node,
           cost.max_link_node >= 0 ? tree.kind(cost.max_link_node) : "-")}};
}

double PartitionImbalance(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const core::Mapping& mapping) {
  std::vector<double> load(tree.num_leaves(), 0.0);
  for (graphs::VertexId v = 0; v < graph.num_vertices(); ++v) {
    load[mapping[v]] += graph.vertex_weight(v);
  }
  const double total = graph.TotalVertexWeight();
  const double capacity = static_cast<double>(tree.Capacity(tree.root()));
  double worst = 0.0;
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    const double share = total * tree.capacity(l) / capacity;
    if (share > 0) worst = std::max(worst, load[l] / share - 1.0);
  }
  return worst;
}

void PrintFacts(const Facts& facts, std::ostream& out) {
  for (const auto& [label, value] : facts)
    out << absl::StrFormat("%-16s %s\n", label, value);
}

std::vector<LevelVolume> LevelVolumes(const topology::Tree& tree,
                                      const core::CostReport& cost) {
  std::vector<std::vector<LevelVolume>> rows(tree.height());
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    // Each internal node once: from its first leaf, walk up while l starts it.
    for (topology::NodeId v = tree.parent(l); v >= 0 && tree.leaf_begin(v) == l;
         v = tree.parent(v)) {
      std::vector<LevelVolume>& row = rows[tree.depth(v)];
      auto it = std::find_if(row.begin(), row.end(), [&](const auto& r) {
        return r.label == tree.kind(v);
      });
      if (it == row.end()) {
        row.push_back({tree.depth(v), tree.kind(v), 0.0});
        it = row.end() - 1;
      }
      it->volume += cost.node_volume[v];
    }
  }
  std::vector<LevelVolume> out;
  for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
  out.push_back({tree.height(), "same leaf", cost.level_volume[tree.height()]});
  return out;
}

absl::StatusOr<std::optional<TimeModel>> LoadTimeModel(
    const std::string& model_name, const std::string& params_path,
    const topology::Tree& tree) {
  if (model_name.empty()) {
    if (!params_path.empty()) {
      return absl::InvalidArgumentError(
          "--params: needs --model (hockney, lmo, hloggp, taulop)");
    }
    return std::nullopt;
  }
  TimeModel m;
  m.name = model_name;
  m.source = params_path.empty() ? "default parameters" : params_path;
  ASSIGN_OR_RETURN(m.model, models::ParseModel(model_name));
  if (params_path.empty()) {
    m.params = models::DefaultModelParams(tree);
  } else {
    ASSIGN_OR_RETURN(m.params, models::ReadModelParams(params_path, tree));
  }
  return m;
}

absl::StatusOr<double> PredictExchange(const TimeModel& model,
                                       const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const core::Mapping& mapping) {
  models::PredictOptions options;
  options.shared_leaves = core::IsNTo1(tree, graph);
  ASSIGN_OR_RETURN(
      const double seconds,
      models::PredictTime(model.model, model.params, tree,
                          models::HaloFlow(graph), mapping, options));
  // The parameters are bounded (models/channel_params.h), the volumes only
  // by a double: their product can still leave the range.
  if (!std::isfinite(seconds)) {
    return absl::InvalidArgumentError(absl::StrCat(
        model.source, ": the ", model.name,
        " prediction is not finite (the graph's volumes times these "
        "per-byte times exceed a double)"));
  }
  return seconds;
}

}  // namespace rankmap::cli
