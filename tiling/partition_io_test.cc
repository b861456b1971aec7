#include "tiling/partition_io.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

TEST(PartitionIoTest, ParsesAndRoundTrips) {
  auto p = ParsePartition(
      "# two processors on a 12 x 12 block grid\n"
      "grid 12 12\n"
      "1 0 0 7 12   # top\n"
      "0 7 0 5 12\n",
      "two.part");
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->rows, 12);
  EXPECT_EQ(p->cols, 12);
  EXPECT_EQ(p->num_owners, 2);
  EXPECT_EQ(OwnerAreas(*p), (std::vector<int64_t>{60, 84}));
  auto back = ParsePartition(FormatPartition(*p), "again");
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, *p);
  // Every partition the DP builds round-trips.
  auto dp = ToIntegerPartition(*ColumnBasedPartition(std::vector<double>{
                                   0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05}),
                               64, 64);
  ASSERT_THAT(dp, IsOk());
  EXPECT_EQ(*ParsePartition(FormatPartition(*dp), "dp"), *dp);
}

TEST(PartitionIoTest, ErrorsNameFileAndLine) {
  auto err = [](const char* text) {
    auto p = ParsePartition(text, "p.part");
    EXPECT_THAT(p, Not(IsOk())) << text;
    return std::string(p.status().message());
  };
  EXPECT_EQ(err("0 0 0 1 1\n"),
            "p.part:1: expected 'grid <rows> <cols>' first");
  EXPECT_EQ(err("grid 2 2\ngrid 2 2\n"),
            "p.part:2: second grid line (first on line 1)");
  EXPECT_EQ(err("grid 2 x\n"), "p.part:1:8: expected an integer, found 'x'");
  EXPECT_EQ(err("grid 2 2\n0 0 0 2\n"),
            "p.part:2: expected '<processor> <row> <col> <height> <width>'");
  EXPECT_EQ(err("grid 2 2\n0 1 0 2 2\n"),
            "p.part:2: rectangle is empty or leaves the 2 x 2 grid");
  EXPECT_EQ(err("grid 2 2\n0 0 0 2 1\n1 1 0 1 2\n"),
            "p.part:3: rectangle overlaps the one on line 2");
  EXPECT_EQ(err("grid 2 2\n0 0 0 2 1\n"),
            "p.part:2: rectangles cover 2 of 4 cells");
  EXPECT_EQ(err("grid 2 2\n0 0 0 2 1\n2 0 1 2 1\n"),
            "p.part:3: processor 2 out of range: 2 rectangles give processors "
            "0 to 1");
  EXPECT_EQ(err("grid 2 2\n0 0 0 2 1\n0 0 1 1 1\n2 1 1 1 1\n"),
            "p.part:4: processor 1 has no rectangle");
  EXPECT_EQ(err("# empty\n"), "p.part:1: no grid line");
}

// 200,000 rectangles: the overlap check is a sweep (it compared every pair,
// 2e10 steps) and the lines are views into the text.
TEST(PartitionIoTest, TwoHundredThousandRectangles) {
  std::string text = "grid 500 400\n";
  int64_t owner = 0;
  for (int64_t c = 0; c < 400; ++c) {
    for (int64_t r = 0; r < 500; ++r) {
      absl::StrAppend(&text, owner++, " ", r, " ", c, " 1 1\n");
    }
  }
  auto p = ParsePartition(text, "big.part");
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->num_owners, 200000);
  EXPECT_EQ(p->rects.size(), 200000u);
  // The same cell claimed again on the last line: named with the line it
  // overlaps (line 2 holds cell (0, 0)).
  auto twice = ParsePartition(text + "5 0 0 1 1\n", "big.part");
  ASSERT_THAT(twice, Not(IsOk()));
  EXPECT_EQ(std::string(twice.status().message()),
            "big.part:200002: rectangle overlaps the one on line 2");
}

TEST(PartitionIoTest, HostileSizesAndCounts) {
  auto huge = ParsePartition("grid 4611686018427387904 2\n", "h.part");
  ASSERT_THAT(huge, Not(IsOk()));
  EXPECT_EQ(std::string(huge.status().message()),
            "h.part:1: the grid has more than 2^62 cells");
  auto owner =
      ParsePartition("grid 1 2\n0 0 0 1 1\n2000000000 0 1 1 1\n", "h.part");
  ASSERT_THAT(owner, Not(IsOk()));
  EXPECT_EQ(std::string(owner.status().message()),
            "h.part:3: processor 2000000000 out of range: 2 rectangles give "
            "processors 0 to 1");
  // Coordinates near 2^63 are outside the grid, not wrapped inside it.
  EXPECT_THAT(
      ParsePartition("grid 2 2\n0 9223372036854775807 0 1 1\n", "h.part"),
      Not(IsOk()));
  EXPECT_THAT(
      ParsePartition("grid 2 2\n0 1 0 9223372036854775807 1\n", "h.part"),
      Not(IsOk()));
  auto budget = ParsePartition("grid 1 2\n0 0 0 1 1\n1 0 1 1 1\n", "h.part",
                               /*max_memory_bytes=*/64);
  EXPECT_EQ(budget.status().code(), absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace rankmap::tiling
