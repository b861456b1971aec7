#include "core/refine/placement.h"

#include <vector>

#include "core/baselines/baselines.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using topology::Tree;

TEST(PlacementTest, GainsEqualTheChangeOfJ) {
  const Tree t = testing::MakeTleaf("3 2 100 2 10 4 1");
  const CommGraph g = testing::MakeRandomGraph(12, 3, 4);  // 16 leaves: 4 free
  Mapping m = RandomMap(t, 12, 5);
  Placement place(t, g, &m);
  for (graphs::VertexId u = 0; u < 12; ++u) {
    for (graphs::VertexId v = 0; v < 12; ++v) {
      Mapping s = m;
      std::swap(s[u], s[v]);
      EXPECT_NEAR(place.SwapGain(u, v), ComputeJ(t, g, m) - ComputeJ(t, g, s),
                  1e-6);
    }
    for (LeafId l = 0; l < 16; ++l) {
      if (!place.HasRoom(l)) continue;
      Mapping s = m;
      s[u] = l;
      EXPECT_NEAR(place.MoveGain(u, l), ComputeJ(t, g, m) - ComputeJ(t, g, s),
                  1e-6);
    }
  }
  // Swap and Move keep the occupancy consistent with the mapping.
  place.Swap(0, 1);
  const LeafId free_leaf = [&] {
    for (LeafId l = 0; l < 16; ++l) {
      if (place.HasRoom(l)) return l;
    }
    return -1;
  }();
  place.Move(2, free_leaf);
  EXPECT_TRUE(ValidateMapping(t, 12, m).ok());
  for (LeafId l = 0; l < 16; ++l) {
    for (graphs::VertexId v : place.Occupants(l)) EXPECT_EQ(m[v], l);
  }
}

TEST(PlacementTest, GainsFromGatheredNeighbourLeavesAreBitForBitEqual) {
  // Two trees: one with O(1) keyed distances, one (irregular arities) without.
  for (const char* levels : {"3 2 100 2 10 4 1", "3 3 100 5 10 2 1"}) {
    const Tree t = testing::MakeTleaf(levels);
    const int32_t n = t.num_leaves() - 3;
    const CommGraph g = testing::MakeRandomGraph(n, 4, 7);
    Mapping m = RandomMap(t, n, 8);
    Placement place(t, g, &m);
    std::vector<LeafId> around;
    for (graphs::VertexId u = 0; u < n; ++u) {
      place.NeighbourLeaves(u, &around);
      ASSERT_EQ(around.size(), g.neighbors(u).size());
      for (graphs::VertexId v = 0; v < n; ++v)
        EXPECT_EQ(place.SwapGain(u, v, around), place.SwapGain(u, v));
      for (LeafId l = 0; l < t.num_leaves(); ++l) {
        if (place.HasRoom(l))
          EXPECT_EQ(place.MoveGain(u, l, around), place.MoveGain(u, l));
      }
    }
  }
}

TEST(PlacementTest, HugeCapacitiesKeepPerLeafListsNotSlots) {
  // 4 leaves of a billion slots each: occupancy must not be sized by them.
  const Tree t =
      *testing::MakeTleaf("2 2 10 2 1")
           .WithCapacities({1000000000, 1000000000, 1000000000, 1000000000});
  const CommGraph g = testing::MakeRandomGraph(6, 3, 2);
  Mapping m = {0, 0, 1, 2, 3, 3};
  Placement place(t, g, &m);
  Mapping before = m;
  const double gain = place.MoveGain(4, 0);
  before[4] = 0;
  EXPECT_NEAR(gain, ComputeJ(t, g, m) - ComputeJ(t, g, before), 1e-6);
  place.Move(4, 0);
  place.Swap(0, 5);
  EXPECT_EQ(m, (Mapping{3, 0, 1, 2, 0, 0}));
  EXPECT_EQ(place.Occupants(0).size(), 3u);
  EXPECT_EQ(place.Occupants(3).size(), 1u);
  for (LeafId l = 0; l < 4; ++l) {
    for (graphs::VertexId v : place.Occupants(l)) EXPECT_EQ(m[v], l);
  }
  EXPECT_TRUE(place.HasRoom(0));
}

TEST(LeafCostTest, SumsEdgesToWhereTheNeighboursAre) {
  // Path 0-1-2 (weights 3, 5) on tleaf 2 2 10 2 1 (distance 1 inside a pair,
  // 11 across): 1 on leaf 0, 0 on leaf 1, 2 on leaf 3.
  const Tree t = testing::MakeTleaf("2 2 10 2 1");
  graphs::CommGraphBuilder b(3);
  ASSERT_TRUE(b.AddEdge(0, 1, 3).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 5).ok());
  const CommGraph g = std::move(b).Build().value();
  const Mapping m = {1, 0, 3};
  EXPECT_DOUBLE_EQ(LeafCost(t, g, m, 1, 0), 3 * 1 + 5 * 11);
  EXPECT_DOUBLE_EQ(LeafCost(t, g, m, 1, 2), 3 * 11 + 5 * 1);
  EXPECT_DOUBLE_EQ(LeafCost(t, g, m, 0, 0), 0.0);  // beside its neighbour
}

TEST(LeafLoadsTest, BoundTestAndMoves) {
  const Tree t = testing::MakeTleaf("1 2 1");
  const CommGraph g = testing::MakeGrid2D(1, 5);
  const std::vector<double> bound = {3.0, 2.5};
  const Mapping m = {0, 0, 0, 1, 1};
  LeafLoads loads(t, g, m, bound);
  EXPECT_DOUBLE_EQ(loads.load(0), 3.0);
  EXPECT_FALSE(loads.Over(0));
  EXPECT_FALSE(loads.Fits(0, 1.0));
  EXPECT_FALSE(loads.Fits(1, 1.0));  // 3 > 2.5
  EXPECT_TRUE(loads.Fits(1, 0.5));
  loads.Move(1.0, 0, 1);
  EXPECT_TRUE(loads.Over(1));
  EXPECT_TRUE(loads.Fits(0, 1.0));
  // The shared tolerance: a relative 1e-9 above the bound still fits.
  EXPECT_TRUE(WithinBound(2.5 * (1 + 1e-10), 2.5));
  EXPECT_FALSE(WithinBound(2.5 * (1 + 1e-8), 2.5));
}

TEST(PartitionInputsFitTest, SizesAndLeafIds) {
  const Tree t = testing::MakeTleaf("1 2 1");
  const CommGraph g = testing::MakeGrid2D(1, 3);
  EXPECT_TRUE(PartitionInputsFit(t, g, {2, 2}, {0, 1, 1}));
  EXPECT_FALSE(PartitionInputsFit(t, g, {2, 2}, {0, 1}));
  EXPECT_FALSE(PartitionInputsFit(t, g, {2}, {0, 1, 1}));
  EXPECT_FALSE(PartitionInputsFit(t, g, {2, 2}, {0, 2, 1}));
}

}  // namespace
}  // namespace rankmap::core
