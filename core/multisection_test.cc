#include "core/multisection.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/mapper.h"
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

TEST(ScaleToMetisWeights, KeepsRatiosAndCapsTheLargest) {
  std::vector<int32_t> w = ScaleToMetisWeights({1.0, 2.0, 0.5, 0.0});
  // scale = min(2^20 / 2, (2^30 - 4) / 3.5) = 2^19
  EXPECT_EQ(w, (std::vector<int32_t>{524288, 1048576, 262144, 0}));
}

TEST(ScaleToMetisWeights, SumStaysBelowTwoToTheThirty) {
  std::vector<double> big(4096, 1e300);
  big.push_back(1e-300);  // tiny positive weights stay positive
  std::vector<int32_t> w = ScaleToMetisWeights(big);
  int64_t sum = 0;
  for (int32_t x : w) sum += x;
  EXPECT_LT(sum, int64_t{1} << 30);
  // scale = (2^30 - 4097) / (4096 * 1e300): each big weight becomes 262142.9998
  // -> 262143.
  EXPECT_EQ(w[0], 262143);
  EXPECT_EQ(w[4095], 262143);
  EXPECT_EQ(w[4096], 1);
}

TEST(MultisectionMap, HiddenCliquesLandOnNodes) {
  // 4 cliques of 16 (weight 10, 120 edges each) joined in a chain by 3 light
  // edges, shuffled, on 4 nodes x 16 cores (distances 1 inside a node, 11
  // across). Optimum: one clique per node, J = 4 * 120 * 10 * 1 + 3 * 1 * 11 =
  // 4833.
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g =
      Permute(MakeCliqueChain(4, 16, 10.0, 1.0), RandomPermutation(64, 5));
  MappingOptions o;
  o.refine = false;
  absl::StatusOr<Mapping> m = MultisectionMap(tree, g, o);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(ValidateMapping(tree, 64, *m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, *m), 4833.0);
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, *m), 4833.0);
}

TEST(MultisectionMap, ShuffledGridIsTiled) {
  // 8x8 grid (112 unit edges) on 4 nodes x 2 sockets x 8 cores, distances
  // 1/11/111. J = 112 + 110 * c1 + 10 * c2 with c1 edges cut between nodes, c2
  // between sockets. A 4x4 quadrant per node (c1 = 16, the least) halved per
  // socket (c2 = 4 * 4) gives 2032, the optimum; anything that cuts more at the
  // top costs at least 110 more.
  const Tree tree = MakeTleaf("3 4 100 2 10 8 1");
  const CommGraph g = Permute(MakeGrid2D(8, 8), RandomPermutation(64, 9));
  MappingOptions o;
  o.refine = false;
  Mapping m = MultisectionMap(tree, g, o).value();
  ASSERT_TRUE(ValidateMapping(tree, 64, m).ok());
  const double j = PairwiseJ(tree, g, m);
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, m), j);
  EXPECT_GE(j, 2032.0);
  EXPECT_LT(j, 2032.0 + 111.0);
  // Identity on the shuffled graph is far worse.
  Mapping id(64);
  for (int32_t i = 0; i < 64; ++i) id[i] = i;
  EXPECT_GT(PairwiseJ(tree, g, id), 3 * j);
}

TEST(MultisectionMap, SameSeedSameMapping) {
  const Tree tree = MakeTleaf("3 4 100 4 10 4 1");
  const CommGraph g = testing::MakeRandomGraph(60, 4, 3);
  MappingOptions o;
  o.seed = 17;
  EXPECT_EQ(MultisectionMap(tree, g, o).value(),
            MultisectionMap(tree, g, o).value());
}

TEST(MultisectionMap, FewProcessesArePackedIntoOneNode) {
  // 16 processes of one clique on a 64-slot tree: all inside one 16-core node,
  // J = 120 * 1.
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g = MakeCliqueChain(1, 16, 1.0, 0.0);
  Mapping m = MultisectionMap(tree, g, MappingOptions{}).value();
  ASSERT_TRUE(ValidateMapping(tree, 16, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 120.0);
}

TEST(MultisectionMap, UnbalancedTreeWithRestrictedLeaves) {
  // tests/factories.h describes the instance: the 6-clique fits only node A.
  const auto [tree, g] = testing::MakeRestrictedTwoNodeCase();
  Mapping m = MultisectionMap(tree, g, MappingOptions{}).value();
  ASSERT_TRUE(ValidateMapping(tree, 8, m).ok());
  for (LeafId l : m) EXPECT_GT(tree.capacity(l), 0);
  // 15 * 5 * 1 + 1 * 5 * 1 + 1 * 1 * 100
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 180.0);
}

