#include "topology/tree.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::testing::ElementsAre;

TEST(Tree, FromLevelsFollowsTheTleafRule) {
  // tleaf 2 2 10 2 1: leaves 0,1 share a parent (distance 1); 0,2 meet at the
  // root (1 + 10).
  const int64_t arities[] = {2, 2};
  const double costs[] = {10, 1};
  auto t = Tree::FromLevels(arities, costs);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(t->Validate().ok()) << t->Validate();
  EXPECT_EQ(t->num_leaves(), 4);
  EXPECT_EQ(t->num_nodes(), 7);
  EXPECT_EQ(t->height(), 2);
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(2, 3), 1.0);
  EXPECT_EQ(t->Distance(0, 2), 11.0);
  EXPECT_EQ(t->Distance(3, 0), 11.0);
  EXPECT_EQ(t->Distance(2, 2), 0.0);
  EXPECT_EQ(t->Hops(0, 1), 2);
  EXPECT_EQ(t->Hops(0, 3), 4);
  EXPECT_TRUE(t->Balanced());
  EXPECT_THAT(t->Arities(), ElementsAre(2, 2));
  EXPECT_EQ(t->Capacity(t->root()), 4);
  EXPECT_EQ(t->leaf_begin(t->Lca(2, 3)), 2);
  EXPECT_EQ(t->leaf_end(t->Lca(2, 3)), 4);
}

TEST(Tree, MixedRadixLeafNumbering) {
  // tleaf 3 2 100 3 10 4 1: leaf index = ((i1 * 3) + i2) * 4 + i3.
  const int64_t arities[] = {2, 3, 4};
  const double costs[] = {100, 10, 1};
  auto t = Tree::FromLevels(arities, costs);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->num_leaves(), 24);
  EXPECT_EQ(t->Distance(0, 3), 1.0);
  EXPECT_EQ(t->Distance(3, 4), 11.0);
  EXPECT_EQ(t->Distance(11, 12), 111.0);
  EXPECT_EQ(t->Distance(12, 23), 11.0);
}

TEST(Tree, UnbalancedTreeWithPairCosts) {
  // Two clusters: one node with 3 cores, one cluster of two 2-core nodes.
  TreeBuilder b;
  NodeId root = b.AddRoot("network", 1000);
  NodeId c0 = b.AddChild(root, "cluster", 100);
  NodeId c1 = b.AddChild(root, "cluster", 100);
  NodeId n0 = b.AddChild(c0, "node", 1);
  for (int i = 0; i < 3; ++i) b.SetOsIndex(b.AddChild(n0, "Core"), 10 + i);
  for (int k = 0; k < 2; ++k) {
    NodeId n = b.AddChild(c1, "node", 1);
    for (int i = 0; i < 2; ++i)
      b.SetHost(b.AddChild(n, "Core"), k == 0 ? "a" : "b");
  }
  b.SetPairCosts(root, {0, 500, 500, 0});
  auto t = std::move(b).Build();
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(t->Validate().ok()) << t->Validate();
  EXPECT_EQ(t->num_leaves(), 7);
  EXPECT_FALSE(t->Balanced());
  EXPECT_TRUE(t->Arities().empty());
  EXPECT_EQ(t->os_index(1), 11);
  EXPECT_EQ(t->host(3), "a");
  EXPECT_EQ(t->host(6), "b");
  EXPECT_EQ(t->host(0), "");
  EXPECT_EQ(t->Distance(0, 2), 1.0);
  EXPECT_EQ(t->Distance(3, 4), 1.0);
  EXPECT_EQ(t->Distance(3, 5), 100.0);
  EXPECT_EQ(t->Distance(0, 6),
            500.0);  // from the pair matrix, not the root's cost
  EXPECT_EQ(t->kind(t->root()), "network");
  for (NodeId v = 0; v + 1 < t->num_nodes(); ++v) EXPECT_GT(t->parent(v), v);
}

TEST(Tree, CapacitiesAndErrors) {
  const int64_t arities[] = {2, 2};
  const double costs[] = {10, 1};
  auto t = Tree::FromLevels(arities, costs);
  ASSERT_TRUE(t.ok());
  auto over = t->WithCapacities({2, 2, 0, 1});
  ASSERT_TRUE(over.ok());
  EXPECT_EQ(over->Capacity(over->root()), 5);
  EXPECT_EQ(over->Capacity(over->Lca(2, 3)), 1);
  EXPECT_FALSE(t->WithCapacities({1, 1}).ok());
  EXPECT_FALSE(t->WithCapacities({1, 1, -1, 1}).ok());

  const int64_t zero[] = {2, 0};
  EXPECT_FALSE(Tree::FromLevels(zero, costs).ok());
  const double negative[] = {-1, 1};
  EXPECT_FALSE(Tree::FromLevels(arities, negative).ok());
  EXPECT_FALSE(
      Tree::FromLevels(arities, std::span<const double>(costs, 1)).ok());

  TreeBuilder none;
  EXPECT_FALSE(std::move(none).Build().ok());
  TreeBuilder two_roots;
  two_roots.AddRoot("a");
  two_roots.AddRoot("b");
  EXPECT_FALSE(std::move(two_roots).Build().ok());
  TreeBuilder bad_pairs;
  NodeId r = bad_pairs.AddRoot("r", 1);
  bad_pairs.AddChild(r, "x");
  bad_pairs.AddChild(r, "x");
  bad_pairs.SetPairCosts(r, {0, 1, 2, 0});  // not symmetric
  EXPECT_FALSE(std::move(bad_pairs).Build().ok());
}

TEST(Tree, PuSetsAndLogicalIndexes) {
  TreeBuilder b;
  const NodeId root = b.AddRoot("Machine", 1);
  const NodeId core = b.AddChild(root, "Core");
  b.SetOsIndex(core, 4);
  b.SetPus(core, {12, 4, 12});
  b.SetLogicalIndex(core, 1);
  const NodeId pu = b.AddChild(root, "PU");
  b.SetOsIndex(pu, 7);
  b.AddChild(root, "PU");  // no os index
  auto t = std::move(b).Build();
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(t->Validate().ok());
  EXPECT_THAT(t->pus(0), ElementsAre(4, 12));
  EXPECT_EQ(t->logical_index(0), 1);
  EXPECT_THAT(t->pus(1), ElementsAre(7));  // {os_index} by default
  EXPECT_EQ(t->logical_index(1), -1);
  EXPECT_TRUE(t->pus(2).empty());
  // Capacities keep the PU sets.
  auto over = t->WithCapacities({2, 1, 1});
  ASSERT_TRUE(over.ok());
  EXPECT_THAT(over->pus(0), ElementsAre(4, 12));

  TreeBuilder bad;
  const NodeId r = bad.AddRoot("r", 1);
  bad.SetPus(bad.AddChild(r, "Core"), {-1, 3});
  EXPECT_FALSE(std::move(bad).Build().ok());
}

}  // namespace
}  // namespace rankmap::topology
