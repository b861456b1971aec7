#include "graphs/frontends/matrix_frontend.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

using tiling::HopNorm;
using tiling::LinkModel;
using tiling::Network;
using tiling::Partition;
using tiling::SpeedFunction;

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(SquareCornerFrontendTest, TwoProcessors) {
  MatrixFrontendOptions o;
  o.speeds = {8, 1};
  o.n = 4500;
  auto r = SquareCornerFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->volumes.Total(), 13'500'000);
  EXPECT_TRUE(Contains(r->report, "partition: square-corner")) << r->report;
  EXPECT_TRUE(Contains(r->report, "TVC 13500000 elements (108000000 bytes)"))
      << r->report;
  EXPECT_DOUBLE_EQ(r->graph.EdgeWeight(0, 1), 108'000'000.0);
  EXPECT_EQ(r->process_speed, (std::vector<double>{8, 1}));
  // Same matrix in 50 x 50 blocks: 90 x 90 grid, square of 30 blocks, same
  // volumes.
  o.block = 50;
  r = SquareCornerFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->partition.rows, 90);
  EXPECT_EQ(r->partition.rects[0].height, 30);
  EXPECT_TRUE(Contains(r->report, "TVC 13500000 elements")) << r->report;
  EXPECT_DOUBLE_EQ(r->graph.EdgeWeight(0, 1), 108'000'000.0);
}

TEST(SquareCornerFrontendTest, HybridFollowsTheLinkModel) {
  MatrixFrontendOptions o;
  o.speeds = {1, 2};  // rho = 2
  o.n = 120;
  auto serial = SquareCornerFrontend(o);
  ASSERT_THAT(serial, IsOk());
  EXPECT_TRUE(Contains(serial->report, "partition: straight-line"));
  EXPECT_EQ(serial->volumes.Total(), 120 * 120);
  o.link = LinkModel::kFullDuplex;
  auto duplex = SquareCornerFrontend(o);
  ASSERT_THAT(duplex, IsOk());
  EXPECT_TRUE(Contains(duplex->report, "partition: square-corner"));
  o.shape = tiling::MatrixShape::kStraightLine;
  EXPECT_TRUE(
      Contains(SquareCornerFrontend(o)->report, "partition: straight-line"));
}

TEST(SquareCornerFrontendTest, ThreeProcessors) {
  MatrixFrontendOptions o;
  o.n = 100;
  o.speeds = {90, 5,
              5};  // SCP 2N^2 (2 sqrt(0.05)) = 8944 < SLP N^2 (1 + 0.1) = 11000
  auto r = SquareCornerFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(Contains(r->report, "partition: square-corner")) << r->report;
  EXPECT_EQ(r->volumes.at(1, 2), 0);
  o.speeds = {60, 20, 20};  // SCP 17889 > SLP 14000
  r = SquareCornerFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(Contains(r->report, "partition: straight-line")) << r->report;
  EXPECT_EQ(r->volumes.Total(), 14000);
  o.speeds = {1, 1, 1};  // infeasible: straight line unless forced
  r = SquareCornerFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(Contains(r->report, "feasible (sqrt(s2) + sqrt(s3) <= 1): no"));
  o.shape = tiling::MatrixShape::kSquareCorner;
  EXPECT_THAT(SquareCornerFrontend(o), Not(IsOk()));
  o.speeds = {1, 2, 3, 4};
  EXPECT_THAT(SquareCornerFrontend(o), Not(IsOk()));
}

