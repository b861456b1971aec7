// MapReport: what Map chose and why, for callers that show it ("within 0.4%
// of the best found; kept"). Map fills it when MappingOptions::report points
// to one; the rule it reports is core/strategies/present_order.h's.
//
//   MapReport report;
//   options.report = &report;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, options));
//   if (report.kept_present) ...
#ifndef RANKMAP_CORE_MODEL_MAP_REPORT_H_
#define RANKMAP_CORE_MODEL_MAP_REPORT_H_

#include <cstdint>
#include <string>

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

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MODEL_MAP_REPORT_H_
