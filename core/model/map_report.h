// What Map chose and why, for callers that show it. MapReport (one-to-one:
// "within 0.4% of the best found; kept") is filled when
// MappingOptions::report points to one, by the rule of
// core/strategies/present_order.h; PartitionReport (n-to-1: the candidate
// partitions and their predicted exchanges) when
// MappingOptions::partition_report does, by the rule of
// core/strategies/partition_choice.h.
//
//   MapReport report;
//   options.report = &report;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, options));
//   if (report.kept_present) ...
#ifndef RANKMAP_CORE_MODEL_MAP_REPORT_H_
#define RANKMAP_CORE_MODEL_MAP_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

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
  // core/objective/link_load.h; 0 without links) of the present order, of
  // the best mapping found other than the present order itself, and of the
  // result.
  double present_cost = 0.0, present_estimate = 0.0;
  double best_cost = 0.0, best_estimate = 0.0;
  double chosen_cost = 0.0, chosen_estimate = 0.0;
  // Processes whose leaf differs between the result and the present order.
  int64_t moved = 0;
};

// The deciding measure of the present order, the best found and the result
// (the estimates when decided_by is "predicted", the costs otherwise).
struct DecidingFigures {
  double present = 0.0, best = 0.0, chosen = 0.0;
};
inline DecidingFigures Deciding(const MapReport& r) {
  if (r.decided_by == "predicted")
    return {r.present_estimate, r.best_estimate, r.chosen_estimate};
  return {r.present_cost, r.best_cost, r.chosen_cost};
}

// The predicted exchange of one partition.
struct ExchangePrediction {
  // Predicted time of one exchange in seconds (core/objective/link_load.h;
  // 0 on a tree without links).
  double seconds = 0.0;
  double busiest = 0.0;  // the busiest link's transfer time
  double latency = 0.0;  // the message rounds' latency
  // What the candidates are ranked by after `seconds`: T in seconds under
  // time, J of the exchange's bytes under J.
  double cost = 0.0;
  double cut = 0.0;       // edge weight between different parts (graph units)
  int64_t pairs = 0;      // neighbouring pairs of parts
  double bytes = 0.0;     // bytes of the exchange, both directions
  double messages = 0.0;  // messages of the exchange, both directions
};

// What an n-to-1 Map chose (filled when MappingOptions::partition_report is
// set and an engine strategy partitioned).
struct PartitionReport {
  bool weighed = false;
  std::string objective;  // "time" or "J"
  // The model in words, with where it came from: "40 B per unit of edge
  // weight and 1 message per neighbouring pair, each way (given)".
  std::string model;
  // Why the objective is what it is when it is J ("the topology has no
  // links: the exchange's bytes priced by J, messages not priced"); else "".
  std::string note;
  std::string winner;  // the chosen candidate's name
  struct Candidate {
    std::string name;
    ExchangePrediction prediction;
  };
  std::vector<Candidate> candidates;  // the status quo first
  ExchangePrediction status_quo, chosen;
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MODEL_MAP_REPORT_H_