TEST(SummaFrontendTest, ColumnBasedWithArrangement) {
  MatrixFrontendOptions o;
  o.speeds = {5, 4, 4, 3, 3, 2, 2, 2, 1, 1};
  o.n = 128 * 64;
  o.block = 64;
  auto plain = SummaFrontend(o);
  ASSERT_THAT(plain, IsOk());
  EXPECT_EQ(plain->graph.num_vertices(), 10);
  EXPECT_TRUE(Contains(plain->report, "sum of half-perimeters"))
      << plain->report;
  std::vector<int32_t> identity(10);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(plain->rank_order, identity);

  o.clusters = {0, 1, 0, 1, 2, 0, 2, 1, 0, 2};
  o.num_clusters = 3;
  o.bandwidth = {900, 50, 250, 50, 900, 70, 250, 70, 6000};
  auto arranged = SummaFrontend(o);
  ASSERT_THAT(arranged, IsOk());
  EXPECT_TRUE(Contains(arranged->report, "Algorithm 2")) << arranged->report;
  std::vector<int32_t> order = arranged->rank_order;
  std::sort(order.begin(), order.end());
  EXPECT_EQ(order, identity);
  // Rearranging keeps every processor's area and the total volume.
  EXPECT_EQ(tiling::OwnerAreas(arranged->partition),
            tiling::OwnerAreas(plain->partition));
  EXPECT_EQ(arranged->volumes.Total(), plain->volumes.Total());

  o.flow = PivotFlow::kOneToAll;
  o.partitioner = SummaPartitioner::kGrid;
  o.clusters.clear();
  o.bandwidth.clear();
  auto grid = SummaFrontend(o);
  ASSERT_THAT(grid, IsOk());
  EXPECT_TRUE(Contains(grid->report, "grid-based"));
  // One-to-all weights are exactly the owner-computes volumes.
  EXPECT_DOUBLE_EQ(grid->graph.TotalVolume(),
                   static_cast<double>(grid->volumes.Total()) * 64 * 64 * 8);
}

// Becker 6.1.1-6.1.2 at 70:15:15 (N = 100, serial links): fully connected,
// the Straight-Line layout moves less (13000 against 15600, eq. 6.10);
// on a star with the fastest at the hub Square-Corner wins (15600 against
// 13000 + the relayed 3000 = 16000, eqs. 6.5 and 6.8); with a slow processor at
// the hub Square-Corner's fast-slow traffic is relayed and it loses again.
TEST(SquareCornerFrontendTest, ThreeProcessorsNetworkAndHub) {
  MatrixFrontendOptions o;
  o.n = 100;
  o.speeds = {70, 15, 15};
  auto fc = SquareCornerFrontend(o);
  ASSERT_THAT(fc, IsOk());
  EXPECT_TRUE(Contains(fc->report, "partition: straight-line")) << fc->report;
  EXPECT_TRUE(Contains(fc->report,
                       "network: fully connected; routed total volume: "
                       "straight-line 13000, square-corner 15600 elements"))
      << fc->report;
  o.network = Network::Kind::kStar;
  auto star = SquareCornerFrontend(o);
  ASSERT_THAT(star, IsOk());
  EXPECT_TRUE(Contains(star->report, "partition: square-corner"))
      << star->report;
  EXPECT_TRUE(Contains(star->report,
                       "network: star, hub processor 0; routed total volume: "
                       "straight-line 16000, square-corner 15600 elements"))
      << star->report;
  o.hub = 1;
  auto slow_hub = SquareCornerFrontend(o);
  ASSERT_THAT(slow_hub, IsOk());
  EXPECT_TRUE(Contains(slow_hub->report, "partition: straight-line"))
      << slow_hub->report;
  EXPECT_TRUE(Contains(slow_hub->report,
                       "straight-line 18000, square-corner "
                       "23400 elements"))
      << slow_hub->report;
  o.hub = 3;
  EXPECT_THAT(SquareCornerFrontend(o), Not(IsOk()));
}

TEST(SummaFrontendTest, HopArrangementWithClustersOnly) {
  MatrixFrontendOptions o;
  o.speeds = {5, 4, 4, 3, 3, 2, 2, 2, 1, 1};
  o.n = 128;
  o.clusters = {0, 1, 0, 1, 2, 0, 2, 1, 0, 2};
  o.num_clusters = 3;
  auto r = SummaFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(Contains(r->report, "hop cost (A + B) after Algorithm 1"))
      << r->report;
  EXPECT_FALSE(Contains(r->report, "bandwidth cost")) << r->report;
  o.hop_norm = HopNorm::kEuclid;
  r = SummaFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(Contains(r->report, "hop cost (sqrt(A^2 + B^2)) before"))
      << r->report;
  o.arrange = tiling::ArrangeAlgorithm::kBandwidthGreedy;
  EXPECT_THAT(SummaFrontend(o), Not(IsOk()));  // no bandwidth matrix
}

// FPM-BR through the front end: the hand-checked case of speed_function_test
// (12 x 12 blocks, 60 / 84).
TEST(SummaFrontendTest, SpeedFunctions) {
  MatrixFrontendOptions o;
  o.n = 12 * 8;
  o.block = 8;
  o.speed_functions = {SpeedFunction::Constant(1),
                       SpeedFunction{{{60, 2}, {100, 1}}}};
  auto r = SummaFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(Contains(r->report, "FPM-BR")) << r->report;
  EXPECT_EQ(tiling::OwnerAreas(r->partition), (std::vector<int64_t>{60, 84}));
  EXPECT_TRUE(r->process_speed.empty());  // no constant speed to honour
}

