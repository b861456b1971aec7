// The n-to-1 choice by predicted time: which of several partitions of one
// graph onto a tree's leaves makes the application's exchange fastest.
//
// J prices bytes x distance. When the traffic is many small messages, J cannot
// tell a good partition from a harmful one: a machine-aware partition that
// lowers J can add neighbouring pairs of parts, and every pair pays its
// messages' latency. The n-to-1 path therefore predicts the time of one
// exchange of each candidate partition and keeps the fastest, with the
// partition the user has now among the candidates.
//
// Model (MappingOptions::exchange, core/options.h): the quotient graph of the
// parts (one vertex per leaf; w(p, q) = the edge weight between parts p and q,
// its exchange graph) carries bytes_per_unit x w each way and
// messages_per_pair messages each way between every neighbouring pair. A graph
// with message counts and a default model is its own exchange: its bytes and
// counts summed between parts. The exchange is priced on the tree's links as a
// one-to-one mapping is (part p on leaf p): the link-load estimate
// (core/link_load.h: the busiest link's transfer time plus the latency of the
// message rounds) and T (core/time_objective.h: messages x latency + bytes /
// bandwidth summed over pairs). A tree without links prices the exchange's
// bytes by J (messages unpriced) and says so.
//
// Candidates (ChoosePartition): the partition the engine found
// ("machine-aware"); the status quo ("status quo": the same graph
// partitioned as if onto a complete graph, a flat tree of the same leaf
// capacities, part p on leaf p, by Scotch as PETSc's ptscotch and OpenFOAM's
// scotch method call it with parts in rank order); Scotch's machine-aware
// mapping
// ("scotch", when MappingOptions::scotch_candidate and it meets the balance
// bound). The best other candidate replaces the status quo, as the present
// order is replaced in one-to-one mapping (core/present_order.h), only when it
// is not predicted slower by the link-load estimate and leads by more than
// keep_margin in that estimate or in T; under J, by any lead in J. So the
// result is never predicted slower than the status quo.
//
//   PartitionReport report;
//   options.partition_report = &report;
//   options.exchange = {.bytes_per_unit = 40, .messages_per_pair = 1,
//                       .source = ExchangeModel::Source::kGiven};
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, mesh, options));   // n-to-1
//   report.winner;                      // "machine-aware", "status quo", ...
//   report.chosen.seconds / report.status_quo.seconds;
#ifndef RANKMAP_CORE_PARTITION_CHOICE_H_
#define RANKMAP_CORE_PARTITION_CHOICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// The predicted exchange of one partition.
struct ExchangePrediction {
  // Link-load estimate of one exchange in seconds (0 on a tree without
  // links): busiest + latency.
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

// The model in words, as PartitionReport::model gives it.
std::string DescribeExchange(const ExchangeModel& model,
                             const graphs::CommGraph& graph);

// The exchange graph of a partition: one vertex per leaf of `tree`, bytes
// and message counts of both directions as the top of this file says.
// Requires a mapping with one in-range leaf per vertex. Errors: the model's
// (negative or non-finite values). O(n + m + leaves).
absl::StatusOr<graphs::CommGraph> ExchangeGraph(const topology::Tree& tree,
                                                const graphs::CommGraph& graph,
                                                const Mapping& mapping,
                                                const ExchangeModel& model);

// The prediction of one partition under `options` (objective, exchange).
// Errors: ExchangeGraph's; the time objective (kTime) on a tree without
// links. O(n + m + leaves x depth).
absl::StatusOr<ExchangePrediction> PredictExchange(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const Mapping& mapping, const MappingOptions& options);

// The status quo: `graph` partitioned onto a flat tree of the same leaf
// capacities, part p on leaf p: by Scotch (core/scotch_map.h), or, where
// Scotch fails or breaks the balance bound, by the engine's partition of the
// flat tree (core/partition_map.h). Errors: the latter's.
absl::StatusOr<Mapping> StatusQuoPartition(const topology::Tree& tree,
                                           const graphs::CommGraph& graph,
                                           const MappingOptions& options);

struct NamedPartition {
  std::string name;
  Mapping mapping;
};

// Weighs `others` against `status_quo` by the rule at the top of this file
// and returns the winner's mapping; fills *report when not null. Requires
// valid partitions of `graph` (ValidatePartitionMapping). Errors:
// PredictExchange's.
absl::StatusOr<Mapping> ChooseAmong(const topology::Tree& tree,
                                    const graphs::CommGraph& graph,
                                    const MappingOptions& options,
                                    Mapping status_quo,
                                    std::vector<NamedPartition> others,
                                    PartitionReport* report);

// Map's n-to-1 step: `found` (the engine's machine-aware partition) weighed
// with the status quo and, when options.scotch_candidate, Scotch's mapping
// (kept only when it meets the balance bound; a Scotch failure drops it).
// Reports into options.partition_report. Errors: the status quo's partition,
// PredictExchange's.
absl::StatusOr<Mapping> ChoosePartition(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MappingOptions& options,
                                        Mapping found);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_PARTITION_CHOICE_H_
