#include "base/lines.h"

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(SplitLinesTest, TokensColumnsCommentsAndBlankLines) {
  const std::vector<Line> lines =
      SplitLines("network  # header\n\n  cluster a\t2 x tleaf\r\n# only\nend");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].number, 1);
  ASSERT_EQ(lines[0].tokens.size(), 1u);
  EXPECT_EQ(lines[0].tokens[0].text, "network");
  EXPECT_EQ(lines[1].number, 3);
  ASSERT_EQ(lines[1].tokens.size(), 5u);
  EXPECT_EQ(lines[1].tokens[1].text, "a");
  EXPECT_EQ(lines[1].tokens[1].column, 11);
  EXPECT_EQ(lines[1].tokens[4].text, "tleaf");  // '\r' removed
  EXPECT_EQ(lines[1].Rest(2), "2 x tleaf");
  EXPECT_EQ(lines[1].Rest(5), "");
  EXPECT_EQ(lines[2].number, 5);
}

TEST(SplitLinesTest, NoCommentCharacterKeepsHashes) {
  const std::vector<Line> lines = SplitLines("a # b", /*comment=*/0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].tokens.size(), 3u);
}

TEST(SplitLinesTest, EmptyText) { EXPECT_TRUE(SplitLines("").empty()); }

TEST(LineErrorTest, Format) {
  EXPECT_EQ(LineError("p.txt", 4, "bad").message(), "p.txt:4: bad");
  EXPECT_EQ(ColumnError("p.txt", 4, 7, "bad").message(), "p.txt:4:7: bad");
  EXPECT_EQ(LineError("p.txt", 4, "bad").code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace rankmap::base