TEST(MultisectionMap, OversubscribedLeavesTakeHeavyPairs) {
  // 4 leaves of capacity 2 (tleaf 2 2 10 2 1: distances 1 and 11); 4 heavy
  // pairs (w = 50) in a light ring (w = 1). Each pair shares a leaf (distance
  // 0); the ring costs at least 2 * 1 + 2 * 11 = 24 with pairs ordered around
  // the two sockets.
  const Tree tree =
      MakeTleaf("2 2 10 2 1").WithCapacities({2, 2, 2, 2}).value();
  const CommGraph g =
      Permute(testing::MakePairRing(4, 50, 1), RandomPermutation(8, 4));
  Mapping m = MultisectionMap(tree, g, MappingOptions{}).value();
  ASSERT_TRUE(ValidateMapping(tree, 8, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 24.0);
}

TEST(MultisectionMap, PairCostsChooseTheCheapClusterPair) {
  // Three clusters of 4 cores; cluster pair costs 0-1: 10, 0-2 and 1-2: 1000;
  // cores inside a cluster at 1. Groups X, Y, Z of 4 (intra weight 20); X-Y
  // exchange 8 (one edge), Z talks to nobody. X and Y must sit on clusters 0
  // and 1: J = 3 * 6 * 20 + 8 * 10 = 440.
  TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  for (int c = 0; c < 3; ++c) {
    const NodeId cl = b.AddChild(root, "cluster", 1);
    for (int i = 0; i < 4; ++i) b.AddChild(cl, "core");
  }
  b.SetPairCosts(root, {0, 10, 1000, 10, 0, 1000, 1000, 1000, 0});
  const Tree tree = std::move(b).Build().value();
  CommGraphBuilder gb(12);
  // Z is group 0 so that the unpermuted order would put it on the cheap pair.
  for (int grp = 0; grp < 3; ++grp) {
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j)
        ASSERT_TRUE(gb.AddEdge(grp * 4 + i, grp * 4 + j, 20).ok());
    }
  }
  ASSERT_TRUE(gb.AddEdge(4, 8, 8).ok());
  const CommGraph g = std::move(gb).Build().value();
  Mapping m = MultisectionMap(tree, g, MappingOptions{}).value();
  ASSERT_TRUE(ValidateMapping(tree, 12, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 440.0);
}

TEST(MultisectionMap, TooManyProcessesIsAnError) {
  const Tree tree = MakeTleaf("1 4 1");
  const CommGraph g = MakeGrid2D(1, 5);
  absl::StatusOr<Mapping> m = MultisectionMap(tree, g, MappingOptions{});
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MultisectionMap, EdgelessGraphStillMaps) {
  const Tree tree = MakeTleaf("2 2 10 3 1");
  CommGraphBuilder gb(5);
  const CommGraph g = std::move(gb).Build().value();
  Mapping m = MultisectionMap(tree, g, MappingOptions{}).value();
  EXPECT_TRUE(ValidateMapping(tree, 5, m).ok());
}

TEST(PartitionLoadBounds, ShareTimesImbalanceOrCeiling) {
  const Tree tree = MakeTleaf("1 4 1").WithCapacities({1, 1, 2, 0}).value();
  const CommGraph g = MakeGrid2D(10, 10);  // W = 100, C = 4
  std::vector<double> b = PartitionLoadBounds(tree, g, 0.03);
  EXPECT_DOUBLE_EQ(b[0], 25.75);
  EXPECT_DOUBLE_EQ(b[1], 25.75);
  EXPECT_DOUBLE_EQ(b[2], 51.5);
  EXPECT_DOUBLE_EQ(b[3], 0.0);
  // 6 vertices on 4 leaves: share 1.5, (1.03 * 1.5) < ceil(1.5) = 2.
  EXPECT_DOUBLE_EQ(
      PartitionLoadBounds(MakeTleaf("1 4 1"), MakeGrid2D(2, 3), 0.03)[0], 2.0);
}

