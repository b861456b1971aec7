#include "core/refine/partition_refine.h"

#include <utility>

#include "core/refine/placement.h"
#include "core/refine/refiner.h"
#include "graphs/operations.h"

namespace rankmap::core {

using graphs::VertexId;

namespace {

// One level of the pair hierarchy: its graph, where each finer vertex went,
// and the mapping of its vertices.
struct PairLevel {
  graphs::CommGraph graph;
  std::vector<VertexId> up;
  Mapping mapping;
};

// Pairs each vertex with its heaviest unpaired neighbour on the same leaf, in
// vertex order, while the graph shrinks by at least 10% and stays above 4
// vertices per leaf. A pair weighs at most an eighth of the smallest positive
// leaf bound, so that coarse moves still fit.
std::vector<PairLevel> PairHierarchy(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const std::vector<double>& bound,
                                     const Mapping& mapping) {
  double min_bound = 0.0;
  for (double b : bound) {
    if (b > 0 && (min_bound == 0.0 || b < min_bound)) min_bound = b;
  }
  const double max_pair = min_bound / 8.0;
  std::vector<PairLevel> levels;
  levels.reserve(32);
  graphs::GraphContractor contractor;
  const graphs::CommGraph* cur = &graph;
  const Mapping* cur_map = &mapping;
  const int64_t floor = 4 * static_cast<int64_t>(tree.num_leaves());
  while (cur->num_vertices() > floor && levels.size() < 32) {
    const VertexId n = cur->num_vertices();
    std::vector<VertexId> up(n, -1);
    VertexId groups = 0;
    for (VertexId u = 0; u < n; ++u) {
      if (up[u] >= 0) continue;
      up[u] = groups;
      auto nbrs = cur->neighbors(u);
      auto wgts = cur->weights(u);
      VertexId mate = -1;
      double best = 0.0;
      for (size_t e = 0; e < nbrs.size(); ++e) {
        const VertexId v = nbrs[e];
        if (up[v] >= 0 || (*cur_map)[v] != (*cur_map)[u] ||
            cur->vertex_weight(u) + cur->vertex_weight(v) > max_pair) {
          continue;
        }
        if (wgts[e] > best) {
          best = wgts[e];
          mate = v;
        }
      }
      if (mate >= 0) up[mate] = groups;
      ++groups;
    }
    if (groups > n - n / 10) break;
    absl::StatusOr<graphs::CommGraph> coarse =
        contractor.Contract(*cur, up, groups);
    if (!coarse.ok()) break;
    Mapping coarse_map(groups);
    for (VertexId u = 0; u < n; ++u) coarse_map[up[u]] = (*cur_map)[u];
    levels.push_back(
        {*std::move(coarse), std::move(up), std::move(coarse_map)});
    cur = &levels.back().graph;
    cur_map = &levels.back().mapping;
  }
  return levels;
}

double Fm(const topology::Tree& tree, const graphs::CommGraph& graph,
          const std::vector<double>& bound, int32_t passes, Mapping* mapping) {
  if (graph.num_vertices() < 2) return 0.0;
  return Refiner(tree, graph, bound, mapping)
      .Fm({.rounds = passes, .localized = false});
}

}  // namespace

void RepairLeafLoads(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const std::vector<double>& bound, Mapping* mapping) {
  if (!PartitionInputsFit(tree, graph, bound, *mapping)) return;
  Refiner(tree, graph, bound, mapping).Rebalance();
}

double RefinePartition(const topology::Tree& tree,
                       const graphs::CommGraph& graph,
                       const std::vector<double>& bound, int32_t sweeps,
                       int32_t passes, Mapping* mapping) {
  if (graph.num_vertices() < 2 ||
      !PartitionInputsFit(tree, graph, bound, *mapping)) {
    return 0.0;
  }
  double gain = 0.0;
  if (sweeps > 0)
    gain += Refiner(tree, graph, bound, mapping).LabelPropagation(sweeps);
  if (passes <= 0) return gain;
  // FM from the coarsest level down, projecting each result.
  std::vector<PairLevel> levels = PairHierarchy(tree, graph, bound, *mapping);
  for (size_t i = levels.size(); i-- > 0;) {
    PairLevel& l = levels[i];
    gain += Fm(tree, l.graph, bound, passes, &l.mapping);
    Mapping& finer = i > 0 ? levels[i - 1].mapping : *mapping;
    for (size_t u = 0; u < l.up.size(); ++u) finer[u] = l.mapping[l.up[u]];
  }
  return gain + Fm(tree, graph, bound, passes, mapping);
}

}  // namespace rankmap::core
