#include "api/partition.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "core/mapper.h"
#include "graphs/frontends/mesh_halo.h"
#include "graphs/operations.h"
#include "graphs/traffic.h"

namespace rankmap::api {
namespace {

// Bytes and messages of the profile between neighbouring parts.
struct PairSums {
  double cut = 0.0, bytes = 0.0, messages = 0.0;
  int64_t pairs = 0;
};

PairSums SumOverNeighbours(const graphs::CommGraph& parts,
                           const graphs::CommGraph& profile) {
  PairSums s;
  for (graphs::VertexId p = 0; p < parts.num_vertices(); ++p) {
    auto nbrs = parts.neighbors(p);
    auto cut = parts.weights(p);
    auto row = profile.neighbors(p);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (nbrs[e] < p) continue;
      s.cut += cut[e];
      ++s.pairs;
      // Rows are sorted by neighbour id.
      auto it = std::lower_bound(row.begin(), row.end(), nbrs[e]);
      if (it == row.end() || *it != nbrs[e]) continue;
      const size_t k = static_cast<size_t>(it - row.begin());
      s.bytes += profile.weights(p)[k];
      s.messages += profile.messages(p)[k];
    }
  }
  return s;
}

}  // namespace

double MaxImbalance(const topology::Tree& tree, const graphs::CommGraph& graph,
                    const core::Mapping& mapping) {
  std::vector<double> load(tree.num_leaves(), 0.0);
  for (graphs::VertexId v = 0; v < graph.num_vertices(); ++v)
    load[mapping[v]] += graph.vertex_weight(v);
  const double total = graph.TotalVertexWeight();
  const double capacity = static_cast<double>(tree.Capacity(tree.root()));
  if (total <= 0 || capacity <= 0) return 0.0;
  double worst = 0.0;
  for (core::LeafId l = 0; l < tree.num_leaves(); ++l) {
    const double share =
        total * static_cast<double>(tree.Capacity(l)) / capacity;
    if (share > 0) worst = std::max(worst, load[l] / share - 1.0);
  }
  return worst;
}

absl::StatusOr<PartitionOutcome> Partition(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const core::MappingOptions& options) {
  PartitionOutcome out;
  core::MappingOptions o = options;
  o.report = nullptr;
  o.partition_report = &out.choice;
  ASSIGN_OR_RETURN(out.mapping, core::Map(tree, graph, o));
  absl::StatusOr<core::CostReport> cost =
      core::CheckedCost(tree, graph, out.mapping, options.imbalance);
  if (!cost.ok()) {
    return absl::InternalError(
        absl::StrCat("partition: the engine's partition fails its check: ",
                     cost.status().message()));
  }
  out.cost = *std::move(cost);
  out.imbalance = MaxImbalance(tree, graph, out.mapping);
  return out;
}

absl::StatusOr<core::ExchangeModel> FitExchangeModel(
    const graphs::CommGraph& graph, std::span<const int32_t> part_of_vertex,
    const graphs::CommGraph& profile, std::string origin, int64_t exchanges) {
  const std::string what = origin.empty() ? "the profile" : origin;
  if (exchanges < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("exchange fit: ", exchanges, " exchanges (must be >= 1)"));
  }
  if (!profile.has_messages()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "exchange fit: ", what,
        " has no message counts (the profiler writes them in app.msgs.mat)"));
  }
  const int32_t ranks = profile.num_vertices();
  for (size_t v = 0; v < part_of_vertex.size(); ++v) {
    if (part_of_vertex[v] < 0 || part_of_vertex[v] >= ranks) {
      return absl::InvalidArgumentError(absl::StrCat(
          "exchange fit: the partition puts vertex ", v, " on part ",
          part_of_vertex[v], ", but ", what, " has ", ranks, " ranks"));
    }
  }
  absl::StatusOr<graphs::CommGraph> parts =
      graphs::ContractGraph(graph, part_of_vertex, ranks);
  if (!parts.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("exchange fit: ", parts.status().message()));
  }
  const PairSums s = SumOverNeighbours(*parts, profile);
  if (s.cut <= 0 || s.pairs == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "exchange fit: the profiled partition cuts no edge of the graph, "
        "nothing to fit ",
        what, " to"));
  }
  core::ExchangeModel m;
  const double k = static_cast<double>(exchanges);
  m.bytes_per_unit = s.bytes / (2.0 * s.cut) / k;
  m.messages_per_pair = s.messages / (2.0 * static_cast<double>(s.pairs)) / k;
  m.source = core::ExchangeModel::Source::kFitted;
  const double total = profile.TotalVolume();
  m.origin = absl::StrFormat(
      "%s, %d neighbouring pairs%s, %.1f%% of its bytes between them", what,
      s.pairs, exchanges > 1 ? absl::StrCat(", ", exchanges, " exchanges") : "",
      total > 0 ? 100.0 * s.bytes / total : 100.0);
  return m;
}

absl::StatusOr<core::ExchangeModel> FitExchangeModelFromFiles(
    const graphs::CommGraph& graph, const std::string& profile_path,
    const std::string& partition_path, int64_t exchanges) {
  ASSIGN_OR_RETURN(const graphs::Traffic profile,
                   graphs::ReadTraffic(profile_path));
  ASSIGN_OR_RETURN(
      const std::vector<int32_t> part,
      graphs::ReadPartitionFile(partition_path, graph.num_vertices()));
  const std::string origin =
      profile.messages_path.empty()
          ? profile_path
          : absl::StrCat(profile_path, " + ", profile.messages_path);
  return FitExchangeModel(graph, part, profile.graph, origin, exchanges);
}

}  // namespace rankmap::api
