#include "core/refine/refine.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "core/refine/placement.h"

namespace rankmap::core {

using graphs::VertexId;

namespace {

// Neighbours of u considered as anchors for candidate leaves, heaviest first.
constexpr int32_t kAnchors = 4;
// Leaves scanned around each anchor's leaf (its siblings under the same
// parent).
constexpr int32_t kWindow = 8;
// Above this many processes the search narrows (2 anchors, 4 leaves each, at
// most 2 rounds) so that a million-process graph refines in seconds.
constexpr int32_t kHugeGraph = 1 << 18;
// Above this many, process swaps run swap_rounds / 16 rounds (none in the
// default preset, 2 in strong); whole subtrees are still swapped. Measured on
// the shuffled 8,388,608-process 3D stencil (bench --scale=8m, 2 threads):
// the first round took 22 of 77 s and lowered J by 0.7%.
constexpr int32_t kGiantGraph = 1 << 22;

// Swap refinement of single processes (the finest level).
void RefineVertices(const topology::Tree& tree, const graphs::CommGraph& graph,
                    int32_t swap_rounds, Mapping* mapping,
                    const SlotClasses* classes,
                    const topology::Tree* message_tree) {
  const VertexId n = graph.num_vertices();
  const bool huge = n > kHugeGraph;
  const int32_t rounds = n > kGiantGraph ? swap_rounds / 16
                         : huge          ? std::min(swap_rounds, 2)
                                         : swap_rounds;
  if (n < 2 || rounds <= 0) return;
  Placement place(tree, graph, mapping, message_tree);
  std::vector<int32_t> stamp(tree.num_leaves(), -1);
  // Nodes whose children are all single-slot leaves.
  std::vector<char> unit_slots(tree.num_nodes(), 1);
  for (NodeId v = 0; v < tree.num_nodes(); ++v) {
    const NodeId p = tree.parent(v);
    if (p >= 0 && (!tree.is_leaf(v) || tree.capacity(v) != 1))
      unit_slots[p] = 0;
  }
  std::vector<int32_t> order;  // neighbour positions of u, heaviest first
  std::vector<LeafId> around;  // the leaves of u's neighbours
  int32_t visit = 0;
  // Only processes that moved, or whose neighbours moved, are revisited in the
  // next round.
  std::vector<char> active(n, 1), next_active(n, 0);
  auto wake = [&](VertexId x) {
    next_active[x] = 1;
    for (VertexId y : graph.neighbors(x)) next_active[y] = 1;
  };
  const int32_t window = huge ? 4 : kWindow;
  for (int32_t round = 0; round < rounds; ++round) {
    bool improved = false;
    for (VertexId u = 0; u < n; ++u) {
      if (!active[u]) continue;
      auto nu = graph.neighbors(u);
      auto wu = graph.weights(u);
      if (nu.empty()) continue;
      // Settled: every neighbour shares u's leaf or its parent, so u alone
      // cannot do better; swaps that help the other side are found from that
      // side.
      const LeafId lu = place.leaf(u);
      const NodeId pu = tree.parent(lu);
      bool settled = !tree.has_pair_costs(pu < 0 ? lu : pu);
      const bool unit_siblings = pu >= 0 && settled && unit_slots[pu];
      place.NeighbourLeaves(u, &around);
      for (size_t k = 0; k < nu.size() && settled; ++k) {
        const LeafId lx = around[k];
        settled = lx == lu || tree.parent(lx) == pu;
      }
      if (settled) continue;
      order.resize(nu.size());
      std::iota(order.begin(), order.end(), 0);
      const size_t anchors =
          std::min<size_t>(huge ? 2 : kAnchors, order.size());
      std::partial_sort(order.begin(), order.begin() + anchors, order.end(),
                        [&](int32_t a, int32_t b) {
                          return wu[a] != wu[b] ? wu[a] > wu[b] : a < b;
                        });
      // Scale for the strict-improvement test: gains below it are rounding
      // noise.
      double volume = 0.0;
      for (double w : wu) volume += w;
      double eps = 1e-12 * volume * tree.cost(tree.root()) + 1e-300;
      if (message_tree != nullptr) {
        double messages = 0.0;
        for (double m : graph.messages(u)) messages += m;
        eps += 1e-12 * messages * message_tree->cost(message_tree->root());
      }
      ++visit;
      stamp[place.leaf(u)] = visit;
      double best_gain = eps;
      VertexId best_v = -1;
      LeafId best_leaf = -1;
      for (size_t a = 0; a < anchors; ++a) {
        const LeafId lx = around[order[a]];
        const NodeId p = tree.parent(lx);
        // Single-slot leaves under u's own parent are interchangeable for u
        // (same distance to every other leaf): swaps and moves there gain
        // exactly 0.
        if (p == pu && unit_siblings) continue;
        LeafId begin = lx, end = lx + 1;
        if (p >= 0) {
          begin = std::max(tree.leaf_begin(p), lx - window / 2);
          end = std::min(tree.leaf_end(p), begin + window);
        }
        for (LeafId l = begin; l < end; ++l) {
          if (stamp[l] == visit) continue;
          stamp[l] = visit;
          if (place.HasRoom(l) &&
              (classes == nullptr || classes->Allowed(u, l))) {
            const double g = place.MoveGain(u, l, around);
            if (g > best_gain) {
              best_gain = g;
              best_v = -1;
              best_leaf = l;
            }
          }
          for (VertexId v : place.Occupants(l)) {
            if (classes != nullptr &&
                (!classes->Allowed(u, l) || !classes->Allowed(v, lu))) {
              continue;
            }
            const double g = place.SwapGain(u, v, around);
            if (g > best_gain) {
              best_gain = g;
              best_v = v;
              best_leaf = l;
            }
          }
        }
      }
      if (best_leaf < 0) continue;
      if (best_v >= 0) {
        place.Swap(u, best_v);
        wake(best_v);
      } else {
        place.Move(u, best_leaf);
      }
      wake(u);
      improved = true;
    }
    if (!improved) break;
    active.swap(next_active);
    std::fill(next_active.begin(), next_active.end(), 0);
  }
}

// The tree cut at depth d, as tleaf levels, when that is exact: balanced, no
// child-pair matrices, one cost per depth, costs not increasing downwards. Leaf
// i of the result stands for the i-th node at depth d.
std::optional<topology::Tree> Truncate(const topology::Tree& tree, int32_t d) {
  const std::vector<int32_t> arities = tree.Arities();
  if (arities.empty() || d < 1 || d >= static_cast<int32_t>(arities.size()))
    return std::nullopt;
  std::vector<double> depth_cost(d, -1.0);
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    if (tree.has_pair_costs(v)) return std::nullopt;
    const int32_t e = tree.depth(v);
    if (e >= d) continue;
    if (depth_cost[e] < 0) depth_cost[e] = tree.cost(v);
    if (depth_cost[e] != tree.cost(v)) return std::nullopt;
  }
  std::vector<int64_t> ar(arities.begin(), arities.begin() + d);
  std::vector<double> links(d);
  for (int32_t e = 0; e < d; ++e) {
    links[e] = e + 1 < d ? depth_cost[e] - depth_cost[e + 1] : depth_cost[e];
    if (links[e] < 0) return std::nullopt;
  }
  auto t = topology::Tree::FromLevels(ar, links);
  if (!t.ok()) return std::nullopt;
  return *std::move(t);
}

// Swaps whole depth-d subtrees' contents: processes are contracted to their
// depth-d ancestor, the quotient graph is refined on the cut tree (exact:
// distances between different depth-d nodes depend only on those nodes), and
// each process keeps its offset inside its subtree.
void RefineLevel(const topology::Tree& tree, const graphs::CommGraph& graph,
                 int32_t swap_rounds, int32_t d, Mapping* mapping,
                 const topology::Tree* message_tree) {
  std::optional<topology::Tree> cut = Truncate(tree, d);
  if (!cut) return;
  std::optional<topology::Tree> message_cut;
  if (message_tree != nullptr) {
    message_cut = Truncate(*message_tree, d);
    if (!message_cut) return;
  }
  const int32_t units = cut->num_leaves();
  const int32_t span = tree.num_leaves() / units;  // leaves per depth-d node
  const VertexId n = graph.num_vertices();
  graphs::CommGraphBuilder b(units);
  for (VertexId u = 0; u < n; ++u) {
    const int32_t a = (*mapping)[u] / span;
    auto nu = graph.neighbors(u);
    auto wu = graph.weights(u);
    for (size_t k = 0; k < nu.size(); ++k) {
      if (nu[k] < u) continue;
      const int32_t c = (*mapping)[nu[k]] / span;
      if (a == c) continue;
      const absl::Status added =
          message_tree != nullptr
              ? b.AddTraffic(a, c, wu[k], graph.messages(u)[k])
              : b.AddEdge(a, c, wu[k]);
      if (!added.ok()) return;
    }
  }
  absl::StatusOr<graphs::CommGraph> q = std::move(b).Build();
  if (!q.ok()) return;
  Mapping perm(units);
  std::iota(perm.begin(), perm.end(), 0);
  RefineVertices(*cut, *q, swap_rounds, &perm, nullptr,
                 message_cut ? &*message_cut : nullptr);
  for (VertexId u = 0; u < n; ++u) {
    const LeafId l = (*mapping)[u];
    (*mapping)[u] = perm[l / span] * span + l % span;
  }
}

bool UniformCapacity(const topology::Tree& tree) {
  for (LeafId l = 1; l < tree.num_leaves(); ++l) {
    if (tree.capacity(l) != tree.capacity(0)) return false;
  }
  return true;
}

}  // namespace

void RefineMapping(const topology::Tree& tree, const graphs::CommGraph& graph,
                   int32_t swap_rounds, Mapping* mapping,
                   const SlotClasses* classes, ProgressSink* progress,
                   const topology::Tree* message_tree) {
  if (message_tree != nullptr && !graph.has_messages()) message_tree = nullptr;
  if (graph.num_vertices() < 2 || swap_rounds <= 0) return;
  // Coarse to fine: whole subtrees first, then single processes.
  const bool levels = UniformCapacity(tree) && classes == nullptr;
  const double steps = levels ? tree.height() : 1;
  ReportProgress(progress, "refinement", 0);
  if (levels) {
    const int32_t level_rounds = graph.num_vertices() > kHugeGraph
                                     ? std::min(swap_rounds, 2)
                                     : swap_rounds;
    for (int32_t d = 1; d < tree.height(); ++d) {
      RefineLevel(tree, graph, level_rounds, d, mapping, message_tree);
      ReportProgress(progress, "refinement", d / steps);
    }
  }
  RefineVertices(tree, graph, swap_rounds, mapping, classes, message_tree);
  ReportProgress(progress, "refinement", 1);
}

}  // namespace rankmap::core
