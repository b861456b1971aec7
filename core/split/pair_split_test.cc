#include "core/split/pair_split.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

// A path of 24 processes (unit weights), shuffled, onto three children of
// 8 (A), 12 (B) and 4 (C) slots; A-B and A-C cost 1, B-C costs 100. The only
// cheap arrangement is the chain B - A - C: two cut edges at cost 1, a cross
// cost of 2 * (1 + 1) = 4 (edges counted both ways); any arrangement with B
// next to C pays 200 or more.
TEST(PairCostSplitTest, FindsTheChainThatKeepsTheExpensivePairApart) {
  const graphs::CommGraph path = testing::Permute(
      testing::MakeGrid2D(1, 24), testing::RandomPermutation(24, 5));
  const std::vector<double> cost = {0, 1, 1, 1, 0, 100, 1, 100, 0};
  PartTargets t;
  t.size = {8, 12, 4};
  std::vector<int32_t> part;
  ASSERT_TRUE(PairCostSplit(
                  path, t, cost,
                  [](int32_t, int32_t) {
                    return MetisAttempts{4, 0, 1};
                  },
                  3, &part)
                  .ok());
  std::vector<int64_t> n(3, 0);
  for (int32_t p : part) ++n[p];
  EXPECT_EQ(n, (std::vector<int64_t>{8, 12, 4}));
  const MetisGraph g = ToMetisGraph(path, false);
  EXPECT_DOUBLE_EQ(CrossCost(g, part, cost), 4.0);
}

TEST(CrossCostTest, HandComputed) {
  // Triangle 0-1 (w 2), 1-2 (w 3), 0-2 (w 5); parts {0}, {1, 2}; cost(0,1)=7.
  graphs::CommGraphBuilder b(3);
  ASSERT_TRUE(b.AddEdge(0, 1, 2).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 3).ok());
  ASSERT_TRUE(b.AddEdge(0, 2, 5).ok());
  const MetisGraph g = ToMetisGraph(std::move(b).Build().value(), false);
  EXPECT_DOUBLE_EQ(CrossCost(g, {0, 1, 1}, std::vector<double>{0, 7, 7, 0}),
                   2 * (2 + 5) * 7.0);
}

TEST(AssignEqualPartsTest, SwapsPartsOfEqualCapacityOntoTheCheapPair) {
  // A path 0-1 | 2-3 | 4-5 split into three parts of 2 (edges 1-2 and 3-4
  // cut, w 1); the middle part is part 0. Children 0 and 2 are cheap to child
  // 1 (cost 1) and expensive to each other (100), so the middle part belongs
  // on child 1: sigma must move it there.
  graphs::CommGraphBuilder b(6);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(b.AddEdge(i, i + 1, 1).ok());
  const MetisGraph g = ToMetisGraph(std::move(b).Build().value(), false);
  const std::vector<int32_t> part = {1, 1, 0, 0, 2, 2};  // middle is part 0
  const std::vector<double> cost = {0, 1, 100, 1, 0, 1, 100, 1, 0};
  PartTargets t;
  t.size = {2, 2, 2};
  const std::vector<int64_t> capacity = {2, 2, 2};
  std::vector<int32_t> sigma = {0, 1, 2};
  AssignEqualParts(g, part, t, capacity, cost, &sigma);
  // Part 0 (the middle) now goes to child 1.
  EXPECT_EQ(sigma[0], 1);
  std::vector<int32_t> placed(6);
  for (int i = 0; i < 6; ++i) placed[i] = sigma[part[i]];
  EXPECT_DOUBLE_EQ(CrossCost(g, placed, cost), 2 * (1 + 1) * 1.0);
}

}  // namespace
}  // namespace rankmap::core
