// The order the user already has, as a candidate that is kept unless beaten.
//
// A user who runs an application launched in the natural (packed) order, or
// placed by hand, has something that works; a remap is worth it only when it
// is predicted to be faster. The portfolio's result is therefore weighed
// against the present order (MappingOptions::present, the identity when
// empty) and, under the time objective, against the present order refined
// (a few processes moved), and the present order is kept unless the best of
// them is predicted better by one measure, the one MapReport carries and the
// command prints:
//   * on a tree with links, the predicted time per iteration
//     (core/link_load.h: message rounds, the busiest link of each, the
//     processes each message waits for): the best replaces the present order
//     when it is predicted faster by more than options.keep_margin. The
//     margin is what a prediction is trusted to: a remap that gains less is
//     not worth the risk;
//   * without links (or with link-aware choices turned off), under time T
//     (core/time_objective.h) by more than the margin, under J any lower J.
// The best of the candidates is the portfolio's ranking (core/objective.h);
// only the decision against the present order is by the one measure, so a
// replaced order always comes with a positive gain in it.
//
//   MapReport report;
//   options.report = &report;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, options));
//   if (report.kept_present) ...   // "within 0.4% of the best found; kept"
#ifndef RANKMAP_CORE_PRESENT_ORDER_H_
#define RANKMAP_CORE_PRESENT_ORDER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "core/objective.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// What Map chose and why (filled when MappingOptions::report is set and the
// portfolio ran one-to-one; `weighed` says whether it was).
struct MapReport {
  bool weighed = false;          // the present order was weighed
  std::string objective;         // "J" or "time"
  bool kept_present = false;     // the result is the present order
  bool present_refined = false;  // the result is the present order refined
  // The measure that decided: "predicted" (seconds per iteration, the
  // estimates below), "T" or "J" (the costs below).
  std::string decided_by;
  // Cost (J, or T in seconds) and predicted time per iteration (seconds,
  // core/link_load.h; 0 without links) of the present order, of the best
  // mapping found other than the present order itself, and of the result.
  double present_cost = 0.0, present_estimate = 0.0;
  double best_cost = 0.0, best_estimate = 0.0;
  double chosen_cost = 0.0, chosen_estimate = 0.0;
  // Processes whose leaf differs between the result and the present order.
  int64_t moved = 0;
};

// The deciding measure of the present order, the best found and the result
// (estimates when decided_by is "predicted", costs otherwise).
struct DecidingFigures {
  double present = 0.0, best = 0.0, chosen = 0.0;
};
DecidingFigures Deciding(const MapReport& report);

// The present order of options: options.present, or the identity (packed)
// order when it is empty. Errors: ValidateMapping's, prefixed "present order".
absl::StatusOr<Mapping> PresentOrder(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options);

// Weighs `found` (the portfolio's result) against the present order as the
// top of this file says and returns what to keep; fills *report when not
// null. Requires valid one-to-one mappings.
Mapping KeepPresentUnlessBeaten(const Objective& objective,
                                const graphs::CommGraph& graph,
                                const MappingOptions& options,
                                const Mapping& present, Mapping found,
                                MapReport* report);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_PRESENT_ORDER_H_
