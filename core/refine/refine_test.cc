#include "core/refine/refine.h"

#include <numeric>

#include "core/baselines/baselines.h"
#include "core/model/mapping.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using topology::Tree;

TEST(RefineTest, NeverRaisesJAndKeepsValidity) {
  const Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  const CommGraph g = testing::MakeGrid2D(8, 8);
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Mapping m = RandomMap(t, 64, seed);
    const double before = ComputeJ(t, g, m);
    RefineMapping(t, g, 8, &m);
    ASSERT_TRUE(ValidateMapping(t, 64, m).ok());
    const double after = ComputeJ(t, g, m);
    EXPECT_LE(after, before);
    // Swaps near heavy neighbours recover much of a random placement's loss.
    EXPECT_LT(after, 0.6 * before);
  }
}

TEST(RefineTest, UsesFreeLeavesAndCapacities) {
  // Two nodes of four cores; capacity two per core; three processes talking
  // only to each other start spread over both nodes and must end up in one.
  const Tree base = testing::MakeTleaf("2 2 100 4 1");
  const Tree t = *base.WithCapacities(std::vector<int32_t>(8, 2));
  graphs::CommGraphBuilder b(3);
  ASSERT_TRUE(b.AddEdge(0, 1, 10).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 10).ok());
  const CommGraph g = *std::move(b).Build();
  Mapping m = {0, 4, 5};
  RefineMapping(t, g, 8, &m);
  ASSERT_TRUE(ValidateMapping(t, 3, m).ok());
  EXPECT_EQ(m[0] / 4, m[1] / 4);
  EXPECT_EQ(m[1] / 4, m[2] / 4);
  EXPECT_LE(ComputeJ(t, g, m), 20.0);
}

TEST(RefineTest, MultilevelSwapsMoveWholeSubtrees) {
  // Four heavy pairs P0..P3 (1000 inside); P0-P1 and P2-P3 exchange 50 on each
  // cross edge. Start: P0 and P2 share node 0, P1 and P3 share node 1. Moving
  // one process alone would split a heavy pair, so only swapping whole sockets
  // (P2 <-> P1) reaches the optimum.
  const Tree t = testing::MakeTleaf("3 2 100 2 10 2 1");
  graphs::CommGraphBuilder b(8);
  for (int p = 0; p < 4; ++p)
    ASSERT_TRUE(b.AddEdge(2 * p, 2 * p + 1, 1000).ok());
  for (int a : {0, 4}) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 2; j < 4; ++j) ASSERT_TRUE(b.AddEdge(a + i, a + j, 50).ok());
    }
  }
  const CommGraph g = *std::move(b).Build();
  Mapping m = {0, 1, 4, 5, 2, 3, 6, 7};
  EXPECT_DOUBLE_EQ(ComputeJ(t, g, m), 4 * 1000 + 8 * 50 * 111);
  RefineMapping(t, g, 8, &m);
  ASSERT_TRUE(ValidateMapping(t, 8, m).ok());
  EXPECT_DOUBLE_EQ(ComputeJ(t, g, m), 4 * 1000 + 8 * 50 * 11);
}

TEST(RefineTest, Deterministic) {
  const Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  const CommGraph g = testing::MakeRandomGraph(64, 4, 2);
  Mapping a = RandomMap(t, 64, 9), b = a;
  RefineMapping(t, g, 8, &a);
  RefineMapping(t, g, 8, &b);
  EXPECT_EQ(a, b);
  // Zero rounds: nothing moves.
  Mapping c = RandomMap(t, 64, 9), d = c;
  RefineMapping(t, g, 0, &c);
  EXPECT_EQ(c, d);
}

}  // namespace
}  // namespace rankmap::core
