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
// Model (MappingOptions::exchange, core/model/options.h): the quotient graph of
// the parts (one vertex per leaf; w(p, q) = the edge weight between parts p and
// q, its exchange graph) carries bytes_per_unit x w each way and
// messages_per_pair messages each way between every neighbouring pair. A graph
// with message counts and a default model is its own exchange: its bytes and
// counts summed between parts. The exchange is priced on the tree's links as a
// one-to-one mapping is (part p on leaf p): the link-load estimate
// (core/objective/link_load.h: the busiest link's transfer time plus the
// latency of the message rounds) and T (core/objective/time_objective.h:
// messages x latency + bytes / bandwidth summed over pairs). A tree without
// links prices the exchange's bytes by J (messages unpriced) and says so.
//
// Candidates (ChoosePartition): the partition the engine found
// ("machine-aware"); the status quo ("status quo": the same graph
// partitioned as if onto a complete graph, a flat tree of the same leaf
// capacities, part p on leaf p, by Scotch as PETSc's ptscotch and OpenFOAM's
// scotch method call it with parts in rank order); Scotch's machine-aware
// mapping
// ("scotch", when MappingOptions::scotch_candidate and it meets the balance
// bound). The best other candidate replaces the status quo, as the present
// order is replaced in one-to-one mapping (core/strategies/present_order.h),
// only when it is not predicted slower by the link-load estimate and leads by
// more than keep_margin in that estimate or in T; under J, by any lead in J. So
// the result is never predicted slower than the status quo.
//
//   PartitionReport report;
//   options.partition_report = &report;
//   options.exchange = {.bytes_per_unit = 40, .messages_per_pair = 1,
//                       .source = ExchangeModel::Source::kGiven};
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, mesh, options));   // n-to-1
//   report.winner;                      // "machine-aware", "status quo", ...
//   report.chosen.seconds / report.status_quo.seconds;
#ifndef RANKMAP_CORE_STRATEGIES_PARTITION_CHOICE_H_
#define RANKMAP_CORE_STRATEGIES_PARTITION_CHOICE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/map_report.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

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

// The same over `num_parts` parts numbered as the caller numbers them
// (part[v] in [0, num_parts): a partitioner's ranks), for replaying the
// exchange (rankmap simulate). Errors: the model's, a part out of range.
absl::StatusOr<graphs::CommGraph> PartsExchangeGraph(
    const graphs::CommGraph& graph, std::span<const int32_t> part,
    int32_t num_parts, const ExchangeModel& model);

// The prediction of one partition under `options` (objective, exchange).
// Errors: ExchangeGraph's; the time objective (kTime) on a tree without
// links. O(n + m + leaves x depth).
absl::StatusOr<ExchangePrediction> PredictExchange(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const Mapping& mapping, const MappingOptions& options);

// The status quo: `graph` partitioned onto a flat tree of the same leaf
// capacities, part p on leaf p: by Scotch (core/baselines/scotch_map.h);
// where Scotch breaks the balance bound, its partition with vertices moved off
// the parts over the bound (RepairLeafLoads); where Scotch fails or the repair
// cannot meet the bound, the engine's partition of the flat tree
// (core/strategies/partition_map.h). With options.present (one
// leaf per slot), one part per slot, part p on leaf present[p]. Errors: a
// present that does not fill every leaf's slots, the partition's.
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

#endif  // RANKMAP_CORE_STRATEGIES_PARTITION_CHOICE_H_
