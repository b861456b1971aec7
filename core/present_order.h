// The order the user already has, as a candidate that is kept unless beaten.
//
// A user who runs an application launched in the natural (packed) order, or
// placed by hand, has something that works; a remap is worth it only when it
// is predicted to be faster. The portfolio's result is therefore weighed
// against the present order (MappingOptions::present, the identity when
// empty) and, under the time objective, against the present order refined
// (a few processes moved), and the present order is kept unless the best of
// them is predicted better:
//   * under J, by any lead (the rule the portfolio ranks its own candidates
//     by: the link-load estimate when it separates them by more than 5%, J
//     otherwise);
//   * under time, when it is not predicted slower by the link-load estimate
//     of one exchange (core/link_load.h, message rounds counted) and leads by
//     more than options.keep_margin in that estimate or in T
//     (core/time_objective.h). The margin is what a prediction is trusted to:
//     a remap that gains less than it is not worth the risk.
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
  // Cost (J, or T in seconds) and link-load estimate (seconds; 0 without
  // links) of the present order, of the best mapping found other than the
  // present order itself, and of the result.
  double present_cost = 0.0, present_estimate = 0.0;
  double best_cost = 0.0, best_estimate = 0.0;
  double chosen_cost = 0.0, chosen_estimate = 0.0;
  // Processes whose leaf differs between the result and the present order.
  int64_t moved = 0;
};

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
