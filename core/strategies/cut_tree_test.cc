#include "core/strategies/cut_tree.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/hetero_clusters.h"

namespace rankmap::core::multilevel {
namespace {

using topology::LeafId;
using topology::NodeId;
using topology::Tree;

std::vector<int32_t> AtDepth(const Tree& t, int32_t d) {
  std::vector<int32_t> depth(t.num_leaves());
  for (LeafId l = 0; l < t.num_leaves(); ++l)
    depth[l] = std::min(d, t.depth(l));
  return depth;
}

// What a cut must keep: leaves of different blocks at their distance in the
// tree, leaves of one block at 0, each block's capacity that of its subtree,
// and the node maps inverse to each other.
void ExpectFaithful(const Tree& t, const CutTree& c) {
  for (LeafId a = 0; a < t.num_leaves(); ++a) {
    for (LeafId b = 0; b < t.num_leaves(); ++b) {
      const LeafId x = c.block_of_leaf(a), y = c.block_of_leaf(b);
      ASSERT_EQ(c.tree().Distance(x, y), x == y ? 0.0 : t.Distance(a, b))
          << a << " " << b;
    }
  }
  for (NodeId y = 0; y < c.tree().num_nodes(); ++y) {
    const NodeId x = c.original(y);
    EXPECT_EQ(c.cut_node(x), y);
    EXPECT_EQ(c.tree().depth(y), t.depth(x));
  }
  for (LeafId b = 0; b < c.num_blocks(); ++b)
    EXPECT_EQ(c.tree().capacity(b), t.Capacity(c.original(b)));
}

TEST(CutTreeTest, TleafAtEveryDepth) {
  const Tree t = testing::MakeTleaf("3 2 100 3 10 4 1");
  const int32_t blocks[] = {1, 2, 6, 24};
  for (int32_t d = 0; d <= 3; ++d) {
    absl::StatusOr<CutTree> c = CutTree::Make(t, AtDepth(t, d));
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->num_blocks(), blocks[d]);
    ExpectFaithful(t, *c);
  }
  // Blocks follow leaf order: leaves 0..11 are the first depth-1 block.
  const CutTree c = CutTree::Make(t, AtDepth(t, 1)).value();
  EXPECT_EQ(c.block_of_leaf(11), 0);
  EXPECT_EQ(c.block_of_leaf(12), 1);
}

TEST(CutTreeTest, PairCostsAndUnbalancedTrees) {
  const testing::HeteroInstance in =
      testing::MakeHeteroInstance(3, testing::HeteroGraph::kStencil2D);
  const Tree& t = in.platform.tree;
  for (int32_t d = 1; d <= 2; ++d) {
    absl::StatusOr<CutTree> c = CutTree::Make(t, AtDepth(t, d));
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_TRUE(c->tree().has_pair_costs(c->tree().root()));
    ExpectFaithful(t, *c);
  }
  const Tree r = testing::MakeRestrictedTwoNodeCase().tree;
  const CutTree c = CutTree::Make(r, AtDepth(r, 1)).value();
  EXPECT_EQ(c.num_blocks(), 2);
  EXPECT_EQ(c.tree().capacity(0), 6);
  EXPECT_EQ(c.tree().capacity(1), 2);  // two of node B's cores are closed
  ExpectFaithful(r, c);
}

TEST(CutTreeTest, RejectsBadFrontiers) {
  const Tree t = testing::MakeTleaf("2 2 10 2 1");
  EXPECT_FALSE(CutTree::Make(t, std::vector<int32_t>{1, 1}).ok());
  EXPECT_FALSE(CutTree::Make(t, std::vector<int32_t>{3, 2, 2, 2}).ok());
  // Leaves 0 and 1 share their depth-1 parent but disagree.
  absl::StatusOr<CutTree> c =
      CutTree::Make(t, std::vector<int32_t>{1, 2, 1, 1});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("different depths"), std::string::npos)
      << c.status();
}

}  // namespace
}  // namespace rankmap::core::multilevel
