// Partition: the n-to-1 call every partitioner interface makes (the PETSc
// plugin, the C API's rankmap_partition, the command's n-to-1 `map`): a graph
// of many vertices partitioned onto the leaves of a machine, the parts chosen
// by the predicted time of one exchange (core/strategies/partition_choice.h),
// with its checked cost, its imbalance and the prediction that chose it.
//
// The traffic model of that exchange (core::ExchangeModel in
// MappingOptions::exchange) is given by the caller, fitted from a profile of
// the application (FitExchangeModel: its ranks' `.mat` + `.msgs.mat` and the
// partition that profiled run used), or the default.
//
//   core::MappingOptions o = ...;            // ResolveOptions(names)
//   ASSIGN_OR_RETURN(o.exchange,
//                    FitExchangeModelFromFiles(mesh, "run.mat", "run.part"));
//   ASSIGN_OR_RETURN(PartitionOutcome out, Partition(tree, mesh, o));
//   out.mapping[v];                          // the leaf (part) of vertex v
//   out.choice.winner;                       // "machine-aware", "status quo"
//   out.choice.chosen.seconds / out.choice.status_quo.seconds;
#ifndef RANKMAP_API_PARTITION_H_
#define RANKMAP_API_PARTITION_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/map_report.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::api {

struct PartitionOutcome {
  core::Mapping mapping;  // mapping[vertex] = leaf of the tree (its part)
  core::CostReport cost;  // core::CheckedCost of mapping
  // Largest relative excess of a leaf's vertex weight over its share of the
  // total (share = total x capacity / total capacity): 0.02 is 2% over.
  double imbalance = 0.0;
  // The model, the candidates' predictions and the winner; weighed is false
  // when the graph has no more vertices than the tree has slots (one vertex a
  // slot, no partition to choose).
  core::PartitionReport choice;
};

// core::Map with options (n-to-1 when the graph has more vertices than the
// tree has slots), then core::CheckedCost with options.imbalance and the
// imbalance. options.report and options.partition_report are ignored: the
// outcome holds the report. Errors: Map's, and a result that fails its check
// (Internal: an engine fault).
absl::StatusOr<PartitionOutcome> Partition(const topology::Tree& tree,
                                           const graphs::CommGraph& graph,
                                           const core::MappingOptions& options);

// The predicted exchange of a partition of `graph` onto `tree` under
// options' model and objective (core/strategies/partition_choice.h), for
// interfaces that report partitions beside the one Partition chose. Errors:
// the model's; the time objective on a tree without links.
absl::StatusOr<core::ExchangePrediction> PredictPartition(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const core::Mapping& mapping, const core::MappingOptions& options);

// The modelled exchange between the parts of a partition numbered as the
// caller numbers them (part[v] in [0, num_parts): a partitioner's ranks):
// what `rankmap simulate` replays with the ranks' leaves. Errors: the
// model's, a part out of range.
absl::StatusOr<graphs::CommGraph> PartsExchange(
    const graphs::CommGraph& graph, std::span<const int32_t> part,
    int32_t num_parts, const core::ExchangeModel& model);

// Largest relative excess over the leaves' shares (PartitionOutcome's
// imbalance); 0 for a graph without vertex weight. Requires a mapping of
// in-range leaves. O(n + leaves).
double MaxImbalance(const topology::Tree& tree, const graphs::CommGraph& graph,
                    const core::Mapping& mapping);

// The partition onto the ranks of a job: Partition on `tree`, whose leaf l
// holds the ranks r with slot_of_rank[r] == l (its capacity their number),
// then the vertices of a leaf with several ranks split among them (the
// leaf's subgraph partitioned as onto a complete graph), so that rank r's
// part lies on the leaf where rank r runs. The status quo it is weighed
// against is the partition as onto a complete graph with part r where rank
// r runs (core::MappingOptions::present = slot_of_rank). part[v] receives the rank of
// vertex v; *outcome (optional) Partition's outcome on `tree`. Errors:
// Partition's; slot_of_rank not matching the tree's capacities.
absl::StatusOr<std::vector<int32_t>> PartitionOntoRanks(
    const topology::Tree& tree, std::span<const int32_t> slot_of_rank,
    const graphs::CommGraph& graph, const core::MappingOptions& options,
    PartitionOutcome* outcome = nullptr);

// OK when a Partition of a graph of `vertices` vertices and `arcs` arcs onto
// `tree`, plus input_bytes its caller holds (gathered arrays), fits
// base::MemoryBudget(options.max_memory_bytes): the graph's builder (48 B a
// vertex, 32 an arc), the engine's estimate (core/map_budget.h) and the
// status quo and Scotch candidates (64 B a vertex, 48 an arc). Errors:
// ResourceExhausted naming the counts, the estimate and the budget.
absl::Status CheckPartitionMemory(const topology::Tree& tree, int64_t vertices,
                                  int64_t arcs,
                                  const core::MappingOptions& options,
                                  int64_t input_bytes = 0);

// The exchange model as every interface spells it: `model` "B,M" (B bytes
// per unit of edge weight and M messages per neighbouring pair, each way:
// given) or `profile` "PROFILE.mat,PART[,K]" (FitExchangeModelFromFiles on
// `graph`); both empty: the default. model_name and profile_name name the
// two in errors ("--exchange", "-mat_partitioning_rankmap_exchange").
// Errors: both given, a malformed value, the fit's.
absl::StatusOr<core::ExchangeModel> ExchangeModelByName(
    std::string_view model, std::string_view profile,
    const graphs::CommGraph& graph, std::string_view model_name,
    std::string_view profile_name);

// The exchange model fitted from a profile of the application: `profile` is
// the traffic of its ranks (bytes and message counts per pair, both
// directions summed: graphs::ReadTraffic of app.mat and app.msgs.mat),
// part_of_vertex[v] the rank that owned vertex v of `graph` in the profiled
// run. Over the neighbouring pairs of parts (pairs that share edges),
// bytes_per_unit = their bytes / (2 x their cut) and messages_per_pair =
// their messages / (2 x their number); traffic between ranks that are not
// neighbours (collectives) is left out, and `origin` says how much.
// exchanges: how many exchanges the profile holds (its iterations), each
// figure divided by it. Errors: part_of_vertex of another size than the
// graph, a part outside the profile's ranks, a profile without message
// counts, a partition without cut, exchanges < 1.
absl::StatusOr<core::ExchangeModel> FitExchangeModel(
    const graphs::CommGraph& graph, std::span<const int32_t> part_of_vertex,
    const graphs::CommGraph& profile, std::string origin = "",
    int64_t exchanges = 1);

// FitExchangeModel from files: profile_path (app.mat, its counts in the
// app.msgs.mat beside it) and partition_path (one part per line, METIS's
// format: the rank of each vertex in the profiled run). Errors: the readers'
// (file:line), FitExchangeModel's.
absl::StatusOr<core::ExchangeModel> FitExchangeModelFromFiles(
    const graphs::CommGraph& graph, const std::string& profile_path,
    const std::string& partition_path, int64_t exchanges = 1);

}  // namespace rankmap::api

#endif  // RANKMAP_API_PARTITION_H_
