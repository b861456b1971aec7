#include "core/refine/congestion.h"

#include <algorithm>
#include <utility>

#include "core/refine/placement.h"

namespace rankmap::core {
namespace {

using graphs::VertexId;

// Volumes of the links above internal nodes (a leaf's own link carries the
// volume of its processes wherever they go on single-slot leaves: no move can
// relieve it), with the maximum kept in a segment tree (point updates in
// O(log nodes)).
class LinkLoads {
 public:
  LinkLoads(const topology::Tree& tree, std::vector<double> volume)
      : tree_(tree), size_(1) {
    while (size_ < static_cast<int32_t>(volume.size())) size_ *= 2;
    seg_.assign(2 * size_, 0.0);
    for (size_t v = tree.num_leaves(); v < volume.size(); ++v)
      seg_[size_ + v] = volume[v];
    for (int32_t i = size_ - 1; i >= 1; --i)
      seg_[i] = std::max(seg_[2 * i], seg_[2 * i + 1]);
  }

  double Max() const { return seg_[1]; }
  // The node of the most loaded link (lowest id on ties).
  NodeId Argmax() const {
    int32_t i = 1;
    while (i < size_) i = seg_[2 * i] >= seg_[2 * i + 1] ? 2 * i : 2 * i + 1;
    return i - size_;
  }

  // Adds w to every link on the path between leaves a and b.
  void AddPath(LeafId a, LeafId b, double w) {
    NodeId x = a, y = b;
    while (x != y) {
      if (x < y) {
        Add(x, w);
        x = tree_.parent(x);
      } else {
        Add(y, w);
        y = tree_.parent(y);
      }
    }
  }

 private:
  void Add(NodeId v, double w) {
    if (v < tree_.num_leaves()) return;
    int32_t i = size_ + v;
    seg_[i] += w;
    for (i /= 2; i >= 1; i /= 2)
      seg_[i] = std::max(seg_[2 * i], seg_[2 * i + 1]);
  }

  const topology::Tree& tree_;
  int32_t size_;
  std::vector<double> seg_;
};

// Moves u's edges from leaf `from` to leaf `to` in the link loads (`skip`:
// the edge to this neighbour is handled by the caller). leaf_of gives the
// neighbours' leaves.
template <typename LeafOf>
void Reroute(const graphs::CommGraph& graph, VertexId u, LeafId from, LeafId to,
             VertexId skip, const LeafOf& leaf_of, LinkLoads* loads) {
  auto nbrs = graph.neighbors(u);
  auto wgts = graph.weights(u);
  for (size_t e = 0; e < nbrs.size(); ++e) {
    if (nbrs[e] == skip) continue;
    const LeafId x = leaf_of(nbrs[e]);
    loads->AddPath(from, x, -wgts[e]);
    loads->AddPath(to, x, wgts[e]);
  }
}

}  // namespace

std::vector<double> LinkVolumes(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const Mapping& mapping) {
  LinkLoads loads(tree, std::vector<double>(tree.num_nodes(), 0.0));
  std::vector<double> volume(tree.num_nodes(), 0.0);
  for (VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto wgts = graph.weights(u);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (nbrs[e] < u) continue;
      NodeId x = mapping[u], y = mapping[nbrs[e]];
      while (x != y) {
        if (x < y) {
          volume[x] += wgts[e];
          x = tree.parent(x);
        } else {
          volume[y] += wgts[e];
          y = tree.parent(y);
        }
      }
    }
  }
  return volume;
}

double CongestionRefine(const topology::Tree& tree,
                        const graphs::CommGraph& graph, double weight,
                        int32_t rounds, Mapping* mapping) {
  if (!(weight > 0) || graph.num_vertices() < 2) return 0.0;
  constexpr size_t kCandidates = 256;
  Placement place(tree, graph, mapping);
  LinkLoads loads(tree, LinkVolumes(tree, graph, *mapping));
  auto leaf_of = [&](VertexId x) { return place.leaf(x); };
  auto below = [&](LeafId l, NodeId v) {
    return l >= tree.leaf_begin(v) && l < tree.leaf_end(v);
  };
  double total = 0.0;
  // Every step applies one swap or move; rounds * 64 steps at most.
  for (int32_t step = 0; step < rounds * 64; ++step) {
    const NodeId hot = loads.Argmax();
    const double before_max = loads.Max();
    if (hot == tree.root() || before_max <= 0) break;
    // Processes below the hot link by their volume across it.
    std::vector<std::pair<double, VertexId>> crossing;
    for (LeafId l = tree.leaf_begin(hot); l < tree.leaf_end(hot); ++l) {
      for (VertexId u : place.Occupants(l)) {
        double across = 0.0;
        auto nbrs = graph.neighbors(u);
        auto wgts = graph.weights(u);
        for (size_t e = 0; e < nbrs.size(); ++e) {
          if (!below(place.leaf(nbrs[e]), hot)) across += wgts[e];
        }
        if (across > 0) crossing.push_back({-across, u});
      }
    }
    std::sort(crossing.begin(), crossing.end());
    if (crossing.size() > kCandidates) crossing.resize(kCandidates);
    // The best change of F among swaps and moves of these processes onto
    // leaves of their outside neighbours and those leaves' siblings.
    double best = 1e-12 * (1.0 + before_max * weight);
    VertexId best_u = -1, best_v = -1;
    LeafId best_leaf = -1;
    auto try_move = [&](VertexId u, LeafId to, VertexId v) {
      const LeafId from = place.leaf(u);
      const double dj = v >= 0 ? place.SwapGain(u, v) : place.MoveGain(u, to);
      // Tentatively reroute, read the new maximum, undo.
      auto leaf_after = [&](VertexId x) {
        return x == v ? from : place.leaf(x);
      };
      Reroute(graph, u, from, to, v, leaf_after, &loads);
      if (v >= 0) Reroute(graph, v, to, from, u, leaf_of, &loads);
      const double gain = dj + weight * (before_max - loads.Max());
      if (v >= 0) Reroute(graph, v, from, to, u, leaf_of, &loads);
      Reroute(graph, u, to, from, v, leaf_after, &loads);
      if (gain > best) {
        best = gain;
        best_u = u;
        best_v = v;
        best_leaf = to;
      }
    };
    for (const auto& [neg, u] : crossing) {
      auto nbrs = graph.neighbors(u);
      for (VertexId x : nbrs) {
        const LeafId lx = place.leaf(x);
        if (below(lx, hot)) continue;
        const NodeId p = tree.parent(lx);
        const LeafId begin = p >= 0 ? tree.leaf_begin(p) : lx;
        const LeafId end =
            p >= 0 ? std::min(tree.leaf_end(p), begin + 8) : lx + 1;
        for (LeafId l = begin; l < end; ++l) {
          if (place.HasRoom(l)) try_move(u, l, -1);
          for (VertexId v : place.Occupants(l)) try_move(u, l, v);
        }
      }
    }
    if (best_u < 0) break;
    const LeafId from = place.leaf(best_u);
    auto leaf_after = [&](VertexId x) {
      return x == best_v ? from : place.leaf(x);
    };
    Reroute(graph, best_u, from, best_leaf, best_v, leaf_after, &loads);
    if (best_v >= 0) {
      Reroute(graph, best_v, best_leaf, from, best_u, leaf_of, &loads);
      place.Swap(best_u, best_v);
    } else {
      place.Move(best_u, best_leaf);
    }
    total += best;
  }
  return total;
}

}  // namespace rankmap::core
