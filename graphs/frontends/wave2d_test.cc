#include "graphs/frontends/wave2d.h"

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "graphs/frontends/stencil.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

using tiling::ColumnTiling;

// Fig. 2 of seed 004 is not in the text; only its caption and eta_1 = {2, 4, 3,
// 6, 0, 5} (clockwise) survive, with "rectangles in the same column and with
// the same width". The layout below is a reconstruction: a column-based
// partition of a 16 x 16 mesh into P = 8 rectangles in three columns, chosen so
// that p1's neighbourhood is that set. Checking eta_1 on it is therefore a
// consistency check of the clockwise order, not a reproduction of the figure;
// the neighbourhood code itself is checked against an independent cell-by-cell
// walk (PerimeterWalk) on partitions the partitioner builds
// (MatchesPerimeterWalkOnPartitionerLayouts). p1 sits in the middle column
// under p2 and over p6; its right side touches p4 (rows 4-5) then p3 (rows
// 6-10); its left side touches p0 (rows 7-10) then, going up, p5 (rows 4-6).
// p7 lies below p3, out of p1's reach.
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

std::vector<int32_t> Ids(const std::vector<Wave2DNeighbour>& eta) {
  std::vector<int32_t> ids;
  for (const auto& n : eta) ids.push_back(n.process);
  return ids;
}

// The oracle: walk round process p's rectangle on the cell owner map,
// clockwise from the top-left corner (the cells above the top row left to
// right, right of the right column top to bottom, below the bottom row right to
// left, left of the left column bottom to top), recording each run of cells
// owned by one other process as a neighbour with that many cells; a neighbour
// to the left or right is packed.
std::vector<Wave2DNeighbour> PerimeterWalk(const ColumnTiling& t, int32_t p) {
  std::vector<int32_t> owner(t.rows * t.cols, -1);
  int64_t r0 = 0, c0 = 0, h = 0, w = 0, col = 0;
  for (const auto& column : t.columns) {
    int64_t row = 0;
    for (const auto& cell : column.cells) {
      for (int64_t i = row; i < row + cell.height; ++i) {
        for (int64_t j = col; j < col + column.width; ++j) {
          owner[i * t.cols + j] = cell.process;
        }
      }
      if (cell.process == p) {
        r0 = row, c0 = col, h = cell.height, w = column.width;
      }
      row += cell.height;
    }
    col += column.width;
  }
  std::vector<Wave2DNeighbour> out;
  auto visit = [&](int64_t i, int64_t j, bool side) {
    if (i < 0 || j < 0 || i >= t.rows || j >= t.cols) return;
    const int32_t q = owner[i * t.cols + j];
    if (!out.empty() && out.back().process == q) {
      ++out.back().cells;
    } else {
      out.push_back({q, 1, side});
    }
  };
  for (int64_t j = c0; j < c0 + w; ++j) visit(r0 - 1, j, false);
  for (int64_t i = r0; i < r0 + h; ++i) visit(i, c0 + w, true);
  for (int64_t j = c0 + w - 1; j >= c0; --j) visit(r0 + h, j, false);
  for (int64_t i = r0 + h - 1; i >= r0; --i) visit(i, c0 - 1, true);
  return out;
}

// Wave2DNeighbourhoods against the perimeter walk on column-based layouts
// built by the partitioner from random speeds (FuPerMod-style balancing, as in
// seed 004 section 1), P = 2..12 on grids of 12..40 cells.
TEST(Wave2DTest, MatchesPerimeterWalkOnPartitionerLayouts) {
  std::mt19937_64 rng(1004);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> speeds(2 + trial % 11);
    for (double& x : speeds) x = u(rng);
    const int64_t rows = 12 + trial % 29, cols = 12 + (7 * trial) % 29;
    auto t = tiling::ColumnTilingFromSpeeds(rows, cols, speeds);
    ASSERT_THAT(t, IsOk());
    auto eta = Wave2DNeighbourhoods(*t);
    ASSERT_THAT(eta, IsOk());
    for (int32_t p = 0; p < static_cast<int32_t>(speeds.size()); ++p) {
      EXPECT_EQ((*eta)[p], PerimeterWalk(*t, p)) << trial << " p" << p;
    }
  }
}

TEST(Wave2DTest, Figure2NeighbourhoodOfP1) {
  auto eta = Wave2DNeighbourhoods(Figure2());
  ASSERT_THAT(eta, IsOk());
  ASSERT_EQ(eta->size(), 8u);
  for (int32_t p = 0; p < 8; ++p) {
    EXPECT_EQ((*eta)[p], PerimeterWalk(Figure2(), p)) << p;
  }
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
  ASSERT_THAT(eta, IsOk());
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
      ASSERT_THAT(a, IsOk());
      ASSERT_THAT(b, IsOk());
      EXPECT_EQ(*a, *b) << i << " " << j;
    }
  }
  EXPECT_EQ(*Wave2DHaloCount(Figure2(), 1, 7), 0);
  EXPECT_EQ(*Wave2DHaloCount(Figure2(), 1, 1), 0);
  EXPECT_THAT(Wave2DHaloCount(Figure2(), 1, 8), Not(IsOk()));
}

TEST(Wave2DTest, GraphAgreesWithTheGeneralStencilFrontEnd) {
  auto g = Wave2DGraph(Figure2());
  ASSERT_THAT(g, IsOk());
  auto p = tiling::ColumnTilingPartition(Figure2());
  ASSERT_THAT(p, IsOk());
  auto h = HaloGraph(*p, {}, Stencil::k5Point, 1, 8.0);
  ASSERT_THAT(h, IsOk());
  EXPECT_EQ(*g, *h);
  // 14 neighbour pairs sharing 59 edge cells in all.
  EXPECT_EQ(g->num_edges(), 14);
  EXPECT_DOUBLE_EQ(g->TotalVolume(), 59 * 2 * 8.0);
}

TEST(Wave2DTest, RejectsBadTilings) {
  ColumnTiling t = Figure2();
  t.columns[1].cells[1].height = 6;  // column 1 no longer sums to 16
  EXPECT_THAT(Wave2DNeighbourhoods(t), Not(IsOk()));
  t = Figure2();
  t.columns[2].cells[2].process = 1;  // p1 twice, p7 missing
  EXPECT_THAT(Wave2DNeighbourhoods(t), Not(IsOk()));
  EXPECT_THAT(Wave2DGraph(Figure2(), 0.0), Not(IsOk()));
}

TEST(Wave2DTest, ProcessCountsAreBoundedBeforeAllocating) {
  Wave2DOptions o;
  o.grid = {1000, 1000};
  o.procs = int64_t{1} << 40;
  auto r = Wave2DFrontend(o);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_EQ(std::string(r.status().message()),
            "wave2d: --procs 1099511627776 is above the column partition's "
            "limit of 50000 processes");
  o.procs = 6;
  auto small = Wave2DFrontend(o);
  ASSERT_THAT(small, IsOk());
  EXPECT_EQ(small->graph.num_vertices(), 6);
}

}  // namespace
}  // namespace rankmap::graphs
