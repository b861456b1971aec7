#include "core/refine/partition_refine.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::CommGraphBuilder;
using testing::MakeCliqueChain;
using testing::MakeGrid2D;
using testing::MakeTleaf;
using testing::PairwiseJ;
using testing::Permute;
using testing::RandomPermutation;
using topology::Tree;
using topology::TreeBuilder;

TEST(RefinePartition, NeverRaisesJAndKeepsBounds) {
  const Tree tree = MakeTleaf("2 2 10 4 1");
  const CommGraph g = testing::MakeRandomGraph(80, 4, 11);
  const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.25);
  Mapping m(80);
  for (int32_t v = 0; v < 80; ++v) m[v] = v % 8;  // balanced, structure-blind
  const double before = ComputeJ(tree, g, m);
  const double gain = RefinePartition(tree, g, bound, 10, &m);
  const double after = ComputeJ(tree, g, m);
  EXPECT_GT(gain, 0.0);
  EXPECT_NEAR(before - after, gain, 1e-6 * before);
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, m, 0.25).ok());
}

TEST(RepairLeafLoads, EmptiesOverfullLeavesTowardsNeighboursLeaves) {
  // A path 0-1-2-3-4-5 on 3 leaves (bound 2 each, imbalance 0): all six start
  // on leaf 0. The repair moves vertices out until every leaf holds at most 2.
  const Tree tree = MakeTleaf("1 3 1");
  const CommGraph g = MakeGrid2D(1, 6);
  const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.0);
  ASSERT_EQ(bound, (std::vector<double>{2.0, 2.0, 2.0}));
  Mapping m(6, 0);
  RepairLeafLoads(tree, g, bound, &m);
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, m, 0.0).ok());
  // Infeasible bounds: stops without looping, reported by validation.
  Mapping all(6, 0);
  RepairLeafLoads(tree, g, {1.0, 1.0, 1.0}, &all);
  EXPECT_FALSE(ValidatePartitionMapping(tree, g, all, 0.0).ok());
}

}  // namespace
}  // namespace rankmap::core
