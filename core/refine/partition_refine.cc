#include "core/refine/partition_refine.h"

#include <algorithm>

#include "core/refine/placement.h"

namespace rankmap::core {

using graphs::VertexId;

void RepairLeafLoads(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const std::vector<double>& bound, Mapping* mapping) {
  if (!PartitionInputsFit(tree, graph, bound, *mapping)) return;
  const int32_t n = graph.num_vertices();
  LeafLoads loads(tree, graph, *mapping, bound);
  std::vector<std::vector<VertexId>> on(tree.num_leaves());
  for (VertexId v = 0; v < n; ++v) on[(*mapping)[v]].push_back(v);
  for (LeafId a = 0; a < tree.num_leaves(); ++a) {
    while (loads.Over(a) && !on[a].empty()) {
      double best_delta = 0.0;
      VertexId best_v = -1;
      LeafId best_l = -1;
      for (VertexId v : on[a]) {
        const double x = graph.vertex_weight(v);
        const double here = LeafCost(tree, graph, *mapping, v, a);
        for (VertexId u : graph.neighbors(v)) {
          const LeafId b = (*mapping)[u];
          if (b == a || !loads.Fits(b, x)) continue;
          const double delta = LeafCost(tree, graph, *mapping, v, b) - here;
          if (best_v < 0 || delta < best_delta) {
            best_delta = delta;
            best_v = v;
            best_l = b;
          }
        }
      }
      if (best_v < 0) {
        // Nearest leaf with room: widen the subtree around a until one appears.
        const VertexId v = on[a].front();
        const double x = graph.vertex_weight(v);
        for (NodeId up = tree.parent(a); up >= 0 && best_l < 0;
             up = tree.parent(up)) {
          for (LeafId b = tree.leaf_begin(up); b < tree.leaf_end(up); ++b) {
            if (b != a && tree.capacity(b) > 0 && loads.Fits(b, x)) {
              best_l = b;
              break;
            }
          }
        }
        if (best_l < 0) return;  // infeasible
        best_v = v;
      }
      loads.Move(graph.vertex_weight(best_v), a, best_l);
      (*mapping)[best_v] = best_l;
      on[a].erase(std::find(on[a].begin(), on[a].end(), best_v));
      on[best_l].push_back(best_v);
    }
  }
}

double RefinePartition(const topology::Tree& tree,
                       const graphs::CommGraph& graph,
                       const std::vector<double>& bound, int32_t sweeps,
                       Mapping* mapping) {
  if (!PartitionInputsFit(tree, graph, bound, *mapping)) return 0.0;
  const int32_t n = graph.num_vertices();
  LeafLoads loads(tree, graph, *mapping, bound);
  std::vector<int32_t> stamp(tree.num_leaves(), -1);
  std::vector<LeafId> cand;
  double total_gain = 0.0;
  for (int32_t sweep = 0; sweep < sweeps; ++sweep) {
    double sweep_gain = 0.0;
    for (VertexId v = 0; v < n; ++v) {
      const LeafId a = (*mapping)[v];
      cand.clear();
      for (VertexId u : graph.neighbors(v)) {
        const LeafId b = (*mapping)[u];
        if (b != a && stamp[b] != v) {
          stamp[b] = v;
          cand.push_back(b);
        }
      }
      if (cand.empty()) continue;
      const double x = graph.vertex_weight(v);
      const double here = LeafCost(tree, graph, *mapping, v, a);
      double best_gain = 1e-12 * (1.0 + here);
      LeafId best = -1;
      for (LeafId b : cand) {
        if (!loads.Fits(b, x)) continue;
        const double there = LeafCost(tree, graph, *mapping, v, b);
        if (here - there > best_gain) {
          best_gain = here - there;
          best = b;
        }
      }
      if (best < 0) continue;
      loads.Move(x, a, best);
      (*mapping)[v] = best;
      sweep_gain += best_gain;
    }
    total_gain += sweep_gain;
    if (sweep_gain <= 0) break;
  }
  return total_gain;
}

}  // namespace rankmap::core
