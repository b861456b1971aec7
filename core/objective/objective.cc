#include "core/objective/objective.h"

#include "core/objective/link_load.h"
#include "core/refine/refine.h"

namespace rankmap::core {

bool Better(const Score& a, const Score& b) {
  if (a.estimate < (1.0 - kEstimateMargin) * b.estimate) return true;
  if (b.estimate < (1.0 - kEstimateMargin) * a.estimate) return false;
  return a.cost < b.cost;
}

absl::StatusOr<Objective> Objective::For(const topology::Tree& tree,
                                         const graphs::CommGraph& graph,
                                         const MappingOptions& options) {
  absl::StatusOr<bool> time = UsesTime(options.objective, tree, graph);
  if (!time.ok()) return time.status();
  const bool link_aware = options.link_aware_choice && tree.has_links();
  if (!*time) return Objective(&tree, link_aware, std::nullopt);
  absl::StatusOr<TimeTrees> trees = MakeTimeTrees(tree);
  if (!trees.ok()) return trees.status();
  return Objective(&tree, link_aware, *std::move(trees));
}

double Objective::Cost(const graphs::CommGraph& graph, const Mapping& m) const {
  return is_time() ? TimeCost(*time_, graph, m) : ComputeJ(*tree_, graph, m);
}

double Objective::Estimate(const graphs::CommGraph& graph,
                           const Mapping& m) const {
  // Under J the estimate is what it always was: one round, bytes only.
  return link_aware_ ? EstimateLinkLoad(*tree_, graph, m, is_time()).seconds
                     : 0.0;
}

void Objective::Refine(const graphs::CommGraph& graph, int32_t swap_rounds,
                       Mapping* m, const SlotClasses* classes,
                       ProgressSink* progress) const {
  if (is_time()) {
    RefineMapping(time_->inverse_bandwidth, graph, swap_rounds, m, classes,
                  progress, &time_->latency);
  } else {
    RefineMapping(*tree_, graph, swap_rounds, m, classes, progress);
  }
}

}  // namespace rankmap::core
