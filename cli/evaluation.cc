#include "cli/evaluation.h"

#include "base/status_macros.h"
#include "models/channel_params.h"
#include "models/cost_model.h"
#include "models/flow.h"

namespace rankmap::cli {

bool IsNToOne(const topology::Tree& tree, const graphs::CommGraph& graph) {
  return graph.num_vertices() > tree.Capacity(tree.root());
}

absl::StatusOr<double> CheckedJ(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const core::Mapping& mapping,
                                double imbalance) {
  if (IsNToOne(tree, graph)) {
    RETURN_IF_ERROR(
        core::ValidatePartitionMapping(tree, graph, mapping, imbalance));
    return core::ComputeJ(tree, graph, mapping);
  }
  ASSIGN_OR_RETURN(core::CostReport cost, core::Cost(tree, graph, mapping));
  return cost.j;
}

absl::StatusOr<core::CostReport> CheckedCost(const topology::Tree& tree,
                                             const graphs::CommGraph& graph,
                                             const core::Mapping& mapping,
                                             double imbalance) {
  if (IsNToOne(tree, graph))
    return core::PartitionCost(tree, graph, mapping, imbalance);
  return core::Cost(tree, graph, mapping);
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
  options.shared_leaves = IsNToOne(tree, graph);
  return models::PredictTime(model.model, model.params, tree,
                             models::HaloFlow(graph), mapping, options);
}

}  // namespace rankmap::cli
