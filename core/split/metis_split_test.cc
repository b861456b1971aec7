#include "core/split/metis_split.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;

TEST(ToMetisGraphTest, KeepsPositiveArcsInOrderAndVertexWeightsWhenAsked) {
  graphs::CommGraphBuilder b(3);
  ASSERT_TRUE(b.AddEdge(0, 1, 2.0).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 0.0).ok());
  ASSERT_TRUE(b.AddEdge(0, 2, 4.0).ok());
  ASSERT_TRUE(b.SetVertexWeight(2, 3.0).ok());
  const CommGraph g = std::move(b).Build().value();
  const MetisGraph unit = ToMetisGraph(g, /*vertex_weights=*/false);
  EXPECT_EQ(unit.xadj, (std::vector<int32_t>{0, 2, 3, 4}));
  EXPECT_EQ(unit.adjncy, (std::vector<int32_t>{1, 2, 0, 0}));
  EXPECT_EQ(unit.arc_weight, (std::vector<double>{2, 4, 2, 4}));
  // Largest weight 4 -> 2^20.
  EXPECT_EQ(unit.metis_arc_weight,
            (std::vector<int32_t>{1 << 19, 1 << 20, 1 << 19, 1 << 20}));
  EXPECT_EQ(unit.vertex_weight, (std::vector<double>{1, 1, 1}));
  EXPECT_TRUE(unit.metis_vertex_weight.empty());
  const MetisGraph weighted = ToMetisGraph(g, /*vertex_weights=*/true);
  EXPECT_EQ(weighted.vertex_weight, (std::vector<double>{1, 1, 3}));
  EXPECT_EQ(weighted.metis_vertex_weight, (std::vector<int32_t>{1, 1, 3}));
  // Cut: each cut edge counts in both directions.
  EXPECT_DOUBLE_EQ(unit.Cut(std::vector<int32_t>{0, 0, 1}), 2 * 4.0);
}

TEST(SplitAttemptsTest, ThePolicyAsDocumented) {
  // One-to-one: 8 root cuts up to 2048 processes, 4 above; 1 below the root;
  // recursive bisection only.
  MetisAttempts a = SplitAttempts(false, true, 100, 1000, 4, 1);
  EXPECT_EQ(a.ncuts, 8);
  EXPECT_EQ(a.first_method, 0);
  EXPECT_EQ(a.last_method, 1);
  EXPECT_EQ(SplitAttempts(false, true, 100, 4096, 4, 1).ncuts, 4);
  EXPECT_EQ(SplitAttempts(false, false, 100, 1000, 4, 1).ncuts, 1);
  // Effort 2 doubles the attempts and adds k-way.
  a = SplitAttempts(false, false, 100, 1000, 4, 2);
  EXPECT_EQ(a.ncuts, 2);
  EXPECT_EQ(a.last_method, 2);
  // n-to-1: two attempts below the root, 8 at the root, both methods.
  a = SplitAttempts(true, false, 100, 1000, 4, 1);
  EXPECT_EQ(a.ncuts, 2);
  EXPECT_EQ(a.last_method, 2);
  EXPECT_EQ(SplitAttempts(true, true, 100, 100000, 4, 1).ncuts, 8);
  // Huge: one attempt, one method (k-way above 8 parts).
  a = SplitAttempts(false, true, 300000, 1000000, 16, 2);
  EXPECT_EQ(a.ncuts, 1);
  EXPECT_EQ(a.first_method, 1);
  EXPECT_EQ(a.last_method, 2);
  a = SplitAttempts(false, true, 300000, 1000000, 4, 1);
  EXPECT_EQ(a.first_method, 0);
  EXPECT_EQ(a.last_method, 1);
}

TEST(MetisPartitionTest, TwoCliquesSplitAtTheirBridge) {
  // Two 8-cliques (weight 10) joined by one edge of weight 1, shuffled: an
  // even bisection cuts only the bridge.
  const CommGraph g = testing::Permute(testing::MakeCliqueChain(2, 8, 10, 1),
                                       testing::RandomPermutation(16, 4));
  const MetisGraph m = ToMetisGraph(g, false);
  for (MetisMethod method : {MetisMethod::kRecursive, MetisMethod::kKway}) {
    std::vector<int32_t> part;
    ASSERT_TRUE(
        MetisPartition(m, std::vector<double>{8, 8}, 1.001, method, 4, 7, &part)
            .ok());
    ASSERT_EQ(part.size(), 16u);
    int32_t zeros = 0;
    for (int32_t p : part) zeros += p == 0;
    EXPECT_EQ(zeros, 8);
    EXPECT_DOUBLE_EQ(m.Cut(part), 2.0);
    // Same seed, same split.
    std::vector<int32_t> again;
    ASSERT_TRUE(MetisPartition(m, std::vector<double>{8, 8}, 1.001, method, 4,
                               7, &again)
                    .ok());
    EXPECT_EQ(again, part);
  }
}

}  // namespace
}  // namespace rankmap::core
