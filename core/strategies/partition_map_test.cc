#include "core/strategies/partition_map.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/mapper.h"
#include "core/refine/partition_refine.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::CommGraphBuilder;
using testing::MakeCliqueChain;
using testing::MakeGrid2D;
using testing::MakeTleaf;
using testing::Permute;
using testing::RandomPermutation;
using topology::Tree;

TEST(PartitionMap, GridOnHierarchyWithinBoundAndNearTiling) {
  // 32x32 grid (1984 edges) onto 2 nodes x 2 sockets x 4 cores (distances
  // 1/10/100), 16 leaves of 64 vertices. The nested tiling (32x16 per node,
  // 16x16 per socket, 8x8 per core) cuts 32 edges between nodes, 2 * 16 between
  // sockets and 4 * 32 between cores: J = 32 * 100 + 32 * 10 + 128 * 1 = 3648.
  const Tree tree = MakeTleaf("3 2 90 2 9 4 1");
  const CommGraph g = Permute(MakeGrid2D(32, 32), RandomPermutation(1024, 3));
  MappingOptions o;
  Mapping m = PartitionMap(tree, g, o).value();
  ASSERT_TRUE(ValidatePartitionMapping(tree, g, m, 0.03).ok());
  const double j = ComputeJ(tree, g, m);
  EXPECT_LE(j, 1.15 * 3648.0);
  EXPECT_GT(j, 0.8 * 3648.0);
  // Same seed, same answer.
  EXPECT_EQ(PartitionMap(tree, g, o).value(), m);
}

TEST(PartitionMap, VertexWeightsAndZeroImbalance) {
  // 12 vertices in a path, weights 2 and 1 alternating (W = 18) on 3 leaves at
  // distance 1: exact shares of 6 each with imbalance 0.
  CommGraphBuilder gb(12);
  for (int i = 0; i + 1 < 12; ++i) ASSERT_TRUE(gb.AddEdge(i, i + 1, 1).ok());
  for (int i = 0; i < 12; ++i)
    ASSERT_TRUE(gb.SetVertexWeight(i, i % 2 == 0 ? 2 : 1).ok());
  const CommGraph g = std::move(gb).Build().value();
  const Tree tree = MakeTleaf("1 3 1");
  MappingOptions o;
  o.imbalance = 0.0;
  Mapping m = PartitionMap(tree, g, o).value();
  ASSERT_TRUE(ValidatePartitionMapping(tree, g, m, 0.0).ok());
  // A path cut into 3 contiguous pieces of weight 6 crosses 2 edges.
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, m), 2.0);
}

TEST(PartitionMap, InfeasibleWeightsAreReported) {
  CommGraphBuilder gb(3);
  ASSERT_TRUE(gb.SetVertexWeight(0, 100).ok());
  const CommGraph g = std::move(gb).Build().value();
  absl::StatusOr<Mapping> m =
      PartitionMap(MakeTleaf("1 3 1"), g, MappingOptions{});
  EXPECT_FALSE(m.ok());
}

TEST(PartitionMap, VertexWeightedMeshKeepsEveryLeafWithinTheBound) {
  // A 24 x 24 grid whose vertices weigh 1 to 5, onto 16 leaves.
  const Tree tree = MakeTleaf("2 4 10 4 1");
  const CommGraph grid = MakeGrid2D(24, 24);
  CommGraphBuilder b(grid.num_vertices());
  for (int32_t u = 0; u < grid.num_vertices(); ++u) {
    ASSERT_TRUE(b.SetVertexWeight(u, 1 + (u * 7919) % 5).ok());
    for (int32_t v : grid.neighbors(u)) {
      if (u < v) {
        ASSERT_TRUE(b.AddEdge(u, v, 1.0 + (u + v) % 3).ok());
      }
    }
  }
  const CommGraph g = std::move(b).Build().value();
  MappingOptions o;  // 3% imbalance
  const Mapping m = PartitionMap(tree, g, o).value();
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, m, o.imbalance).ok());
  // FM alone from a structure-blind start (25% room): bounds hold on weighted
  // vertices, coarse levels included, and the reported gain is exact.
  const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.25);
  Mapping start(g.num_vertices());
  for (int32_t v = 0; v < g.num_vertices(); ++v) start[v] = v % 16;
  ASSERT_TRUE(ValidatePartitionMapping(tree, g, start, 0.25).ok());
  const double before = ComputeJ(tree, g, start);
  const double gain =
      RefinePartition(tree, g, bound, /*sweeps=*/0, /*passes=*/8, &start);
  EXPECT_NEAR(before - ComputeJ(tree, g, start), gain, 1e-9 * before);
  EXPECT_GT(gain, 0.5 * before);  // a striped start is far from any optimum
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, start, 0.25).ok());
}

TEST(PartitionMap, ThreadsChangeNothing) {
  const Tree tree = MakeTleaf("2 4 10 4 1");
  const CommGraph g = Permute(MakeGrid2D(40, 40), RandomPermutation(1600, 9));
  MappingOptions o;
  const Mapping one = PartitionMap(tree, g, o).value();
  o.threads = 2;
  EXPECT_EQ(PartitionMap(tree, g, o).value(), one);
}

TEST(Map, DispatchesMultisectionScotchAndNTo1) {
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g =
      Permute(MakeCliqueChain(4, 16, 10.0, 1.0), RandomPermutation(64, 5));
  MappingOptions o;
  o.algorithm = Algorithm::kMultisection;
  Mapping ms = Map(tree, g, o).value();
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, ms), 4833.0);
  o.algorithm = Algorithm::kScotch;
  EXPECT_TRUE(ValidateMapping(tree, 64, Map(tree, g, o).value()).ok());
  // 1024 vertices on 16 leaves: n-to-1.
  const Tree small = MakeTleaf("2 4 10 4 1");
  const CommGraph grid = MakeGrid2D(32, 32);
  o.algorithm = Algorithm::kMultisection;
  Mapping p = Map(small, grid, o).value();
  EXPECT_TRUE(ValidatePartitionMapping(small, grid, p, o.imbalance).ok());
}

}  // namespace
}  // namespace rankmap::core
