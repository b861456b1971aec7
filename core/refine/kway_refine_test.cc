#include "core/refine/kway_refine.h"

#include <vector>

#include "core/split/pair_split.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

TEST(KwayRefineTest, MovesTheBoundaryOntoTheCheapPairAndReportsItsGain) {
  // Path 0..11 (unit weights) split as {0..3} {4..7} {8..11} onto children
  // A, B, C; cost A-B 1, B-C 1, A-C 50. Start: A gets 0..3, C gets 4..7 and
  // B gets 8..11, so the path crosses A-C (50) and C-B (1). Capacities 4 each:
  // only swaps keep them; the optimum puts B in the middle: 1 + 1 = 2.
  graphs::CommGraphBuilder b(12);
  for (int i = 0; i < 11; ++i) ASSERT_TRUE(b.AddEdge(i, i + 1, 1).ok());
  const MetisGraph g = ToMetisGraph(std::move(b).Build().value(), false);
  const std::vector<double> cost = {0, 1, 50, 1, 0, 1, 50, 1, 0};
  std::vector<int32_t> part = {0, 0, 0, 0, 2, 2, 2, 2, 1, 1, 1, 1};
  const double before = CrossCost(g, part, cost) / 2;
  ASSERT_DOUBLE_EQ(before, 51.0);
  const double gain =
      KwayRefine(g, cost, std::vector<double>{4, 4, 4}, true, 8, &part);
  const double after = CrossCost(g, part, cost) / 2;
  EXPECT_DOUBLE_EQ(before - after, gain);
  EXPECT_DOUBLE_EQ(after, 2.0);
  std::vector<int32_t> n(3, 0);
  for (int32_t p : part) ++n[p];
  EXPECT_EQ(n, (std::vector<int32_t>{4, 4, 4}));
}

TEST(KwayRefineTest, NeverRaisesTheCostAndKeepsCapacities) {
  for (uint64_t seed : {1, 2, 3}) {
    const MetisGraph g =
        ToMetisGraph(testing::MakeRandomGraph(60, 4, seed), false);
    const std::vector<double> cost = {0, 3, 9, 2, 3, 0, 4, 7,
                                      9, 4, 0, 1, 2, 7, 1, 0};
    std::vector<int32_t> part(60);
    for (int32_t i = 0; i < 60; ++i) part[i] = i % 4;
    const double before = CrossCost(g, part, cost) / 2;
    const double gain = KwayRefine(g, cost, std::vector<double>{15, 15, 15, 15},
                                   true, 4, &part);
    const double after = CrossCost(g, part, cost) / 2;
    EXPECT_NEAR(before - after, gain, 1e-9 * before);
    EXPECT_GE(gain, 0.0);
    std::vector<int32_t> n(4, 0);
    for (int32_t p : part) ++n[p];
    EXPECT_EQ(n, (std::vector<int32_t>{15, 15, 15, 15}));
  }
}

}  // namespace
}  // namespace rankmap::core
