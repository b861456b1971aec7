#include "core/strategies/isolated_vertices.h"

#include <algorithm>
#include <queue>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;
using PartMapper =
    absl::FunctionRef<absl::StatusOr<Mapping>(const graphs::CommGraph&)>;

// One-to-one: the connected part by the strategy, then the free slots in
// leaf order.
absl::StatusOr<Mapping> OneToOne(const topology::Tree& tree,
                                 const CommGraph& graph,
                                 const std::vector<VertexId>& kept,
                                 const std::vector<VertexId>& isolated,
                                 PartMapper map_part) {
  Mapping m(graph.num_vertices(), -1);
  std::vector<int64_t> used(tree.num_leaves(), 0);
  if (!kept.empty()) {
    ASSIGN_OR_RETURN(const CommGraph part,
                     graphs::InducedSubgraph(graph, kept));
    ASSIGN_OR_RETURN(const Mapping pm, map_part(part));
    for (size_t i = 0; i < kept.size(); ++i) {
      m[kept[i]] = pm[i];
      ++used[pm[i]];
    }
  }
  LeafId l = 0;
  for (const VertexId v : isolated) {
    while (l < tree.num_leaves() && used[l] >= tree.capacity(l)) ++l;
    if (l == tree.num_leaves()) {
      return absl::InternalError(
          "map: no free slot left for the isolated processes");
    }
    m[v] = l;
    ++used[l];
  }
  return m;
}

// n-to-1 without edges: each vertex, heaviest first (ties: lower id), to the
// leaf with the most room under its load bound (ties: lower leaf). Empty
// when a vertex does not fit.
Mapping SpreadByBounds(const topology::Tree& tree, const CommGraph& graph,
                       double imbalance) {
  const std::vector<double> bound = PartitionLoadBounds(tree, graph, imbalance);
  std::priority_queue<std::pair<double, LeafId>> room;  // (room, -leaf)
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    if (tree.capacity(l) > 0) room.push({bound[l], -l});
  }
  std::vector<VertexId> order(graph.num_vertices());
  for (VertexId v = 0; v < graph.num_vertices(); ++v) order[v] = v;
  if (graph.has_vertex_weights()) {
    std::stable_sort(order.begin(), order.end(), [&](VertexId a, VertexId b) {
      return graph.vertex_weight(a) > graph.vertex_weight(b);
    });
  }
  Mapping m(graph.num_vertices(), -1);
  for (const VertexId v : order) {
    if (room.empty()) return {};
    auto [left, leaf] = room.top();
    const double w = graph.vertex_weight(v);
    if (!WithinBound(bound[-leaf] - left + w, bound[-leaf])) return {};
    room.pop();
    m[v] = -leaf;
    room.push({left - w, leaf});
  }
  return m;
}

// n-to-1: the connected part and the fillers partitioned together.
absl::StatusOr<Mapping> WithFillers(const topology::Tree& tree,
                                    const CommGraph& graph,
                                    const std::vector<VertexId>& kept,
                                    const std::vector<VertexId>& isolated,
                                    PartMapper map_part) {
  int64_t usable = 0;
  for (LeafId l = 0; l < tree.num_leaves(); ++l) usable += tree.capacity(l) > 0;
  const int64_t k = static_cast<int64_t>(isolated.size());
  const int64_t fillers =
      std::max<int64_t>(1, std::min<int64_t>(k, kFillersPerLeaf * usable));
  // Vertex kept[i] becomes i; isolated[j] joins filler j * fillers / k.
  const auto filler_of = [&](int64_t j) {
    return static_cast<VertexId>(kept.size() + j * fillers / k);
  };
  std::vector<VertexId> group(graph.num_vertices());
  for (size_t i = 0; i < kept.size(); ++i)
    group[kept[i]] = static_cast<VertexId>(i);
  for (int64_t j = 0; j < k; ++j) group[isolated[j]] = filler_of(j);
  ASSIGN_OR_RETURN(
      const CommGraph part,
      graphs::ContractGraph(graph, group,
                            static_cast<VertexId>(kept.size() + fillers)));
  ASSIGN_OR_RETURN(const Mapping pm, map_part(part));
  Mapping m(graph.num_vertices(), -1);
  for (VertexId v = 0; v < graph.num_vertices(); ++v) m[v] = pm[group[v]];
  return m;
}

}  // namespace

int64_t CountIsolatedVertices(const graphs::CommGraph& graph) {
  int64_t count = 0;
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    count += graph.degree(v) == 0;
  return count;
}

absl::StatusOr<Mapping> MapAroundIsolated(const topology::Tree& tree,
                                          const graphs::CommGraph& graph,
                                          bool n_to_1, double imbalance,
                                          PartMapper map_part) {
  std::vector<VertexId> kept, isolated;
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    (graph.degree(v) > 0 ? kept : isolated).push_back(v);
  if (isolated.empty()) return map_part(graph);
  if (!n_to_1) return OneToOne(tree, graph, kept, isolated, map_part);
  if (kept.empty()) {
    Mapping m = SpreadByBounds(tree, graph, imbalance);
    if (!m.empty() || graph.num_vertices() == 0) return m;
  } else {
    absl::StatusOr<Mapping> m =
        WithFillers(tree, graph, kept, isolated, map_part);
    if (m.ok() && ValidatePartitionMapping(tree, graph, *m, imbalance).ok())
      return m;
    if (!m.ok() && m.status().code() == absl::StatusCode::kResourceExhausted)
      return m;
  }
  // Weights the fillers or the spread could not balance: as before.
  return map_part(graph);
}

}  // namespace rankmap::core
