// The objective of one Map call: J on the caller's tree, or predicted time
// (core/objective/time_objective.h) where MappingOptions::objective and the
// inputs allow it. The strategies build mappings as they always did; what this
// decides is how results are refined and compared: the portfolio's choice
// between candidates, the refinement of each, and the weighing of the present
// order (core/strategies/present_order.h).
//
//   ASSIGN_OR_RETURN(Objective obj, Objective::For(tree, graph, options));
//   obj.Refine(graph, options.refine.swap_rounds, &m, nullptr, progress);
//   const double cost = obj.Cost(graph, m);   // J, or T in seconds
#ifndef RANKMAP_CORE_OBJECTIVE_OBJECTIVE_H_
#define RANKMAP_CORE_OBJECTIVE_OBJECTIVE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/model/progress.h"
#include "core/model/slot_classes.h"
#include "core/objective/time_objective.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// How two mappings rank: the link-load estimate decides when it separates
// them by more than kEstimateMargin, the cost (J or T) otherwise. On trees
// without links the estimate stays 0 and the cost alone decides.
struct Score {
  double estimate = 0.0;
  double cost = 0.0;
};

// The estimate leaves out what the cost keeps (every pair's route, the links
// below the busiest), so a small lead in it is not trusted. Measured in
// simulated time (bench/sim): a 12.9% lower estimate was 12% faster (the
// 256-rank stencil), a 3.4% lower one 6% slower (the 1024-rank stencil, where
// J was right); leads of 0.6% were within 1% either way.
inline constexpr double kEstimateMargin = 0.05;

// True when a ranks strictly before b.
bool Better(const Score& a, const Score& b);

class Objective {
 public:
  // Errors: UsesTime's (kTime on inputs without counts or links). The tree
  // must outlive the Objective.
  static absl::StatusOr<Objective> For(const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const MappingOptions& options);

  bool is_time() const { return time_.has_value(); }
  // "J" or "time".
  std::string_view name() const { return is_time() ? "time" : "J"; }

  // J, or T in seconds. Requires a valid mapping. O(m * depth).
  double Cost(const graphs::CommGraph& graph, const Mapping& m) const;
  // The link-load estimate of one exchange's duration
  // (core/objective/link_load.h; under time it counts message rounds, under J
  // one round as before); 0 on trees without links or when the options turn
  // link-aware choices off.
  double Estimate(const graphs::CommGraph& graph, const Mapping& m) const;
  Score ScoreOf(const graphs::CommGraph& graph, const Mapping& m) const {
    return {Estimate(graph, m), Cost(graph, m)};
  }
  // RefineMapping (core/refine/refine.h) under this objective: never raises
  // Cost.
  void Refine(const graphs::CommGraph& graph, int32_t swap_rounds, Mapping* m,
              const SlotClasses* classes, ProgressSink* progress) const;

 private:
  Objective(const topology::Tree* tree, bool link_aware,
            std::optional<TimeTrees> time)
      : tree_(tree), link_aware_(link_aware), time_(std::move(time)) {}

  const topology::Tree* tree_;
  bool link_aware_;
  std::optional<TimeTrees> time_;
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_OBJECTIVE_OBJECTIVE_H_
