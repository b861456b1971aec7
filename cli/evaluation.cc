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

absl::StatusOr<double> PredictExchange(const std::string& model_name,
                                       const std::string& params_path,
                                       const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const core::Mapping& mapping) {
  ASSIGN_OR_RETURN(models::Model model, models::ParseModel(model_name));
  models::ModelParams params = models::DefaultModelParams(tree);
  if (!params_path.empty()) {
    ASSIGN_OR_RETURN(params, models::ReadModelParams(params_path, tree));
  }
  return models::PredictTime(model, params, tree, models::HaloFlow(graph),
                             mapping);
}

}  // namespace rankmap::cli
