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
//     (core/objective/link_load.h: message rounds, the busiest link of each, the
//     processes each message waits for): the best replaces the present order
//     when it is predicted faster by more than options.keep_margin. The
//     margin is what a prediction is trusted to: a remap that gains less is
//     not worth the risk;
//   * without links (or with link-aware choices turned off), under time T
//     (core/objective/time_objective.h) by more than the margin, under J any lower J.
// The best of the candidates is the portfolio's ranking (core/objective/objective.h);
// only the decision against the present order is by the one measure, so a
// replaced order always comes with a positive gain in it.
//
//   MapReport report;
//   options.report = &report;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, options));
//   if (report.kept_present) ...   // "within 0.4% of the best found; kept"
#ifndef RANKMAP_CORE_STRATEGIES_PRESENT_ORDER_H_
#define RANKMAP_CORE_STRATEGIES_PRESENT_ORDER_H_

#include "absl/status/statusor.h"
#include "core/model/map_report.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/objective/objective.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

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

#endif  // RANKMAP_CORE_STRATEGIES_PRESENT_ORDER_H_