TEST(ValidatePartitionMapping, ReportsTheOverloadedLeaf) {
  const Tree tree = MakeTleaf("1 2 1");
  const CommGraph g = MakeGrid2D(2, 5);  // W = 10, bound 5.15 per leaf
  Mapping ok = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, ok, 0.03).ok());
  Mapping bad = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
  absl::Status s = ValidatePartitionMapping(tree, g, bad, 0.03);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("leaf 0 carries vertex weight 6"),
            std::string::npos)
      << s;
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, bad, 0.2).ok());
  Mapping out = ok;
  out[3] = 2;
  EXPECT_EQ(ValidatePartitionMapping(tree, g, out, 0.03).code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(ValidatePartitionMapping(tree, g, ok, -1.0).ok());
  EXPECT_FALSE(ValidatePartitionMapping(tree, g, Mapping(3, 0), 0.03).ok());
}

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

// Leaf 0 = {p, q, y} is full (bound 3), leaf 1 = {x, z}. x talks to p and q
// (10 each); p-q 5, y-p 2, x-z 1. Greedy moves stop at J = 17 (q and x on leaf
// 1 with z, nothing else fits); FM moves y out at a loss first and then x in,
// reaching the optimum J = 3 (leaf 0 = {p, q, x}, leaf 1 = {y, z}).
TEST(FmRefinePartition, EscapesTheGreedyLocalMinimum) {
  const Tree tree = MakeTleaf("1 2 1");
  enum : int32_t { p, q, y, x, z };
  CommGraphBuilder b(5);
  ASSERT_TRUE(b.AddEdge(x, p, 10).ok());
  ASSERT_TRUE(b.AddEdge(x, q, 10).ok());
  ASSERT_TRUE(b.AddEdge(p, q, 5).ok());
  ASSERT_TRUE(b.AddEdge(y, p, 2).ok());
  ASSERT_TRUE(b.AddEdge(x, z, 1).ok());
  const CommGraph g = std::move(b).Build().value();
  const std::vector<double> bound = {3.0, 3.0};
  Mapping m = {0, 0, 0, 1, 1};
  ASSERT_DOUBLE_EQ(ComputeJ(tree, g, m), 20.0);
  Mapping greedy = m;
  RefinePartition(tree, g, bound, 10, &greedy);
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
  const double gain = FmRefinePartition(tree, g, bound, 4, &greedy);
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, greedy), 3.0);
  EXPECT_DOUBLE_EQ(gain, 14.0);
}

TEST(FmRefinePartition, MalformedInputLeavesTheMappingAlone) {
  const Tree tree = MakeTleaf("2 2 10 4 1");
  const CommGraph g = MakeGrid2D(8, 8);
  const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.25);
  Mapping short_map(10, 0), bad_leaf(64, 0);
  bad_leaf[5] = 99;
  EXPECT_EQ(FmRefinePartition(tree, g, bound, 4, &short_map), 0.0);
  EXPECT_EQ(short_map, Mapping(10, 0));
  EXPECT_EQ(FmRefinePartition(tree, g, bound, 4, &bad_leaf), 0.0);
  EXPECT_EQ(bad_leaf[5], 99);
  Mapping m(64);
  for (int32_t v = 0; v < 64; ++v) m[v] = v % 8;
  const Mapping before = m;
  EXPECT_EQ(FmRefinePartition(tree, g, {1.0, 2.0}, 4, &m), 0.0);
  EXPECT_EQ(RefinePartition(tree, g, {1.0, 2.0}, 4, &m), 0.0);
  EXPECT_EQ(RefinePartition(tree, g, bound, 4, &bad_leaf), 0.0);
  EXPECT_EQ(m, before);
}

TEST(FmRefinePartition, NeverRaisesJKeepsBoundsAndReportsItsGain) {
  const Tree tree = MakeTleaf("2 2 10 4 1");
  for (uint64_t seed : {3, 4, 5}) {
    for (const CommGraph& g :
         {testing::MakeRandomGraph(400, 4, seed), MakeGrid2D(20, 20)}) {
      const int32_t n = g.num_vertices();
      const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.03);
      Mapping m(n);
      for (int32_t v = 0; v < n; ++v) m[v] = v % 8;
      RefinePartition(tree, g, bound, 20, &m);
      const double before = ComputeJ(tree, g, m);
      const double gain = FmRefinePartition(tree, g, bound, 8, &m);
      const double after = ComputeJ(tree, g, m);
      EXPECT_GE(gain, 0.0);
      EXPECT_NEAR(before - after, gain, 1e-9 * before);
      EXPECT_TRUE(ValidatePartitionMapping(tree, g, m, 0.03).ok());
      // The greedy moves had converged; FM still finds a better placement.
      EXPECT_LT(after, before);
    }
  }
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
  const double gain = FmRefinePartition(tree, g, bound, 8, &start);
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
