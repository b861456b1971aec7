#include "core/initial/exact_map.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

double BruteForce(const topology::Tree& t, const graphs::CommGraph& g) {
  std::vector<LeafId> leaves(t.num_leaves());
  std::iota(leaves.begin(), leaves.end(), 0);
  double best = -1.0;
  do {
    const Mapping m(leaves.begin(), leaves.begin() + g.num_vertices());
    const double j = ComputeJ(t, g, m);
    if (best < 0 || j < best) best = j;
  } while (std::next_permutation(leaves.begin(), leaves.end()));
  return best;
}

TEST(ExactMapTest, EqualsBruteForceFromTheWorstStart) {
  // 8 processes on tleaf 3 2 100 2 10 2 1 (8 leaves) and on a pair-cost tree.
  topology::TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  b.SetPairCosts(root, {0, 40, 300, 40, 0, 90, 300, 90, 0});
  for (int c = 0; c < 3; ++c) {
    const NodeId cl = b.AddChild(root, "cluster", 12 + c);
    for (int k = 0; k < 3; ++k) b.AddChild(cl, "Core");
  }
  const topology::Tree pair_tree = std::move(b).Build().value();
  for (const topology::Tree& t :
       {testing::MakeTleaf("3 2 100 2 10 2 1"), pair_tree}) {
    for (uint64_t seed : {1, 2, 3}) {
      const graphs::CommGraph g = testing::MakeRandomGraph(8, 3, seed);
      Mapping m(8);
      std::iota(m.begin(), m.end(), 0);
      double j = ComputeJ(t, g, m);
      ASSERT_TRUE(ExactMap(t, g, int64_t{1} << 24, &m, &j));
      ASSERT_TRUE(ValidateMapping(t, 8, m).ok());
      EXPECT_DOUBLE_EQ(j, ComputeJ(t, g, m));
      EXPECT_NEAR(j, BruteForce(t, g), 1e-9 * j);
    }
  }
}

TEST(ExactMapTest, AWideTreeCostsTheBudgetNotLeavesSquared) {
  // 100,000 leaves in pairs: each search node scans every leaf, so the leaf
  // examinations, not the 2^20 nodes, end the search; the pair is found first.
  const topology::Tree t = testing::MakeTleaf("2 50000 10 2 1");
  graphs::CommGraphBuilder b(2);
  ASSERT_TRUE(b.AddEdge(0, 1, 5.0).ok());
  const graphs::CommGraph g = std::move(b).Build().value();
  Mapping m = {0, 2};
  double j = ComputeJ(t, g, m);
  ASSERT_EQ(j, 55.0);
  EXPECT_FALSE(ExactMap(t, g, int64_t{1} << 20, &m, &j));
  EXPECT_EQ(j, 5.0);
  EXPECT_EQ(t.parent(m[0]), t.parent(m[1]));
  EXPECT_TRUE(ValidateMapping(t, 2, m).ok());
}

TEST(ExactMapTest, ABudgetTooSmallKeepsTheStartOrBetter) {
  const topology::Tree t = testing::MakeTleaf("3 2 100 2 10 2 1");
  const graphs::CommGraph g = testing::MakeRandomGraph(8, 3, 4);
  Mapping m(8);
  std::iota(m.begin(), m.end(), 0);
  double j = ComputeJ(t, g, m);
  const double start = j;
  EXPECT_FALSE(ExactMap(t, g, 3, &m, &j));
  EXPECT_LE(j, start);
  EXPECT_TRUE(ValidateMapping(t, 8, m).ok());
  EXPECT_DOUBLE_EQ(j, ComputeJ(t, g, m));
}

}  // namespace
}  // namespace rankmap::core
