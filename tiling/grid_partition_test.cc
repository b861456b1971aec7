#include "tiling/grid_partition.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

TEST(GridPartitionTest, DimsCreateLikeMpi) {
  EXPECT_EQ(*DimsCreate(12, {0, 0}), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(*DimsCreate(512, {0, 0, 0}), (std::vector<int64_t>{8, 8, 8}));
  EXPECT_EQ(*DimsCreate(64, {0, 0}), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(*DimsCreate(16, {0, 0, 0}), (std::vector<int64_t>{4, 2, 2}));
  EXPECT_EQ(*DimsCreate(24, {0, 0, 0}), (std::vector<int64_t>{4, 3, 2}));
  EXPECT_EQ(*DimsCreate(7, {0, 0}), (std::vector<int64_t>{7, 1}));
  EXPECT_EQ(*DimsCreate(12, {0, 2}), (std::vector<int64_t>{6, 2}));
  EXPECT_EQ(*DimsCreate(6, {2, 3}), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(DimsCreate(12, {5, 0}).ok());
  EXPECT_FALSE(DimsCreate(6, {2, 2}).ok());
  EXPECT_FALSE(DimsCreate(0, {0, 0}).ok());
  EXPECT_FALSE(DimsCreate(4, {}).ok());
  EXPECT_FALSE(DimsCreate(4, {-1, 0}).ok());
  // Property: the product is right and the free entries are non-increasing.
  for (int64_t n = 1; n <= 200; ++n) {
    auto d = DimsCreate(n, {0, 0, 0});
    ASSERT_TRUE(d.ok());
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
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->boxes.size(), 4u);
  // Rank 1 is row block 0, column block 1: rows [0, 3), columns [2, 4).
  EXPECT_EQ(p->boxes[1].lo, (std::array<int64_t, 3>{0, 2, 0}));
  EXPECT_EQ(p->boxes[1].hi, (std::array<int64_t, 3>{3, 4, 1}));
  EXPECT_EQ(p->boxes[3].Volume(), 2 * 2);
  EXPECT_TRUE(ValidateGridPartition(*p).ok());
}

TEST(GridPartitionTest, SpeedsGiveProportionalColumns) {
  // Four equal speeds on 8 x 8: two columns of two minimise the half-perimeters
  // (32 against 40 for one column or four).
  auto t = ColumnTilingFromSpeeds(8, 8, std::vector<double>{1, 1, 1, 1});
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->columns.size(), 2u);
  EXPECT_EQ(t->columns[0].width, 4);
  EXPECT_EQ(t->columns[0].cells.size(), 2u);
  EXPECT_EQ(t->columns[0].cells[0].height, 4);
  // Heterogeneous speeds: areas within one strip of the exact share, every cell
  // covered.
  std::vector<double> speeds = {5, 1, 2, 8, 3, 1, 4, 2, 6, 1};
  auto h = ColumnTilingFromSpeeds(100, 90, speeds);
  ASSERT_TRUE(h.ok()) << h.status();
  auto p = ColumnTilingPartition(*h);
  ASSERT_TRUE(p.ok()) << p.status();
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
  ASSERT_TRUE(tiled.ok()) << tiled.status();
  EXPECT_EQ(tiled->boxes, p->boxes);
  EXPECT_FALSE(ColumnTilingFromSpeeds(8, 8, std::vector<double>{1, -1}).ok());
  EXPECT_FALSE(ColumnTilingFromSpeeds(1, 1, std::vector<double>{1, 1}).ok());
  EXPECT_FALSE(ColumnTilingFromSpeeds(8, 8, std::vector<double>{}).ok());
  o.procs = 7;
  EXPECT_FALSE(TileGrid(o).ok());
}

// Matrix partitions with one rectangle per owner become grid partitions; the
// speeds route is exactly ColumnBasedPartition + ToIntegerPartition.
TEST(GridPartitionTest, MatrixPartitionsAsBoxes) {
  const std::vector<double> speeds = {4, 3, 2, 1, 1};
  auto layout = ColumnBasedPartition(speeds);
  ASSERT_TRUE(layout.ok());
  auto rects = ToIntegerPartition(*layout, 40, 30);
  ASSERT_TRUE(rects.ok());
  auto from_rects = MatrixPartitionBoxes(*rects);
  ASSERT_TRUE(from_rects.ok()) << from_rects.status();
  auto tiling = ColumnTilingFromSpeeds(40, 30, speeds);
  ASSERT_TRUE(tiling.ok());
  auto from_tiling = ColumnTilingPartition(*tiling);
  ASSERT_TRUE(from_tiling.ok());
  EXPECT_EQ(from_rects->boxes, from_tiling->boxes);
  // Square-Corner's fast processor owns an L of two rectangles: not a box
  // partition.
  auto corner = SquareCornerPartition2(std::vector<double>{3, 1}, 16);
  ASSERT_TRUE(corner.ok());
  EXPECT_FALSE(MatrixPartitionBoxes(*corner).ok());
}

TEST(GridPartitionTest, ValidationFindsGapsAndWrongCuts) {
  auto p =
      BlockPartition(std::vector<int64_t>{4, 4}, std::vector<int64_t>{2, 2});
  ASSERT_TRUE(p.ok());
  // Boxes that do not cover the grid.
  GridPartition gap = *p;
  gap.cuts.clear();
  gap.boxes[3].hi[1] = 3;
  EXPECT_FALSE(ValidateGridPartition(gap).ok());
  // Cuts that disagree with the boxes.
  GridPartition wrong = *p;
  std::swap(wrong.boxes[0], wrong.boxes[3]);
  EXPECT_FALSE(ValidateGridPartition(wrong).ok());
  wrong.cuts.clear();
  EXPECT_TRUE(ValidateGridPartition(wrong).ok());
}

TEST(GridPartitionTest, RejectsBadInput) {
  EXPECT_FALSE(
      BlockPartition(std::vector<int64_t>{4, 4}, std::vector<int64_t>{5, 1})
          .ok());
  EXPECT_FALSE(
      BlockPartition(std::vector<int64_t>{4}, std::vector<int64_t>{1}).ok());
  // Huge requests fail fast instead of allocating or looping.
  EXPECT_FALSE(DimsCreate(int64_t{1} << 50, {0, 0}).ok());
  EXPECT_FALSE(BlockCuts(int64_t{1} << 60, int64_t{1} << 40).ok());
  ColumnTiling huge{
      4, 4, {{4, {{0, int64_t{1} << 62}, {1, int64_t{1} << 62}}}}};
  EXPECT_FALSE(ColumnTilingPartition(huge).ok());
  // A tiling that repeats a process.
  ColumnTiling t{4, 4, {{4, {{0, 2}, {0, 2}}}}};
  EXPECT_FALSE(ColumnTilingPartition(t).ok());
  GridTilingOptions o;
  o.grid = {16, 16, 16};
  EXPECT_FALSE(TileGrid(o).ok());  // no process count
  o.proc_grid = {2, 2, 2};
  EXPECT_TRUE(TileGrid(o).ok());
  o.procs = 9;
  EXPECT_FALSE(TileGrid(o).ok());
}

TEST(GridPartitionTest, HostileSizesAreRefusedBeforeBuilding) {
  GridTilingOptions o;
  o.grid = {int64_t{1} << 20, int64_t{1} << 20};
  o.procs = int64_t{1} << 30;
  o.max_memory_bytes = int64_t{1} << 20;
  auto p = TileGrid(o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(std::string(p.status().message()),
            "stencil: 1073741824 processes needs about 48.0 GiB, above the "
            "memory budget of 1.0 MiB");
  o.grid = {int64_t{1} << 30, int64_t{1} << 30};
  o.procs = 4;
  auto cells = TileGrid(o);
  ASSERT_FALSE(cells.ok());
  EXPECT_EQ(std::string(cells.status().message()),
            "stencil: --grid 1073741824x1073741824 has more than 2^56 cells");
  o.proc_grid = {int64_t{1} << 40, int64_t{1} << 40};
  o.procs = 0;
  o.grid = {4, 4};
  EXPECT_FALSE(TileGrid(o).ok());  // a saturated product, not a wrapped one
}

}  // namespace
}  // namespace rankmap::tiling
