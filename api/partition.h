// Partition: the n-to-1 call every partitioner interface makes (the PETSc
// plugin, the C API's rankmap_partition, the command's n-to-1 `map`): a graph
// of many vertices partitioned onto the leaves of a machine, the parts chosen
// by the predicted time of one exchange (core/partition_choice.h), with its
// checked cost, its imbalance and the prediction that chose it.
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

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "core/options.h"
#include "core/partition_choice.h"
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

// Largest relative excess over the leaves' shares (PartitionOutcome's
// imbalance); 0 for a graph without vertex weight. Requires a mapping of
// in-range leaves. O(n + leaves).
double MaxImbalance(const topology::Tree& tree, const graphs::CommGraph& graph,
                    const core::Mapping& mapping);

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
