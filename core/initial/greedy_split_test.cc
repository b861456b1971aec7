#include "core/initial/greedy_split.h"

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

TEST(GreedySplitMapTest, KeepsCliquesOnTheirNodeOfAnUnbalancedTree) {
  // Root over a 6-core node and a 2-core node (distance 1 inside a node, 100
  // across); a 6-clique {0..5} and a 2-clique {6, 7} joined by the edge 5-6.
  // The big node is filled first: growth starts at process 0 and takes its
  // clique (ties by lower id), 6 is the strongest boundary process and seeds
  // the small node. J = 15 * 1 + 1 * 1 + 1 * 100 = 116.
  topology::TreeBuilder b;
  const NodeId root = b.AddRoot("network", 100);
  const NodeId big = b.AddChild(root, "node", 1);
  for (int c = 0; c < 6; ++c) b.AddChild(big, "core");
  const NodeId small = b.AddChild(root, "node", 1);
  for (int c = 0; c < 2; ++c) b.AddChild(small, "core");
  const topology::Tree tree = std::move(b).Build().value();
  graphs::CommGraphBuilder gb(8);
  for (int i = 0; i < 6; ++i) {
    for (int j = i + 1; j < 6; ++j) ASSERT_TRUE(gb.AddEdge(i, j, 1).ok());
  }
  ASSERT_TRUE(gb.AddEdge(6, 7, 1).ok());
  ASSERT_TRUE(gb.AddEdge(5, 6, 1).ok());
  const graphs::CommGraph g = std::move(gb).Build().value();
  const Mapping m = GreedySplitMap(tree, g);
  ASSERT_TRUE(ValidateMapping(tree, 8, m).ok());
  EXPECT_DOUBLE_EQ(testing::PairwiseJ(tree, g, m), 116.0);
  EXPECT_EQ(GreedySplitMap(tree, g), m);  // deterministic
}

TEST(GreedySplitMapTest, SkipsLeavesWithoutCapacity) {
  const auto [tree, g] = testing::MakeRestrictedTwoNodeCase();
  const Mapping m = GreedySplitMap(tree, g);
  ASSERT_TRUE(ValidateMapping(tree, g.num_vertices(), m).ok());
  for (LeafId l : m) EXPECT_GT(tree.capacity(l), 0);
}

}  // namespace
}  // namespace rankmap::core
