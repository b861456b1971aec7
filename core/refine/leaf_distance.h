// LeafDistance: Tree::Distance between two leaves in O(1) on the trees where
// that is possible, the loop every gain of a local search is built from.
//
// On balanced trees with one cost per depth and no child-pair matrices (every
// tleaf tree), a leaf's key packs its child index at each depth (top depth in
// the highest bits), so the highest bit where two keys differ names the depth
// of their lowest common ancestor, and the distance is that depth's cost.
// Elsewhere it is Tree::Distance (O(depth)). Both give the same double.
//
//   const LeafDistance dist(tree);
//   double d = dist(a, b);   // == tree.Distance(a, b)
#ifndef RANKMAP_CORE_REFINE_LEAF_DISTANCE_H_
#define RANKMAP_CORE_REFINE_LEAF_DISTANCE_H_

#include <cstdint>
#include <vector>

#include "topology/tree.h"

namespace rankmap::core {

class LeafDistance {
 public:
  // Keeps a reference to tree. O(leaves + nodes).
  explicit LeafDistance(const topology::Tree& tree);

  double operator()(topology::LeafId a, topology::LeafId b) const {
    if (key_.empty()) return tree_.Distance(a, b);
    const uint64_t x = key_[a] ^ key_[b];
    return x == 0 ? 0.0 : bit_cost_[63 - __builtin_clzll(x)];
  }
  // True when distances take O(1) (the keys apply).
  bool fast() const { return !key_.empty(); }
  const topology::Tree& tree() const { return tree_; }

 private:
  const topology::Tree& tree_;
  std::vector<uint64_t> key_;  // per leaf; empty when not applicable
  double bit_cost_[64] = {};
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_LEAF_DISTANCE_H_
