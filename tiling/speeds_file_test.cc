#include "tiling/speeds_file.h"

#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

TEST(SpeedsFileTest, ParsesNumbersAndComments) {
  EXPECT_EQ(*ParseSpeeds("1 2.5\n# comment\n3 # trailing\n", "s"),
            (std::vector<double>{1, 2.5, 3}));
  auto bad = ParseSpeeds("1 2\n3 abc\n", "speeds.txt");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_EQ(std::string(bad.status().message()),
            "speeds.txt:2: expected a positive speed, found 'abc'");
  EXPECT_THAT(ParseSpeeds("1 0\n", "s"), Not(IsOk()));
  EXPECT_THAT(ParseSpeeds("nan", "s"), Not(IsOk()));
  EXPECT_THAT(ParseSpeeds("# nothing\n", "s"), Not(IsOk()));
  EXPECT_THAT(ReadSpeedsFile("/nonexistent/speeds.txt"), Not(IsOk()));
}

// Values a partition could not use are refused where they are read: with a
// share of 1e-300 next to 1, the rectangles would round to nothing.
TEST(SpeedsFileTest, OutOfRangeSpeedsNameTheLine) {
  auto tiny = ParseSpeeds("1 2\n# c\n1e-300\n", "s.txt");
  ASSERT_THAT(tiny, Not(IsOk()));
  EXPECT_EQ(std::string(tiny.status().message()),
            "s.txt:3: speed '1e-300' is outside [1e-100, 1e+100]");
  EXPECT_THAT(ParseSpeeds("1e101", "s"), Not(IsOk()));
  EXPECT_THAT(ParseSpeeds("1e-100 1e100", "s"), IsOk());
}

// The speeds are counted before they are stored: 1000 of them need 8000
// bytes, more than a 4000-byte budget.
TEST(SpeedsFileTest, CountedBeforeStored) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "1 ";
  auto s = ParseSpeeds(text, "big.txt", /*max_memory_bytes=*/4000);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_EQ(s.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(std::string(s.status().message()),
            "big.txt: 1000 speeds needs about 7.8 KiB, above the memory budget "
            "of 3.9 KiB");
  auto fits = ParseSpeeds(text, "big.txt", 8000);
  ASSERT_THAT(fits, IsOk());
  EXPECT_EQ(fits->size(), 1000u);
}

}  // namespace
}  // namespace rankmap::tiling
