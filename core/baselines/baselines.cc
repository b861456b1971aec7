#include "core/baselines/baselines.h"

#include <algorithm>
#include <random>
#include <unordered_set>

#include "core/refine/placement.h"

namespace rankmap::core {

using graphs::VertexId;

Mapping IdentityMap(const topology::Tree& tree, int32_t n) {
  std::vector<LeafId> slots = Slots(tree, n);
  slots.resize(n);
  return slots;
}

Mapping RoundRobinMap(const topology::Tree& tree, int32_t n) {
  if (tree.is_leaf(tree.root())) return IdentityMap(tree, n);
  // Per child of the root, a cursor over its slots (leaf, slots used there);
  // children are dealt to in turn, and dropped from the turn once full.
  struct Cursor {
    LeafId leaf, end;
    int32_t used;
  };
  std::vector<Cursor> turn;
  for (NodeId c : tree.children(tree.root()))
    turn.push_back({tree.leaf_begin(c), tree.leaf_end(c), 0});
  Mapping m;
  m.reserve(n);
  while (static_cast<int32_t>(m.size()) < n && !turn.empty()) {
    size_t kept = 0;
    for (size_t c = 0; c < turn.size(); ++c) {
      Cursor& k = turn[c];
      while (k.leaf < k.end && k.used >= tree.capacity(k.leaf)) {
        ++k.leaf;
        k.used = 0;
      }
      if (k.leaf == k.end) continue;
      if (static_cast<int32_t>(m.size()) < n) {
        m.push_back(k.leaf);
        ++k.used;
      }
      turn[kept++] = k;
    }
    turn.resize(kept);
  }
  return m;
}

Mapping RandomMap(const topology::Tree& tree, int32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t total = tree.Capacity(tree.root());
  if (total <= std::max<int64_t>(int64_t{1} << 22,
                                 2 * (int64_t{tree.num_leaves()} + n))) {
    std::vector<LeafId> slots = Slots(tree);
    std::shuffle(slots.begin(), slots.end(), rng);
    slots.resize(n);
    return slots;
  }
  // More than twice as many slots as processes: rejection draws few repeats.
  std::vector<int64_t> first_slot(tree.num_leaves() + 1, 0);
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    first_slot[l + 1] = first_slot[l] + tree.capacity(l);
  std::uniform_int_distribution<int64_t> pick(0, total - 1);
  std::unordered_set<int64_t> drawn;
  Mapping m;
  m.reserve(n);
  while (static_cast<int32_t>(m.size()) < n) {
    const int64_t slot = pick(rng);
    if (!drawn.insert(slot).second) continue;
    m.push_back(static_cast<LeafId>(
        std::upper_bound(first_slot.begin(), first_slot.end(), slot) -
        first_slot.begin() - 1));
  }
  return m;
}

namespace {

constexpr VertexId kAllPairsLimit = 512;
constexpr int32_t kSampledPartners = 64;

void SwapSearch(const topology::Tree& tree, const graphs::CommGraph& graph,
                int32_t rounds, uint64_t seed, Mapping* m) {
  const VertexId n = graph.num_vertices();
  Placement place(tree, graph, m);
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ULL);
  // Free leaves are candidates for moves; they change as processes move, so
  // test HasRoom.
  for (int32_t r = 0; r < rounds; ++r) {
    bool improved = false;
    for (VertexId u = 0; u < n; ++u) {
      double best =
          1e-12 * (graph.VertexVolume(u) * tree.cost(tree.root())) + 1e-300;
      VertexId best_v = -1;
      LeafId best_leaf = -1;
      auto consider = [&](VertexId v) {
        if (v == u) return;
        const double g = place.SwapGain(u, v);
        if (g > best) {
          best = g;
          best_v = v;
        }
      };
      if (n <= kAllPairsLimit) {
        for (VertexId v = 0; v < n; ++v) consider(v);
      } else {
        std::uniform_int_distribution<VertexId> pick(0, n - 1);
        for (int32_t k = 0; k < kSampledPartners; ++k) consider(pick(rng));
      }
      if (n < tree.Capacity(tree.root())) {
        // Moves to free leaves: all leaves on small trees, a seeded sample on
        // large ones (the same budget as the swap partners).
        const bool all = tree.num_leaves() <= kAllPairsLimit;
        std::uniform_int_distribution<LeafId> pick_leaf(0,
                                                        tree.num_leaves() - 1);
        const int32_t tries = all ? tree.num_leaves() : kSampledPartners;
        for (int32_t k = 0; k < tries; ++k) {
          const LeafId l = all ? k : pick_leaf(rng);
          if (!place.HasRoom(l)) continue;
          const double g = place.MoveGain(u, l);
          if (g > best) {
            best = g;
            best_v = -1;
            best_leaf = l;
          }
        }
      }
      if (best_v >= 0) {
        place.Swap(u, best_v);
        improved = true;
      } else if (best_leaf >= 0) {
        place.Move(u, best_leaf);
        improved = true;
      }
    }
    if (!improved) break;
  }
}

}  // namespace

Mapping MpippMap(const topology::Tree& tree, const graphs::CommGraph& graph,
                 const MpippOptions& options, uint64_t seed) {
  const VertexId n = graph.num_vertices();
  const int32_t starts = std::max(1, options.starts);
  const int32_t rounds = options.rounds;
  Mapping best;
  double best_j = 0.0;
  for (int32_t s = 0; s < starts; ++s) {
    Mapping m = RandomMap(tree, n, seed + s);
    SwapSearch(tree, graph, rounds, seed + s, &m);
    const double j = ComputeJ(tree, graph, m);
    if (best.empty() || j < best_j) {
      best = std::move(m);
      best_j = j;
    }
  }
  return best;
}

}  // namespace rankmap::core
