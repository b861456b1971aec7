#include "graphs/frontends/matrix_frontend.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(SquareCornerFrontendTest, TwoProcessors) {
  MatrixFrontendOptions o;
  o.speeds = {8, 1};
  o.n = 4500;
  auto r = SquareCornerFrontend(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->volumes.Total(), 13'500'000);
  EXPECT_TRUE(Contains(r->report, "partition: square-corner")) << r->report;
  EXPECT_TRUE(Contains(r->report, "TVC 13500000 elements (108000000 bytes)"))
      << r->report;
  EXPECT_DOUBLE_EQ(r->graph.EdgeWeight(0, 1), 108'000'000.0);
  // Same matrix in 50 x 50 blocks: 90 x 90 grid, square of 30 blocks, same
  // volumes.
  o.block = 50;
  r = SquareCornerFrontend(o);
  ASSERT_TRUE(r.ok()) << r.status();
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
  ASSERT_TRUE(serial.ok());
  EXPECT_TRUE(Contains(serial->report, "partition: straight-line"));
  EXPECT_EQ(serial->volumes.Total(), 120 * 120);
  o.link = LinkModel::kFullDuplex;
  auto duplex = SquareCornerFrontend(o);
  ASSERT_TRUE(duplex.ok());
  EXPECT_TRUE(Contains(duplex->report, "partition: square-corner"));
  o.shape = TwoWayChoice::kStraightLine;
  EXPECT_TRUE(
      Contains(SquareCornerFrontend(o)->report, "partition: straight-line"));
}

TEST(SquareCornerFrontendTest, ThreeProcessors) {
  MatrixFrontendOptions o;
  o.n = 100;
  o.speeds = {90, 5,
              5};  // SCP 2N^2 (2 sqrt(0.05)) = 8944 < SLP N^2 (1 + 0.1) = 11000
  auto r = SquareCornerFrontend(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(Contains(r->report, "partition: square-corner")) << r->report;
  EXPECT_EQ(r->volumes.at(1, 2), 0);
  o.speeds = {60, 20, 20};  // SCP 17889 > SLP 14000
  r = SquareCornerFrontend(o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(Contains(r->report, "partition: straight-line")) << r->report;
  EXPECT_EQ(r->volumes.Total(), 14000);
  o.speeds = {1, 1, 1};  // infeasible: straight line unless forced
  r = SquareCornerFrontend(o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(Contains(r->report, "feasible (sqrt(s2) + sqrt(s3) <= 1): no"));
  o.shape = TwoWayChoice::kSquareCorner;
  EXPECT_FALSE(SquareCornerFrontend(o).ok());
  o.speeds = {1, 2, 3, 4};
  EXPECT_FALSE(SquareCornerFrontend(o).ok());
}

TEST(SummaFrontendTest, ColumnBasedWithArrangement) {
  MatrixFrontendOptions o;
  o.speeds = {5, 4, 4, 3, 3, 2, 2, 2, 1, 1};
  o.n = 128 * 64;
  o.block = 64;
  auto plain = SummaFrontend(o);
  ASSERT_TRUE(plain.ok()) << plain.status();
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
  ASSERT_TRUE(arranged.ok()) << arranged.status();
  EXPECT_TRUE(Contains(arranged->report, "Algorithm 2")) << arranged->report;
  std::vector<int32_t> order = arranged->rank_order;
  std::sort(order.begin(), order.end());
  EXPECT_EQ(order, identity);
  // Rearranging keeps every processor's area and the total volume.
  EXPECT_EQ(OwnerAreas(arranged->partition), OwnerAreas(plain->partition));
  EXPECT_EQ(arranged->volumes.Total(), plain->volumes.Total());

  o.flow = SummaFlow::kOneToAll;
  o.partitioner = SummaPartitioner::kGrid;
  o.clusters.clear();
  o.bandwidth.clear();
  auto grid = SummaFrontend(o);
  ASSERT_TRUE(grid.ok()) << grid.status();
  EXPECT_TRUE(Contains(grid->report, "grid-based"));
  // One-to-all weights are exactly the owner-computes volumes.
  EXPECT_DOUBLE_EQ(grid->graph.TotalVolume(),
                   static_cast<double>(grid->volumes.Total()) * 64 * 64 * 8);
}

TEST(SummaFrontendTest, Errors) {
  MatrixFrontendOptions o;
  o.speeds = {1, 2};
  o.n = 100;
  o.block = 3;
  EXPECT_FALSE(SummaFrontend(o).ok());
  o.block = 1;
  o.speeds = {1, -2};
  EXPECT_FALSE(SummaFrontend(o).ok());
  o.speeds = {1, 2};
  o.clusters = {0};
  o.num_clusters = 1;
  o.bandwidth = {1};
  EXPECT_FALSE(SummaFrontend(o).ok());
  EXPECT_EQ(*ParseSummaFlow("one-to-all"), SummaFlow::kOneToAll);
  EXPECT_EQ(*ParseLinkModel("duplex"), LinkModel::kFullDuplex);
  EXPECT_EQ(*ParseTwoWayChoice("straight-line"), TwoWayChoice::kStraightLine);
  EXPECT_EQ(*ParseSummaPartitioner("grid"), SummaPartitioner::kGrid);
  EXPECT_FALSE(ParseSummaFlow("bcast").ok());
}

}  // namespace
}  // namespace rankmap::graphs
