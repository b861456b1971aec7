#include "tiling/speeds_file.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

TEST(SpeedsFileTest, ParsesNumbersAndComments) {
  EXPECT_EQ(*ParseSpeeds("1 2.5\n# comment\n3 # trailing\n", "s"),
            (std::vector<double>{1, 2.5, 3}));
  auto bad = ParseSpeeds("1 2\n3 abc\n", "speeds.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(std::string(bad.status().message()),
            "speeds.txt:2: expected a positive speed, found 'abc'");
  EXPECT_FALSE(ParseSpeeds("1 0\n", "s").ok());
  EXPECT_FALSE(ParseSpeeds("nan", "s").ok());
  EXPECT_FALSE(ParseSpeeds("# nothing\n", "s").ok());
  EXPECT_FALSE(ReadSpeedsFile("/nonexistent/speeds.txt").ok());
}

}  // namespace
}  // namespace rankmap::tiling
