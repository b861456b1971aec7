#include "tiling/grid_partition.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

TEST(GridPartitionTest, DimsCreateLikeMpi) {
  EXPECT_EQ(*DimsCreate(12, {0, 0}), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(*DimsCreate(512, {0, 0, 0}), (std::vector<int64_t>{8, 8, 8}));
  EXPECT_EQ(*DimsCreate(64, {0, 0}), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(*DimsCreate(16, {0, 0, 0}), (std::vector<int64_t>{4, 2, 2}));
  EXPECT_EQ(*DimsCreate(24, {0, 0, 0}), (std::vector<int64_t>{4, 3, 2}));
  EXPECT_EQ(*DimsCreate(7, {0, 0}), (std::vector<int64_t>{7, 1}));
  EXPECT_EQ(*DimsCreate(12, {0, 2}), (std::vector<int64_t>{6, 2}));
  EXPECT_EQ(*DimsCreate(6, {2, 3}), (std::vector<int64_t>{2, 3}));
  EXPECT_THAT(DimsCreate(12, {5, 0}), Not(IsOk()));
  EXPECT_THAT(DimsCreate(6, {2, 2}), Not(IsOk()));
  EXPECT_THAT(DimsCreate(0, {0, 0}), Not(IsOk()));
  EXPECT_THAT(DimsCreate(4, {}), Not(IsOk()));
  EXPECT_THAT(DimsCreate(4, {-1, 0}), Not(IsOk()));
  // Property: the product is right and the free entries are non-increasing.
  for (int64_t n = 1; n <= 200; ++n) {
    auto d = DimsCreate(n, {0, 0, 0});
    ASSERT_THAT(d, IsOk());
    EXPECT_EQ((*d)[0] * (*d)[1] * (*d)[2], n);
    EXPECT_GE((*d)[0], (*d)[1]);
    EXPECT_GE((*d)[1], (*d)[2]);
  }
}

TEST(GridPartitionTest, BlocksSplitEvenlyRowMajor) {
  // 10 cells in 3 parts: 4, 3, 3.
  EXPECT_EQ(*BlockCuts(10, 3), (std::vector<int64_t>{0, 4, 7, 10}));
  auto p =
      BlockPartition(std::vector<int64_t>{5, 4}, std::vector<int64_t>{2, 2});
  ASSERT_THAT(p, IsOk());
  ASSERT_EQ(p->boxes.size(), 4u);
  // Rank 1 is row block 0, column block 1: rows [0, 3), columns [2, 4).
  EXPECT_EQ(p->boxes[1].lo, (std::array<int64_t, 3>{0, 2, 0}));
  EXPECT_EQ(p->boxes[1].hi, (std::array<int64_t, 3>{3, 4, 1}));
  EXPECT_EQ(p->boxes[3].Volume(), 2 * 2);
  EXPECT_THAT(ValidateGridPartition(*p), IsOk());
}

TEST(GridPartitionTest, SpeedsGiveProportionalColumns) {
  // Four equal speeds on 8 x 8: two columns of two minimise the half-perimeters
  // (32 against 40 for one column or four).
  auto t = ColumnTilingFromSpeeds(8, 8, std::vector<double>{1, 1, 1, 1});
  ASSERT_THAT(t, IsOk());
  ASSERT_EQ(t->columns.size(), 2u);
  EXPECT_EQ(t->columns[0].width, 4);
  EXPECT_EQ(t->columns[0].cells.size(), 2u);
  EXPECT_EQ(t->columns[0].cells[0].height, 4);
  // Heterogeneous speeds: areas within one strip of the exact share, every cell
  // covered.
  std::vector<double> speeds = {5, 1, 2, 8, 3, 1, 4, 2, 6, 1};
  auto h = ColumnTilingFromSpeeds(100, 90, speeds);
  ASSERT_THAT(h, IsOk());
  auto p = ColumnTilingPartition(*h);
  ASSERT_THAT(p, IsOk());
  const double total = 33.0;  // sum of the speeds
  for (size_t i = 0; i < speeds.size(); ++i) {
    const GridBox& b = p->boxes[i];
    const double exact = 100.0 * 90.0 * speeds[i] / total;
    EXPECT_NEAR(static_cast<double>(b.Volume()), exact,
                static_cast<double>(b.hi[0] - b.lo[0] + b.hi[1] - b.lo[1]) + 1)
        << "process " << i;
  }
  // TileGrid takes the same route from its options.
  GridTilingOptions o;
  o.grid = {100, 90};
  o.speeds = speeds;
  auto tiled = TileGrid(o);
  ASSERT_THAT(tiled, IsOk());
  EXPECT_EQ(tiled->boxes, p->boxes);
  EXPECT_THAT(ColumnTilingFromSpeeds(8, 8, std::vector<double>{1, -1}),
              Not(IsOk()));
  EXPECT_THAT(ColumnTilingFromSpeeds(1, 1, std::vector<double>{1, 1}),
              Not(IsOk()));
  EXPECT_THAT(ColumnTilingFromSpeeds(8, 8, std::vector<double>{}), Not(IsOk()));
  o.procs = 7;
  EXPECT_THAT(TileGrid(o), Not(IsOk()));
}

// Matrix partitions with one rectangle per owner become grid partitions; the
// speeds route is exactly ColumnBasedPartition + ToIntegerPartition.
TEST(GridPartitionTest, MatrixPartitionsAsBoxes) {
  const std::vector<double> speeds = {4, 3, 2, 1, 1};
  auto layout = ColumnBasedPartition(speeds);
  ASSERT_THAT(layout, IsOk());
  auto rects = ToIntegerPartition(*layout, 40, 30);
  ASSERT_THAT(rects, IsOk());
  auto from_rects = MatrixPartitionBoxes(*rects);
  ASSERT_THAT(from_rects, IsOk());
  auto tiling = ColumnTilingFromSpeeds(40, 30, speeds);
  ASSERT_THAT(tiling, IsOk());
  auto from_tiling = ColumnTilingPartition(*tiling);
  ASSERT_THAT(from_tiling, IsOk());
  EXPECT_EQ(from_rects->boxes, from_tiling->boxes);
  // Square-Corner's fast processor owns an L of two rectangles: not a box
  // partition.
  auto corner = SquareCornerPartition2(std::vector<double>{3, 1}, 16);
  ASSERT_THAT(corner, IsOk());
  EXPECT_THAT(MatrixPartitionBoxes(*corner), Not(IsOk()));
}

TEST(GridPartitionTest, ValidationFindsGapsAndWrongCuts) {
  auto p =
      BlockPartition(std::vector<int64_t>{4, 4}, std::vector<int64_t>{2, 2});
  ASSERT_THAT(p, IsOk());
  // Boxes that do not cover the grid.
  GridPartition gap = *p;
  gap.cuts.clear();
  gap.boxes[3].hi[1] = 3;
  EXPECT_THAT(ValidateGridPartition(gap), Not(IsOk()));
  // Cuts that disagree with the boxes.
  GridPartition wrong = *p;
  std::swap(wrong.boxes[0], wrong.boxes[3]);
  EXPECT_THAT(ValidateGridPartition(wrong), Not(IsOk()));
  wrong.cuts.clear();
  EXPECT_THAT(ValidateGridPartition(wrong), IsOk());
}

TEST(GridPartitionTest, RejectsBadInput) {
  EXPECT_THAT(
      BlockPartition(std::vector<int64_t>{4, 4}, std::vector<int64_t>{5, 1}),
      Not(IsOk()));
  EXPECT_THAT(BlockPartition(std::vector<int64_t>{4}, std::vector<int64_t>{1}),
              Not(IsOk()));
  // Huge requests fail fast instead of allocating or looping.
  EXPECT_THAT(DimsCreate(int64_t{1} << 50, {0, 0}), Not(IsOk()));
  EXPECT_THAT(BlockCuts(int64_t{1} << 60, int64_t{1} << 40), Not(IsOk()));
  ColumnTiling huge{
      4, 4, {{4, {{0, int64_t{1} << 62}, {1, int64_t{1} << 62}}}}};
  EXPECT_THAT(ColumnTilingPartition(huge), Not(IsOk()));
  // A tiling that repeats a process.
  ColumnTiling t{4, 4, {{4, {{0, 2}, {0, 2}}}}};
  EXPECT_THAT(ColumnTilingPartition(t), Not(IsOk()));
  GridTilingOptions o;
  o.grid = {16, 16, 16};
  EXPECT_THAT(TileGrid(o), Not(IsOk()));  // no process count
  o.proc_grid = {2, 2, 2};
  EXPECT_THAT(TileGrid(o), IsOk());
  o.procs = 9;
  EXPECT_THAT(TileGrid(o), Not(IsOk()));
}

TEST(GridPartitionTest, HostileSizesAreRefusedBeforeBuilding) {
  GridTilingOptions o;
  o.grid = {int64_t{1} << 20, int64_t{1} << 20};
  o.procs = int64_t{1} << 30;
  o.max_memory_bytes = int64_t{1} << 20;
  auto p = TileGrid(o);
  ASSERT_THAT(p, Not(IsOk()));
  EXPECT_EQ(p.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(std::string(p.status().message()),
            "stencil: 1073741824 processes needs about 48.0 GiB, above the "
            "memory budget of 1.0 MiB");
  o.grid = {int64_t{1} << 30, int64_t{1} << 30};
  o.procs = 4;
  auto cells = TileGrid(o);
  ASSERT_THAT(cells, Not(IsOk()));
  EXPECT_EQ(std::string(cells.status().message()),
            "stencil: --grid 1073741824x1073741824 has more than 2^56 cells");
  o.proc_grid = {int64_t{1} << 40, int64_t{1} << 40};
  o.procs = 0;
  o.grid = {4, 4};
  EXPECT_THAT(TileGrid(o),
              Not(IsOk()));  // a saturated product, not a wrapped one
}

}  // namespace
}  // namespace rankmap::tiling
