#include "api/partition.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "core/map_budget.h"
#include "core/mapper.h"
#include "core/strategies/partition_choice.h"
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

absl::StatusOr<core::ExchangePrediction> PredictPartition(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const core::Mapping& mapping, const core::MappingOptions& options) {
  return core::PredictExchange(tree, graph, mapping, options);
}

absl::StatusOr<graphs::CommGraph> PartsExchange(
    const graphs::CommGraph& graph, std::span<const int32_t> part,
    int32_t num_parts, const core::ExchangeModel& model) {
  return core::PartsExchangeGraph(graph, part, num_parts, model);
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

absl::StatusOr<std::vector<int32_t>> PartitionOntoRanks(
    const topology::Tree& tree, std::span<const int32_t> slot_of_rank,
    const graphs::CommGraph& graph, const core::MappingOptions& options,
    PartitionOutcome* outcome) {
  // The ranks on each leaf, in rank order.
  std::vector<std::vector<int32_t>> ranks_on(tree.num_leaves());
  for (size_t r = 0; r < slot_of_rank.size(); ++r) {
    const int32_t l = slot_of_rank[r];
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition: rank ", r, " on leaf ", l, " of a tree of ",
                       tree.num_leaves(), " leaves"));
    }
    ranks_on[l].push_back(static_cast<int32_t>(r));
  }
  for (core::LeafId l = 0; l < tree.num_leaves(); ++l) {
    if (static_cast<int64_t>(ranks_on[l].size()) != tree.Capacity(l)) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition: leaf ", l, " holds ", ranks_on[l].size(),
                       " ranks but has capacity ", tree.Capacity(l)));
    }
  }
  // The status quo: part p where rank p runs.
  core::MappingOptions placed = options;
  placed.present.assign(slot_of_rank.begin(), slot_of_rank.end());
  ASSIGN_OR_RETURN(PartitionOutcome out, Partition(tree, graph, placed));
  std::vector<int32_t> part(graph.num_vertices(), -1);
  std::vector<std::vector<graphs::VertexId>> on_leaf(tree.num_leaves());
  for (graphs::VertexId v = 0; v < graph.num_vertices(); ++v)
    on_leaf[out.mapping[v]].push_back(v);
  for (core::LeafId l = 0; l < tree.num_leaves(); ++l) {
    const std::vector<int32_t>& ranks = ranks_on[l];
    if (on_leaf[l].empty()) continue;
    if (ranks.size() == 1) {
      for (graphs::VertexId v : on_leaf[l]) part[v] = ranks[0];
      continue;
    }
    // Several ranks share the leaf: its vertices split among them.
    ASSIGN_OR_RETURN(const graphs::CommGraph sub,
                     graphs::InducedSubgraph(graph, on_leaf[l]));
    const int64_t k = static_cast<int64_t>(ranks.size());
    ASSIGN_OR_RETURN(
        const topology::Tree flat,
        topology::Tree::FromLevels(std::span(&k, 1), std::vector<double>{1.0}));
    core::MappingOptions o = options;
    o.partition_report = nullptr;
    o.report = nullptr;
    o.progress = nullptr;
    ASSIGN_OR_RETURN(const core::Mapping split, core::Map(flat, sub, o));
    for (size_t i = 0; i < on_leaf[l].size(); ++i)
      part[on_leaf[l][i]] = ranks[split[i]];
  }
  if (outcome != nullptr) *outcome = std::move(out);
  return part;
}

absl::Status CheckPartitionMemory(const topology::Tree& tree, int64_t vertices,
                                  int64_t arcs,
                                  const core::MappingOptions& options,
                                  int64_t input_bytes) {
  int64_t bytes = core::EstimatedMapBytes(tree, vertices, arcs, options);
  bytes = base::SaturatingMulAdd(vertices + 1, 48 + 64, bytes);
  bytes = base::SaturatingMulAdd(arcs, 32 + 48, bytes);
  bytes = base::SaturatingMulAdd(1, input_bytes, bytes);
  return base::CheckMemory(
      absl::StrCat("partition: a graph of ", vertices, " vertices and ", arcs,
                   " arcs onto ", tree.num_leaves(), " leaves"),
      bytes, base::MemoryBudget(options.max_memory_bytes));
}

absl::StatusOr<core::ExchangeModel> ExchangeModelByName(
    std::string_view model, std::string_view profile,
    const graphs::CommGraph& graph, std::string_view model_name,
    std::string_view profile_name) {
  const std::string m_name(model_name), p_name(profile_name);
  if (!model.empty() && !profile.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(m_name, " and ", p_name, ": give one of them"));
  }
  core::ExchangeModel m;
  if (!model.empty()) {
    const std::vector<std::string> f = absl::StrSplit(std::string(model), ',');
    m.source = core::ExchangeModel::Source::kGiven;
    if (f.size() != 2 || !absl::SimpleAtod(f[0], &m.bytes_per_unit) ||
        !absl::SimpleAtod(f[1], &m.messages_per_pair) ||
        !std::isfinite(m.bytes_per_unit) || m.bytes_per_unit < 0 ||
        !std::isfinite(m.messages_per_pair) || m.messages_per_pair < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          m_name, " '", std::string(model),
          "': expected B,M (bytes per unit of edge weight, messages per "
          "neighbouring pair; numbers >= 0), e.g. 40,1"));
    }
  }
  if (!profile.empty()) {
    const std::vector<std::string> f =
        absl::StrSplit(std::string(profile), ',');
    int64_t k = 1;
    if (f.size() < 2 || f.size() > 3 ||
        (f.size() == 3 && (!absl::SimpleAtoi(f[2], &k) || k < 1))) {
      return absl::InvalidArgumentError(absl::StrCat(
          p_name, " '", std::string(profile),
          "': expected PROFILE.mat,PART or PROFILE.mat,PART,K (K >= 1)"));
    }
    return FitExchangeModelFromFiles(graph, f[0], f[1], k);
  }
  return m;
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
