#include "core/refine/leaf_distance.h"

#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/hetero_clusters.h"

namespace rankmap::core {
namespace {

using topology::LeafId;
using topology::Tree;

// Every pair of leaves: the same double as Tree::Distance.
void ExpectSameAsTree(const Tree& t, bool fast) {
  const LeafDistance d(t);
  EXPECT_EQ(d.fast(), fast);
  for (LeafId a = 0; a < t.num_leaves(); ++a) {
    for (LeafId b = 0; b < t.num_leaves(); ++b)
      ASSERT_EQ(d(a, b), t.Distance(a, b)) << a << " " << b;
  }
}

TEST(LeafDistanceTest, KeysOnTleafTrees) {
  ExpectSameAsTree(testing::MakeTleaf("4 2 1000 3 100 2 10 5 1"), true);
  ExpectSameAsTree(testing::MakeTleaf("3 5 100 7 10 4 1"), true);
}

TEST(LeafDistanceTest, TreeDistanceElsewhere) {
  // Pair costs at the root, unbalanced clusters.
  const testing::HeteroInstance in =
      testing::MakeHeteroInstance(7, testing::HeteroGraph::kRandom);
  ExpectSameAsTree(in.platform.tree, false);
  // Unbalanced: different arities under one parent.
  ExpectSameAsTree(testing::MakeRestrictedTwoNodeCase().tree, false);
}

TEST(LeafDistanceTest, HandValues) {
  // tleaf 2 2 10 3 1: leaves 0-2 under one node, 3-5 under the other.
  const LeafDistance d(testing::MakeTleaf("2 2 10 3 1"));
  EXPECT_EQ(d(0, 0), 0.0);
  EXPECT_EQ(d(0, 2), 1.0);
  EXPECT_EQ(d(2, 3), 11.0);
  EXPECT_EQ(d(5, 0), 11.0);
}

}  // namespace
}  // namespace rankmap::core
