#include "graphs/frontends/wave2d.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

// Fig. 2 of seed 004 is not in the text; only its caption and eta_1 = {2, 4, 3,
// 6, 0, 5} (clockwise) survive, with "rectangles in the same column and with
// the same width". The layout below is a column-based partition of a 16 x 16
// mesh into P = 8 rectangles in three columns that reproduces that
// neighbourhood: p1 sits in the middle column under p2 and over p6; its right
// side touches p4 (rows 4-5) then p3 (rows 6-10); its left side touches p0
// (rows 7-10) then, going up, p5 (rows 4-6). p7 lies below p3, out of p1's
// reach.
//
//          cols 0-4     cols 5-10    cols 11-15
//   rows 0-3   p5          p2           p4
//   rows 4-5   p5          p1           p4
//   row  6     p5          p1           p3
//   rows 7-10  p0          p1           p3
//   rows 11-12 p0          p6           p3
//   rows 13-15 p0          p6           p7
//
// Machines: the seed only says "two machines"; we use the sequential mapping of
// its tau-Lop tool (M_rank = rank / 4): M0 = {p0..p3}, M1 = {p4..p7}.
ColumnTiling Figure2() {
  ColumnTiling t;
  t.rows = 16;
  t.cols = 16;
  t.columns = {
      {5, {{5, 7}, {0, 9}}},
      {6, {{2, 4}, {1, 7}, {6, 5}}},
      {5, {{4, 6}, {3, 7}, {7, 3}}},
  };
  return t;
}
const std::vector<int32_t> kMachine = {0, 0, 0, 0, 1, 1, 1, 1};

std::vector<int32_t> Ids(const std::vector<Wave2DNeighbour>& eta) {
  std::vector<int32_t> ids;
  for (const auto& n : eta) ids.push_back(n.process);
  return ids;
}

TEST(Wave2DTest, Figure2NeighbourhoodOfP1) {
  auto eta = Wave2DNeighbourhoods(Figure2());
  ASSERT_TRUE(eta.ok()) << eta.status();
  ASSERT_EQ(eta->size(), 8u);
  const std::vector<int32_t> ids = Ids((*eta)[1]);
  EXPECT_EQ(std::set<int32_t>(ids.begin(), ids.end()),
            (std::set<int32_t>{2, 4, 3, 6, 0, 5}));
  // And in the seed's clockwise order.
  EXPECT_EQ(ids, (std::vector<int32_t>{2, 4, 3, 6, 0, 5}));
  // getCurHaloCnt(1, .): top and bottom rows of width 6; overlaps 2, 5 on the
  // right, 4, 3 on the left; together the perimeter of p1's 7 x 6 rectangle, 26
  // cells.
  const std::vector<int64_t> counts = {6, 2, 5, 6, 4, 3};
  const std::vector<bool> packed = {false, true, true, false, true, true};
  int64_t total = 0;
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ((*eta)[1][k].cells, counts[k]) << "neighbour " << ids[k];
    EXPECT_EQ((*eta)[1][k].packed, packed[k]) << "neighbour " << ids[k];
    total += (*eta)[1][k].cells;
  }
  EXPECT_EQ(total, 2 * (7 + 6));
}

TEST(Wave2DTest, Figure2OtherNeighbourhoods) {
  auto eta = Wave2DNeighbourhoods(Figure2());
  ASSERT_TRUE(eta.ok());
  // p0 (bottom left): p5 above, then p1 and p6 on its right.
  EXPECT_EQ(Ids((*eta)[0]), (std::vector<int32_t>{5, 1, 6}));
  EXPECT_EQ((*eta)[0][1].cells, 4);
  // p3 (right column): p4 above, p7 below, then p6 and p1 on its left, bottom
  // to top.
  EXPECT_EQ(Ids((*eta)[3]), (std::vector<int32_t>{4, 7, 6, 1}));
  EXPECT_EQ((*eta)[3][2].cells, 2);
  // p7 touches only p3 and p6.
  EXPECT_EQ(Ids((*eta)[7]), (std::vector<int32_t>{3, 6}));
  // Symmetry: getCurHaloCnt(i, j) == getCurHaloCnt(j, i) for every pair.
  for (int32_t i = 0; i < 8; ++i) {
    for (int32_t j = 0; j < 8; ++j) {
      auto a = Wave2DHaloCount(Figure2(), i, j);
      auto b = Wave2DHaloCount(Figure2(), j, i);
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(*a, *b) << i << " " << j;
    }
  }
  EXPECT_EQ(*Wave2DHaloCount(Figure2(), 1, 7), 0);
  EXPECT_EQ(*Wave2DHaloCount(Figure2(), 1, 1), 0);
  EXPECT_FALSE(Wave2DHaloCount(Figure2(), 1, 8).ok());
}

TEST(Wave2DTest, GraphAgreesWithTheGeneralStencilFrontEnd) {
  auto g = Wave2DGraph(Figure2());
  ASSERT_TRUE(g.ok()) << g.status();
  auto p = ColumnTilingPartition(Figure2());
  ASSERT_TRUE(p.ok());
  auto h = HaloGraph(*p, {}, Stencil::k5Point, 1, 8.0);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(*g, *h);
  // 14 neighbour pairs sharing 59 edge cells in all.
  EXPECT_EQ(g->num_edges(), 14);
  EXPECT_DOUBLE_EQ(g->TotalVolume(), 59 * 2 * 8.0);
}

// The seed's Code 9 with two machines: 41 of the 59 shared cells cross
// machines.
TEST(Wave2DTest, TransmissionsPerChannel) {
  auto tx = Wave2DTransmissions(Figure2(), kMachine);
  ASSERT_TRUE(tx.ok()) << tx.status();
  EXPECT_EQ(tx->size(), 28u);
  double inter = 0, intra = 0;
  std::vector<int32_t> p1_channels;
  for (const auto& t : *tx) {
    (t.channel == 1 ? inter : intra) += t.bytes;
    if (t.src == 1) p1_channels.push_back(t.channel);
  }
  EXPECT_DOUBLE_EQ(inter, 2 * 41 * 8.0);
  EXPECT_DOUBLE_EQ(intra, 2 * 18 * 8.0);
  // eta_1 = {2, 4, 3, 6, 0, 5}: p4, p6, p5 are on the other machine.
  EXPECT_EQ(p1_channels, (std::vector<int32_t>{0, 1, 0, 1, 0, 1}));
  EXPECT_FALSE(Wave2DTransmissions(Figure2(), std::vector<int32_t>{0, 1}).ok());
}

TEST(Wave2DTest, RejectsBadTilings) {
  ColumnTiling t = Figure2();
  t.columns[1].cells[1].height = 6;  // column 1 no longer sums to 16
  EXPECT_FALSE(Wave2DNeighbourhoods(t).ok());
  t = Figure2();
  t.columns[2].cells[2].process = 1;  // p1 twice, p7 missing
  EXPECT_FALSE(Wave2DNeighbourhoods(t).ok());
  EXPECT_FALSE(Wave2DGraph(Figure2(), 0.0).ok());
}

}  // namespace
}  // namespace rankmap::graphs
