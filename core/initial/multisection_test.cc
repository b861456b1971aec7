#include "core/initial/multisection.h"

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

// The multisection as Map runs it: the strategy, then refinement.
absl::StatusOr<Mapping> Multisection(const Tree& tree, const CommGraph& g,
                                     MappingOptions o) {
  o.algorithm = Algorithm::kMultisection;
  return Map(tree, g, o);
}

TEST(MultisectionMap, HiddenCliquesLandOnNodes) {
  // 4 cliques of 16 (weight 10, 120 edges each) joined in a chain by 3 light
  // edges, shuffled, on 4 nodes x 16 cores (distances 1 inside a node, 11
  // across). Optimum: one clique per node, J = 4 * 120 * 10 * 1 + 3 * 1 * 11 =
  // 4833.
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g =
      Permute(MakeCliqueChain(4, 16, 10.0, 1.0), RandomPermutation(64, 5));
  MultisectionOptions o;
  absl::StatusOr<Mapping> m = MultisectionMap(tree, g, o, /*seed=*/1);
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
  MultisectionOptions o;
  Mapping m = MultisectionMap(tree, g, o, /*seed=*/1).value();
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
  EXPECT_EQ(Multisection(tree, g, o).value(), Multisection(tree, g, o).value());
}

TEST(MultisectionMap, FewProcessesArePackedIntoOneNode) {
  // 16 processes of one clique on a 64-slot tree: all inside one 16-core node,
  // J = 120 * 1.
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g = MakeCliqueChain(1, 16, 1.0, 0.0);
  Mapping m = Multisection(tree, g, MappingOptions{}).value();
  ASSERT_TRUE(ValidateMapping(tree, 16, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 120.0);
}

TEST(MultisectionMap, UnbalancedTreeWithRestrictedLeaves) {
  // tests/factories.h describes the instance: the 6-clique fits only node A.
  const auto [tree, g] = testing::MakeRestrictedTwoNodeCase();
  Mapping m = Multisection(tree, g, MappingOptions{}).value();
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
  Mapping m = Multisection(tree, g, MappingOptions{}).value();
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
  Mapping m = Multisection(tree, g, MappingOptions{}).value();
  ASSERT_TRUE(ValidateMapping(tree, 12, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 440.0);
}

TEST(MultisectionMap, EdgelessGraphStillMaps) {
  const Tree tree = MakeTleaf("2 2 10 3 1");
  CommGraphBuilder gb(5);
  const CommGraph g = std::move(gb).Build().value();
  Mapping m = Multisection(tree, g, MappingOptions{}).value();
  EXPECT_TRUE(ValidateMapping(tree, 5, m).ok());
}

TEST(MultisectionFrom, FromTheRootItIsTheMultisection) {
  const Tree tree = MakeTleaf("3 4 100 2 10 8 1");
  const CommGraph g = Permute(MakeGrid2D(8, 8), RandomPermutation(64, 5));
  const std::vector<NodeId> root(64, tree.root());
  EXPECT_EQ(MultisectionFrom(tree, g, {}, 3, -1.0, root).value(),
            MultisectionMap(tree, g, {}, 3).value());
  const CommGraph big = Permute(MakeGrid2D(16, 20), RandomPermutation(320, 5));
  const std::vector<NodeId> all(320, tree.root());
  EXPECT_EQ(MultisectionFrom(tree, big, {}, 3, 0.03, all).value(),
            MultisectionPartition(tree, big, {}, 3, 0.03, false).value());
}

TEST(MultisectionFrom, VerticesStayBelowTheirStart) {
  // Half the grid starts at each child of the root.
  const Tree tree = MakeTleaf("3 2 100 4 10 8 1");
  const CommGraph g = MakeGrid2D(8, 8);
  const auto kids = tree.children(tree.root());
  std::vector<NodeId> start(64);
  for (int32_t v = 0; v < 64; ++v) start[v] = kids[v < 32 ? 0 : 1];
  const Mapping m = MultisectionFrom(tree, g, {}, 1, -1.0, start).value();
  ASSERT_TRUE(ValidateMapping(tree, 64, m).ok());
  for (int32_t v = 0; v < 64; ++v) {
    EXPECT_GE(m[v], tree.leaf_begin(start[v]));
    EXPECT_LT(m[v], tree.leaf_end(start[v]));
  }
  // Rows 0-3 and 4-7 start apart: exactly the 8 edges between rows 3 and 4
  // cross the root (cost 111).
  int32_t across = 0;
  for (int32_t v = 0; v < 64; ++v) {
    for (int32_t u : g.neighbors(v))
      across += u > v && tree.Distance(m[u], m[v]) == 111.0;
  }
  EXPECT_EQ(across, 8);
}

TEST(MultisectionFrom, RejectsStartsItCannotSplit) {
  const Tree tree = MakeTleaf("2 2 10 2 1");
  const CommGraph g = MakeGrid2D(2, 2);
  const NodeId left = tree.children(tree.root())[0];
  // One start below another.
  EXPECT_FALSE(
      MultisectionFrom(tree, g, {}, 1, -1.0,
                       std::vector<NodeId>{tree.root(), left, left, left})
          .ok());
  // Three processes on a node of two slots (exact sizes).
  const NodeId right = tree.children(tree.root())[1];
  absl::StatusOr<Mapping> m = MultisectionFrom(
      tree, g, {}, 1, -1.0, std::vector<NodeId>{left, left, left, right});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("capacity 2"), std::string::npos)
      << m.status();
  EXPECT_FALSE(
      MultisectionFrom(tree, g, {}, 1, -1.0, std::vector<NodeId>{0, 1, 2})
          .ok());
}

}  // namespace
}  // namespace rankmap::core
