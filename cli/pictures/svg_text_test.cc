#include "cli/pictures/svg_text.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli::pictures {
namespace {

using ::testing::ElementsAre;

TEST(RangeLines, RangesWrapAndCountWhatIsLeftOut) {
  EXPECT_THAT(RangeLines({0, 1, 2, 7}, 20, 3), ElementsAre("0-2, 7"));
  EXPECT_THAT(RangeLines({0, 1, 2, 7, 9, 10}, 7, 3),
              ElementsAre("0-2, 7,", "9-10"));
  EXPECT_TRUE(RangeLines({}, 10, 3).empty());
  // 21 single ids 0, 2, ..., 40 on two lines of 12: "0, 2, 4, 6," then the
  // rest cut so that "+N more" fits.
  std::vector<int32_t> even;
  for (int i = 0; i <= 40; i += 2) even.push_back(i);
  const std::vector<std::string> lines = RangeLines(even, 12, 2);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "0, 2, 4, 6,");
  EXPECT_EQ(lines[1], "8, +16 more");  // 4 + 1 shown, 16 left: 21 in all
  EXPECT_EQ(RangeText({3, 4, 5, 9}), "3-5, 9");
}

TEST(Short, PowersOfAThousand) {
  EXPECT_EQ(Short(512), "512");
  EXPECT_EQ(Short(1500), "1.5k");
  EXPECT_EQ(Short(2.2e7), "22M");
  EXPECT_EQ(Short(3.14e9), "3.14G");
}

TEST(Escape, MarkupCharacters) {
  EXPECT_EQ(Escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

TEST(LogColour, ViridisEnds) {
  EXPECT_EQ(LogColour(0), "#440154");
  EXPECT_EQ(LogColour(1), "#fde725");
  EXPECT_EQ(LogColour(0.5), "#21918c");
  EXPECT_EQ(LogColour(-3), LogColour(0));
}

}  // namespace
}  // namespace rankmap::cli::pictures
