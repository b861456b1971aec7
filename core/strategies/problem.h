// What one run of the multilevel engine maps onto: the tree (one-to-one with
// fewer processes than slots: capacities packed into the fewest subtrees, as
// the multisection packs), the bound of every leaf, and the depth of every
// leaf's finest block. Cuts of the tree at a depth (core/strategies/
// cut_tree.h) are described by their blocks' bounds.
//
// Bounds: one-to-one, the (packed) capacities; n-to-1, PartitionLoadBounds,
// rounded down to integers when every vertex weight is integral (loads are
// then integers: the fraction is no room). Coarse levels use the bounds
// before rounding (coarse_bound). Finest blocks: a one-to-one leaf whose
// siblings are all single-slot leaves under a parent without a pair-cost
// matrix is equidistant from its siblings, so its parent is the block;
// otherwise the leaf itself.
//
//   const Problem p = MakeProblem(tree, graph, /*one_to_one=*/true, 0.0);
//   const CutShape s = ShapeAt(p, /*depth=*/1);   // blocks of the top split
#ifndef RANKMAP_CORE_STRATEGIES_PROBLEM_H_
#define RANKMAP_CORE_STRATEGIES_PROBLEM_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/strategies/cut_tree.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core::multilevel {

struct Problem {
  const topology::Tree* tree = nullptr;  // the original or *packed
  std::optional<topology::Tree> packed;
  const graphs::CommGraph* graph = nullptr;
  bool one_to_one = true;
  double imbalance = 0.0;
  // Prefix sums over leaves: bounds, bounds before rounding, exact shares.
  std::vector<double> bound_prefix;
  std::vector<double> coarse_prefix;
  std::vector<double> share_prefix;
  std::vector<int32_t> final_depth;  // per leaf: the depth of its block
  int32_t max_depth = 0;             // the largest final depth

  // The bound of the leaves under node x of *tree (coarse: before rounding).
  double NodeBound(topology::NodeId x, bool coarse = false) const;
  // What the leaves under x may hold beyond their exact share.
  double NodeRoom(topology::NodeId x, bool coarse = false) const;
  // Per leaf, the depth of its block in the cut at depth d.
  std::vector<int32_t> BlockDepths(int32_t d) const;
};

// O(n + nodes). Problem keeps pointers to tree and graph.
Problem MakeProblem(const topology::Tree& tree, const graphs::CommGraph& graph,
                    bool one_to_one, double imbalance);

// The blocks of the cut at depth d that can take weight: how many, the
// smallest bound, the least room beyond a share and the least bound / share -
// 1 among them. O(leaves * depth).
struct CutShape {
  int64_t blocks = 0;
  double min_bound = 0.0;
  double min_room = 0.0;
  double min_ratio = 0.0;
};
CutShape ShapeAt(const Problem& p, int32_t d, bool coarse = false);

// Every block's bound on `cut`, plus relax for the blocks that can take
// weight.
std::vector<double> BlockBounds(const Problem& p, const CutTree& cut,
                                double relax, bool coarse);

namespace internal {

// One-to-one with n processes on a larger tree: the count of processes the
// multisection's packing gives every leaf (the fewest children that hold a
// node's processes, in proportion to capacity, largest remainders first).
std::vector<int32_t> PackedCapacities(const topology::Tree& tree, int64_t n);

}  // namespace internal

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_STRATEGIES_PROBLEM_H_
