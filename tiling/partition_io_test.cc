#include "tiling/partition_io.h"

#include <string>

#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

TEST(PartitionIoTest, ParsesAndRoundTrips) {
  auto p = ParsePartition(
      "# two processors on a 12 x 12 block grid\n"
      "grid 12 12\n"
      "1 0 0 7 12   # top\n"
      "0 7 0 5 12\n",
      "two.part");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->rows, 12);
  EXPECT_EQ(p->cols, 12);
  EXPECT_EQ(p->num_owners, 2);
  EXPECT_EQ(OwnerAreas(*p), (std::vector<int64_t>{60, 84}));
  auto back = ParsePartition(FormatPartition(*p), "again");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, *p);
  // Every partition the DP builds round-trips.
  auto dp = ToIntegerPartition(*ColumnBasedPartition(std::vector<double>{
                                   0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05}),
                               64, 64);
  ASSERT_TRUE(dp.ok());
  EXPECT_EQ(*ParsePartition(FormatPartition(*dp), "dp"), *dp);
}

TEST(PartitionIoTest, ErrorsNameFileAndLine) {
  auto err = [](const char* text) {
    auto p = ParsePartition(text, "p.part");
    EXPECT_FALSE(p.ok()) << text;
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
            "p.part:3: processor 1 has no rectangle");
  EXPECT_EQ(err("# empty\n"), "p.part:1: no grid line");
}

}  // namespace
}  // namespace rankmap::tiling
