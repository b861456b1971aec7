#include "core/strategies/cut_tree.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"

namespace rankmap::core::multilevel {

using topology::LeafId;
using topology::NodeId;
using topology::Tree;

namespace {

// True when x is a frontier node: the depth its leaves' blocks sit at.
bool IsBlock(const Tree& tree, std::span<const int32_t> block_depth, NodeId x) {
  return tree.is_leaf(x) || block_depth[tree.leaf_begin(x)] == tree.depth(x);
}

absl::Status CheckFrontier(const Tree& tree,
                           std::span<const int32_t> block_depth) {
  if (static_cast<int64_t>(block_depth.size()) != tree.num_leaves()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cut tree: ", block_depth.size(), " block depths for ",
                     tree.num_leaves(), " leaves"));
  }
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    const int32_t d = block_depth[l];
    if (d < 0 || d > tree.depth(l)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cut tree: leaf ", l, " at depth ", tree.depth(l),
                       " cannot have its block at depth ", d));
    }
  }
  // Leaves under one node at the depth of their blocks agree.
  for (NodeId x = tree.num_leaves(); x < tree.num_nodes(); ++x) {
    if (block_depth[tree.leaf_begin(x)] != tree.depth(x)) continue;
    for (LeafId l = tree.leaf_begin(x); l < tree.leaf_end(x); ++l) {
      if (block_depth[l] != tree.depth(x)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cut tree: leaves ", tree.leaf_begin(x), " and ", l, " under node ",
            x, " have blocks at different depths"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CutTree> CutTree::Make(const Tree& tree,
                                      std::span<const int32_t> block_depth) {
  if (absl::Status s = CheckFrontier(tree, block_depth); !s.ok()) return s;
  topology::TreeBuilder b;
  std::vector<std::pair<NodeId, NodeId>> stack = {{tree.root(), -1}};
  while (!stack.empty()) {
    const auto [x, parent] = stack.back();
    stack.pop_back();
    const NodeId id = parent < 0
                          ? b.AddRoot(tree.kind(x), tree.cost(x))
                          : b.AddChild(parent, tree.kind(x), tree.cost(x));
    if (IsBlock(tree, block_depth, x)) {
      b.SetCapacity(
          id, static_cast<int32_t>(std::min<int64_t>(
                  tree.Capacity(x), std::numeric_limits<int32_t>::max())));
      continue;
    }
    if (tree.has_pair_costs(x)) {
      const int32_t k = tree.num_children(x);
      std::vector<double> m(static_cast<size_t>(k) * k);
      for (int32_t i = 0; i < k; ++i) {
        for (int32_t j = 0; j < k; ++j) m[i * k + j] = tree.pair_cost(x, i, j);
      }
      b.SetPairCosts(id, std::move(m));
    }
    auto kids = tree.children(x);
    for (size_t i = kids.size(); i-- > 0;) stack.push_back({kids[i], id});
  }
  absl::StatusOr<Tree> built = std::move(b).Build();
  if (!built.ok()) return built.status();
  CutTree c;
  c.cut_ = *std::move(built);
  c.block_depth_.assign(block_depth.begin(), block_depth.end());
  // Match the nodes by walking both trees, children in the same order.
  c.original_.assign(c.cut_.num_nodes(), -1);
  c.cut_of_.assign(tree.num_nodes(), -1);
  std::vector<std::pair<NodeId, NodeId>> walk = {{c.cut_.root(), tree.root()}};
  while (!walk.empty()) {
    const auto [y, x] = walk.back();
    walk.pop_back();
    c.original_[y] = x;
    c.cut_of_[x] = y;
    auto cy = c.cut_.children(y);
    auto cx = tree.children(x);
    for (size_t i = 0; i < cy.size(); ++i) walk.push_back({cy[i], cx[i]});
  }
  c.block_of_leaf_.resize(tree.num_leaves());
  for (LeafId blk = 0; blk < c.cut_.num_leaves(); ++blk) {
    const NodeId x = c.original_[blk];
    for (LeafId l = tree.leaf_begin(x); l < tree.leaf_end(x); ++l)
      c.block_of_leaf_[l] = blk;
  }
  return c;
}

}  // namespace rankmap::core::multilevel
