#include "tiling/platform_arrangement.h"

#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::rankmap::base::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A 4 x 4 grid in two columns of width 2, two rectangles of height 2 each:
// processors 0 (top) and 1 in the left column, 2 (top) and 3 in the right.
Partition TwoByTwo() {
  Partition p;
  p.rows = p.cols = 4;
  p.num_owners = 4;
  p.rects = {
      {0, 0, 2, 2, 0}, {2, 0, 2, 2, 1}, {0, 2, 2, 2, 2}, {2, 2, 2, 2, 3}};
  return p;
}

// Clusters 0, 1 | 1, 0: both bands and both columns cross clusters.
ArrangementPlatform Crossed() {
  ArrangementPlatform platform;
  platform.clusters = {0, 1, 1, 0};
  platform.num_clusters = 2;
  return platform;
}

TEST(ArrangeOnPlatformTest, ClustersAloneRunAlgorithm1UnderHops) {
  absl::StatusOr<PlatformArrangement> a =
      ArrangeOnPlatform(TwoByTwo(), Crossed(), std::nullopt);
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(a->algorithm, ArrangeAlgorithm::kHopGreedy);
  EXPECT_TRUE(a->by_hops);
  // Before: each band and each column is a ring of two clusters, 1 hop, times
  // its height or width 2: A = 2 + 2, B = 2 + 2.
  EXPECT_DOUBLE_EQ(a->hop_before.a, 4);
  EXPECT_DOUBLE_EQ(a->hop_before.b, 4);
  // Algorithm 1 puts processor 3 (cluster 0) on top of the right column:
  // bands of one cluster each, A = 0; the columns still cross, B = 4. Two
  // orders of the right column, then two column orders.
  EXPECT_DOUBLE_EQ(a->hop_after.a, 0);
  EXPECT_DOUBLE_EQ(a->hop_after.b, 4);
  EXPECT_EQ(a->evaluations, 4);
  EXPECT_THAT(a->order, ElementsAre(0, 1, 3, 2));
  EXPECT_FALSE(a->bandwidth_before.has_value());
  EXPECT_EQ(a->partition.rects.size(), 4u);
}

TEST(ArrangeOnPlatformTest, ABandwidthMatrixRunsAlgorithm2UnderBandwidth) {
  ArrangementPlatform platform = Crossed();
  // 10 inside a cluster, 1 between: a crossing link costs 1, an inner 0.1.
  platform.bandwidth = {10, 1, 1, 10};
  absl::StatusOr<PlatformArrangement> a =
      ArrangeOnPlatform(TwoByTwo(), platform, std::nullopt);
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(a->algorithm, ArrangeAlgorithm::kBandwidthGreedy);
  EXPECT_FALSE(a->by_hops);
  ASSERT_TRUE(a->bandwidth_before.has_value());
  // Before: every ring of two is two crossing links (there and back): bands
  // 2 x 2 height, columns 2 x 2 width, 4 rings of cost 2 x 2 = 16.
  EXPECT_DOUBLE_EQ(a->bandwidth_before->combined, 16);
  // After: bands inside a cluster (2 x 0.1 x 2 each), columns crossing: 0.8 +
  // 8.
  EXPECT_DOUBLE_EQ(a->bandwidth_after->combined, 8.8);
  EXPECT_THAT(a->order, ElementsAre(0, 1, 3, 2));
}

TEST(ArrangeOnPlatformTest, ExhaustiveTakesTheCostThePlatformHas) {
  absl::StatusOr<PlatformArrangement> hops =
      ArrangeOnPlatform(TwoByTwo(), Crossed(), ArrangeAlgorithm::kExhaustive);
  ASSERT_THAT(hops, IsOk());
  EXPECT_TRUE(hops->by_hops);
  EXPECT_DOUBLE_EQ(hops->hop_after.a, 0);
  ArrangementPlatform platform = Crossed();
  platform.bandwidth = {10, 1, 1, 10};
  absl::StatusOr<PlatformArrangement> bw =
      ArrangeOnPlatform(TwoByTwo(), platform, ArrangeAlgorithm::kExhaustive);
  ASSERT_THAT(bw, IsOk());
  EXPECT_FALSE(bw->by_hops);
  EXPECT_DOUBLE_EQ(bw->bandwidth_after->combined, 8.8);
}

TEST(ArrangeOnPlatformTest, Errors) {
  EXPECT_THAT(ArrangeOnPlatform(TwoByTwo(), Crossed(),
                                ArrangeAlgorithm::kBandwidthGreedy),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("needs a cluster-pair bandwidth matrix")));
  ArrangementPlatform short_list = Crossed();
  short_list.clusters.pop_back();
  EXPECT_THAT(ArrangeOnPlatform(TwoByTwo(), short_list, std::nullopt),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace rankmap::tiling
