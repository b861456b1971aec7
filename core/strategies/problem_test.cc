#include "core/strategies/problem.h"

#include <numeric>
#include <vector>

#include "core/initial/multisection.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core::multilevel {
namespace {

using graphs::CommGraph;
using topology::LeafId;
using topology::Tree;

TEST(ProblemTest, PackingMatchesTheMultisection) {
  // 10 processes on 2 x (2 x 4) slots: the multisection packs them into the
  // fewest subtrees; the packed capacities are the counts it gives each leaf.
  const Tree t = testing::MakeTleaf("3 2 100 2 10 4 1");
  for (int32_t n : {1, 5, 8, 10, 13, 16}) {
    const CommGraph g = testing::MakeRandomGraph(n, 2, n);
    const std::vector<int32_t> packed = internal::PackedCapacities(t, n);
    EXPECT_EQ(std::accumulate(packed.begin(), packed.end(), 0), n);
    const Mapping m = MultisectionMap(t, g, {}, 1).value();
    std::vector<int32_t> count(t.num_leaves(), 0);
    for (LeafId l : m) ++count[l];
    EXPECT_EQ(count, packed) << n;
  }
  // 5 processes on 16 slots: one subtree of 8 holds them, its two nodes of 4
  // share them 3 + 2 (the larger remainder first), each on its first leaves.
  EXPECT_EQ(
      internal::PackedCapacities(t, 5),
      (std::vector<int32_t>{1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(ProblemTest, OneToOneBlocksAreTheParentsOfUnitLeaves) {
  const Tree t = testing::MakeTleaf("3 2 100 2 10 4 1");
  const CommGraph g = testing::MakeRandomGraph(16, 2, 3);
  const Problem p = MakeProblem(t, g, /*one_to_one=*/true, 0.0);
  EXPECT_EQ(p.max_depth, 2);  // leaves at depth 3 collapse into their parents
  const CutShape s = ShapeAt(p, p.max_depth);
  EXPECT_EQ(s.blocks, 4);
  EXPECT_EQ(s.min_bound, 4.0);
  EXPECT_EQ(s.min_room, 0.0);
  // n-to-1 keeps the leaves.
  const Problem q = MakeProblem(t, g, /*one_to_one=*/false, 0.03);
  EXPECT_EQ(q.max_depth, 3);
}

TEST(ProblemTest, IntegralWeightsRoundTheBoundsDown) {
  // 100 unit processes on 8 leaves: shares of 12.5, bounds 12.875 -> 12 with
  // integral weights; coarse levels keep 12.875.
  const Tree t = testing::MakeTleaf("2 2 10 4 1");
  const CommGraph g = testing::MakeRandomGraph(100, 2, 1);
  const Problem p = MakeProblem(t, g, /*one_to_one=*/false, 0.03);
  EXPECT_DOUBLE_EQ(p.NodeBound(0), 13.0);  // ceil(12.5) wins over 12.875
  EXPECT_DOUBLE_EQ(p.NodeBound(0, /*coarse=*/true), 13.0);
  EXPECT_DOUBLE_EQ(p.NodeBound(t.root()), 8 * 13.0);
  EXPECT_DOUBLE_EQ(p.NodeRoom(0), 0.5);
  const CommGraph big = testing::MakeRandomGraph(1000, 2, 1);
  const Problem q = MakeProblem(t, big, /*one_to_one=*/false, 0.03);
  EXPECT_DOUBLE_EQ(q.NodeBound(0), 128.0);  // 125 * 1.03 = 128.75
  EXPECT_DOUBLE_EQ(q.NodeBound(0, /*coarse=*/true), 128.75);
}

}  // namespace
}  // namespace rankmap::core::multilevel
