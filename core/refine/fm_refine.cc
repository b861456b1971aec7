#include "core/refine/fm_refine.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <utility>

#include "core/refine/placement.h"
#include "graphs/operations.h"

namespace rankmap::core {

using graphs::VertexId;

namespace {

// FM passes on one level (see FmRefinePartition).
double FmPasses(const topology::Tree& tree, const graphs::CommGraph& graph,
                const std::vector<double>& bound, int32_t passes,
                Mapping* mapping) {
  const int32_t n = graph.num_vertices();
  if (n < 2 || passes <= 0) return 0.0;
  LeafLoads loads(tree, graph, *mapping, bound);
  std::vector<int32_t> stamp(tree.num_leaves(), -1);
  int32_t stamp_id = 0;
  // Best move of v to a leaf holding one of its neighbours (with room when
  // `room`): (gain, leaf), leaf -1 when there is none. O(deg * candidates *
  // height).
  auto best_move = [&](VertexId v, bool room) -> std::pair<double, LeafId> {
    const LeafId a = (*mapping)[v];
    const double x = graph.vertex_weight(v);
    ++stamp_id;
    double here = -1.0;
    std::pair<double, LeafId> best = {0.0, -1};
    for (VertexId u : graph.neighbors(v)) {
      const LeafId b = (*mapping)[u];
      if (b == a || stamp[b] == stamp_id) continue;
      stamp[b] = stamp_id;
      if (room && !loads.Fits(b, x)) continue;
      if (here < 0) here = LeafCost(tree, graph, *mapping, v, a);
      const double there = LeafCost(tree, graph, *mapping, v, b);
      if (best.second < 0 || here - there > best.first ||
          (here - there == best.first && b < best.second)) {
        best = {here - there, b};
      }
    }
    return best;
  };
  // Max-heap on (gain, -vertex) of the best move ignoring room; stale entries
  // are skipped by version. A vertex whose moves are all blocked waits on the
  // leaf it wants until a vertex leaves that leaf.
  struct Entry {
    double gain;
    VertexId v;
    int32_t version;
    bool operator<(const Entry& o) const {
      return gain != o.gain ? gain < o.gain : v > o.v;
    }
  };
  std::vector<int32_t> version(n, 0);
  std::vector<char> locked(n, 0);
  std::vector<std::vector<VertexId>> waiting(tree.num_leaves());
  std::vector<VertexId> woken;
  double total_gain = 0.0;
  const int64_t stall_limit = std::max<int64_t>(64, n / 100);
  for (int32_t pass = 0; pass < passes; ++pass) {
    std::priority_queue<Entry> heap;
    auto push = [&](VertexId v) {
      ++version[v];
      auto [g, b] = best_move(v, /*room=*/false);
      if (b >= 0) heap.push({g, v, version[v]});
    };
    for (VertexId v = 0; v < n; ++v) push(v);
    std::fill(locked.begin(), locked.end(), 0);
    for (auto& w : waiting) w.clear();
    std::vector<std::pair<VertexId, LeafId>> log;  // (vertex, leaf it left)
    double gain = 0.0, best_gain = 0.0;
    size_t best_len = 0;
    while (!heap.empty() &&
           static_cast<int64_t>(log.size() - best_len) < stall_limit) {
      const Entry top = heap.top();
      heap.pop();
      const VertexId v = top.v;
      if (locked[v] || top.version != version[v]) continue;
      auto [g, b] = best_move(v, /*room=*/true);
      if (b < 0) {
        const LeafId want = best_move(v, /*room=*/false).second;
        if (want >= 0) waiting[want].push_back(v);
        ++version[v];
        continue;
      }
      if (g != top.gain) {  // blocked from its best leaf, or stale: requeue
        heap.push({g, v, ++version[v]});
        continue;
      }
      const LeafId a = (*mapping)[v];
      loads.Move(graph.vertex_weight(v), a, b);
      (*mapping)[v] = b;
      locked[v] = 1;
      log.push_back({v, a});
      gain += g;
      if (gain > best_gain + 1e-12 * (1.0 + std::abs(best_gain))) {
        best_gain = gain;
        best_len = log.size();
      }
      woken.clear();
      woken.swap(waiting[a]);  // keeps both buffers: no allocation per move
      for (VertexId u : woken) {
        if (!locked[u]) push(u);
      }
      for (VertexId u : graph.neighbors(v)) {
        if (!locked[u]) push(u);
      }
    }
    // Roll back the moves after the best prefix.
    while (log.size() > best_len) {
      const auto [v, a] = log.back();
      log.pop_back();
      loads.Move(graph.vertex_weight(v), (*mapping)[v], a);
      (*mapping)[v] = a;
    }
    total_gain += best_gain;
    if (best_len == 0) break;
  }
  return total_gain;
}

}  // namespace

double FmRefinePartition(const topology::Tree& tree,
                         const graphs::CommGraph& graph,
                         const std::vector<double>& bound, int32_t passes,
                         Mapping* mapping) {
  if (graph.num_vertices() < 2 || passes <= 0 ||
      !PartitionInputsFit(tree, graph, bound, *mapping)) {
    return 0.0;
  }
  // Coarsen: pair each vertex with its heaviest unmatched neighbour on the
  // same leaf (so the mapping projects exactly), in vertex order, while the
  // graph shrinks by at least 10% and stays above 4 vertices per leaf. A pair
  // may weigh at most an eighth of the smallest positive leaf bound, so that
  // coarse moves still fit.
  double min_bound = 0.0;
  for (double b : bound) {
    if (b > 0 && (min_bound == 0.0 || b < min_bound)) min_bound = b;
  }
  const double max_pair = min_bound / 8.0;
  struct Level {
    graphs::CommGraph graph;
    std::vector<VertexId> up;  // finer vertex -> vertex of this level
    Mapping mapping;
  };
  std::vector<Level> levels;
  levels.reserve(32);
  graphs::GraphContractor contractor;
  const graphs::CommGraph* cur = &graph;
  const Mapping* cur_map = mapping;
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
  // Refine from the coarsest level down, projecting each result.
  double gain = 0.0;
  for (size_t i = levels.size(); i-- > 0;) {
    Level& l = levels[i];
    gain += FmPasses(tree, l.graph, bound, passes, &l.mapping);
    Mapping& finer = i > 0 ? levels[i - 1].mapping : *mapping;
    for (size_t u = 0; u < l.up.size(); ++u) finer[u] = l.mapping[l.up[u]];
  }
  return gain + FmPasses(tree, graph, bound, passes, mapping);
}

}  // namespace rankmap::core