TEST(SummaFrontendTest, GivenPartition) {
  MatrixFrontendOptions o;
  o.block = 4;
  // Two columns on a 6 x 6 block grid: processor 2 on the left, 0 above 1 on
  // the right.
  o.partition =
      Partition{6, 6, 3, {{0, 0, 6, 3, 2}, {0, 3, 2, 3, 0}, {2, 3, 4, 3, 1}}};
  auto r = SummaFrontend(o);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->partition, *o.partition);
  EXPECT_TRUE(Contains(r->report, "partition: given (3 rectangles)"))
      << r->report;
  EXPECT_EQ(r->graph.num_vertices(), 3);
  EXPECT_TRUE(r->process_speed.empty());
  o.n = 8 * 4;  // 8 x 8 blocks: not the partition's size
  EXPECT_THAT(SummaFrontend(o), Not(IsOk()));
}

TEST(SummaFrontendTest, Errors) {
  MatrixFrontendOptions o;
  o.speeds = {1, 2};
  o.n = 100;
  o.block = 3;
  EXPECT_THAT(SummaFrontend(o), Not(IsOk()));
  o.block = 1;
  o.speeds = {1, -2};
  EXPECT_THAT(SummaFrontend(o), Not(IsOk()));
  o.speeds = {1, 2};
  o.clusters = {0};
  o.num_clusters = 1;
  o.bandwidth = {1};
  EXPECT_THAT(SummaFrontend(o), Not(IsOk()));
}

// Hostile sizes: above the side limit, an error naming --n (near 2^63 the
// rounding looped forever); near it, totals that do not fit 64 bits are
// errors, not wrapped or negative byte counts.
TEST(MatrixFrontendTest, HostileSizes) {
  MatrixFrontendOptions o;
  o.speeds = {2, 1};
  o.n = INT64_MAX;
  auto far = SummaFrontend(o);
  ASSERT_THAT(far, Not(IsOk()));
  EXPECT_EQ(std::string(far.status().message()),
            "frontend: matrix size 9223372036854775807 is above the limit of "
            "2147483647 (--n)");
  EXPECT_THAT(SquareCornerFrontend(o), Not(IsOk()));
  o.n = kMaxMatrixSide;
  auto bytes = SummaFrontend(o);
  ASSERT_THAT(bytes, Not(IsOk()));
  EXPECT_TRUE(
      Contains(std::string(bytes.status().message()), "exceeds 2^63 - 1 bytes"))
      << bytes.status();
  o.speeds = {2, 1, 1};
  EXPECT_THAT(SquareCornerFrontend(o), Not(IsOk()));
  // 2^29 fits: the reported volumes are the partition's, in elements and
  // bytes, and every graph weight is positive.
  o.speeds = {2, 1};
  o.n = int64_t{1} << 29;
  auto fits = SummaFrontend(o);
  ASSERT_THAT(fits, IsOk());
  const int64_t tvc = fits->volumes.Total();
  EXPECT_TRUE(Contains(fits->report, absl::StrCat("TVC ", tvc, " elements (",
                                                  tvc * 8, " bytes)")));
  for (int32_t v = 0; v < fits->graph.num_vertices(); ++v) {
    for (double w : fits->graph.weights(v)) EXPECT_GT(w, 0);
  }
}

TEST(MatrixFrontendTest, ProcessorsAreBoundedBeforeTheirPairs) {
  MatrixFrontendOptions o;
  o.n = 20000;
  o.partitioner = SummaPartitioner::kGrid;
  o.speeds.assign(kMaxMatrixProcessors + 1, 1.0);
  auto many = SummaFrontend(o);
  ASSERT_THAT(many, Not(IsOk()));
  EXPECT_EQ(std::string(many.status().message()),
            "frontend: 16385 processors; the matrix front ends report the "
            "volume of every pair and take at most 16384");
  o.speeds.assign(2000, 1.0);
  o.max_memory_bytes = 64 << 20;
  auto budget = SummaFrontend(o);
  ASSERT_THAT(budget, Not(IsOk()));
  EXPECT_EQ(budget.status().code(), absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace rankmap::graphs
