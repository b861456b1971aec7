#include "core/refine/partition_refine.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/refine/stall_case.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using testing::MakeGrid2D;
using testing::MakeTleaf;
using topology::Tree;

TEST(RefinePartition, NeverRaisesJAndKeepsBounds) {
  const Tree tree = MakeTleaf("2 2 10 4 1");
  const CommGraph g = testing::MakeRandomGraph(80, 4, 11);
  const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.25);
  Mapping m(80);
  for (int32_t v = 0; v < 80; ++v) m[v] = v % 8;  // balanced, structure-blind
  const double before = ComputeJ(tree, g, m);
  const double gain = RefinePartition(tree, g, bound, 10, /*passes=*/0, &m);
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

// core/refine/stall_case.h: greedy moves stop at J = 17 (q and x on leaf
// 1 with z, nothing else fits); FM moves y out at a loss first and then x in,
// reaching the optimum J = 3 (leaf 0 = {p, q, x}, leaf 1 = {y, z}).
TEST(RefinePartition, FmEscapesTheGreedyLocalMinimum) {
  const Tree tree = MakeTleaf("1 2 1");
  const internal::StallCase c = internal::MakeStallCase();
  const CommGraph& g = c.graph;
  const std::vector<double>& bound = c.bound;
  const Mapping m = c.start;
  ASSERT_DOUBLE_EQ(ComputeJ(tree, g, m), 20.0);
  Mapping greedy = m;
  RefinePartition(tree, g, bound, 10, /*passes=*/0, &greedy);
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, greedy), 17.0);
  // Brute force over all 2^5 placements within the bounds.
  double optimum = 1e300;
  for (int32_t bits = 0; bits < 32; ++bits) {
    Mapping c(5);
    int32_t on1 = 0;
    for (int32_t v = 0; v < 5; ++v) on1 += c[v] = (bits >> v) & 1;
    if (on1 > 3 || 5 - on1 > 3) continue;
    optimum = std::min(optimum, ComputeJ(tree, g, c));
  }
  EXPECT_DOUBLE_EQ(optimum, 3.0);
  const double gain = RefinePartition(tree, g, bound, /*sweeps=*/0, 4, &greedy);
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, greedy), 3.0);
  EXPECT_DOUBLE_EQ(gain, 14.0);
}

TEST(RefinePartition, MalformedInputLeavesTheMappingAlone) {
  const Tree tree = MakeTleaf("2 2 10 4 1");
  const CommGraph g = MakeGrid2D(8, 8);
  const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.25);
  Mapping short_map(10, 0), bad_leaf(64, 0);
  bad_leaf[5] = 99;
  EXPECT_EQ(RefinePartition(tree, g, bound, /*sweeps=*/0, 4, &short_map), 0.0);
  EXPECT_EQ(short_map, Mapping(10, 0));
  EXPECT_EQ(RefinePartition(tree, g, bound, /*sweeps=*/0, 4, &bad_leaf), 0.0);
  EXPECT_EQ(bad_leaf[5], 99);
  Mapping m(64);
  for (int32_t v = 0; v < 64; ++v) m[v] = v % 8;
  const Mapping before = m;
  EXPECT_EQ(RefinePartition(tree, g, {1.0, 2.0}, /*sweeps=*/0, 4, &m), 0.0);
  EXPECT_EQ(RefinePartition(tree, g, {1.0, 2.0}, 4, /*passes=*/0, &m), 0.0);
  EXPECT_EQ(RefinePartition(tree, g, bound, 4, /*passes=*/0, &bad_leaf), 0.0);
  EXPECT_EQ(m, before);
}

TEST(RefinePartition, FmNeverRaisesJKeepsBoundsAndReportsItsGain) {
  const Tree tree = MakeTleaf("2 2 10 4 1");
  for (uint64_t seed : {3, 4, 5}) {
    for (const CommGraph& g :
         {testing::MakeRandomGraph(400, 4, seed), MakeGrid2D(20, 20)}) {
      const int32_t n = g.num_vertices();
      const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.03);
      Mapping m(n);
      for (int32_t v = 0; v < n; ++v) m[v] = v % 8;
      RefinePartition(tree, g, bound, 20, /*passes=*/0, &m);
      const double before = ComputeJ(tree, g, m);
      const double gain = RefinePartition(tree, g, bound, /*sweeps=*/0, 8, &m);
      const double after = ComputeJ(tree, g, m);
      EXPECT_GE(gain, 0.0);
      EXPECT_NEAR(before - after, gain, 1e-9 * before);
      EXPECT_TRUE(ValidatePartitionMapping(tree, g, m, 0.03).ok());
      // The greedy moves had converged; FM still finds a better placement.
      EXPECT_LT(after, before);
    }
  }
}

}  // namespace
}  // namespace rankmap::core
