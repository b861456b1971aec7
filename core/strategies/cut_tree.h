// The tree cut along a frontier: the blocks a level of the multilevel engine
// maps onto. A frontier is a set of nodes with exactly one on the path from
// every leaf to the root; the cut tree keeps the nodes above it as they are
// (costs, child-pair matrices, child order) and makes every frontier node a
// leaf whose capacity is the capacity of its subtree (clamped to 2^31 - 1).
// Two processes in one block are at distance 0 in the cut tree: a coarse level
// decides only what the frontier separates.
//
// The frontier is given per leaf of the tree as the depth of its block
// (block_depth[l] <= depth(l)); leaves below one frontier node must agree.
//
//   // Blocks are the nodes of depth 1 (and leaves above that depth).
//   std::vector<int32_t> depth(tree.num_leaves());
//   for (LeafId l = 0; l < tree.num_leaves(); ++l)
//     depth[l] = std::min(1, tree.depth(l));
//   ASSIGN_OR_RETURN(CutTree cut, CutTree::Make(tree, depth));
//   LeafId b = cut.block_of_leaf(7);   // the block holding leaf 7
#ifndef RANKMAP_CORE_STRATEGIES_CUT_TREE_H_
#define RANKMAP_CORE_STRATEGIES_CUT_TREE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::core::multilevel {

class CutTree {
 public:
  // Errors: a block_depth of the wrong length, deeper than its leaf, or leaves
  // of one subtree that disagree. O(nodes of the tree).
  static absl::StatusOr<CutTree> Make(const topology::Tree& tree,
                                      std::span<const int32_t> block_depth);

  const topology::Tree& tree() const { return cut_; }
  int32_t num_blocks() const { return cut_.num_leaves(); }
  // The node of the original tree a node of the cut tree stands for.
  topology::NodeId original(topology::NodeId cut_node) const {
    return original_[cut_node];
  }
  // The cut tree's node for a node of the original tree at or above the
  // frontier (-1 below it).
  topology::NodeId cut_node(topology::NodeId original_node) const {
    return cut_of_[original_node];
  }
  // The block (cut tree leaf) holding a leaf of the original tree.
  topology::LeafId block_of_leaf(topology::LeafId leaf) const {
    return block_of_leaf_[leaf];
  }
  // The depth of each leaf's block (as given to Make).
  std::span<const int32_t> block_depth() const { return block_depth_; }

 private:
  topology::Tree cut_;
  std::vector<topology::NodeId> original_;  // per cut node
  std::vector<topology::NodeId> cut_of_;    // per original node, -1 below
  std::vector<topology::LeafId> block_of_leaf_;
  std::vector<int32_t> block_depth_;
};

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_STRATEGIES_CUT_TREE_H_
