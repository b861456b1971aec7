#include "base/lines.h"

#include <string>
#include <string_view>
#include <vector>

#include "base/status_matchers.h"
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

TEST(ForEachLineTest, ViewsIntoTheTextWithNumbersAndColumns) {
  const std::string text = "grid 2 3 # size\n\n  1\t2\r\n#\nend";
  std::vector<int64_t> numbers;
  std::vector<std::vector<std::string_view>> tokens;
  std::vector<std::vector<int64_t>> columns;
  ASSERT_THAT(ForEachLine(text,
                          [&](const LineView& l) {
                            numbers.push_back(l.number);
                            tokens.push_back(l.tokens);
                            columns.push_back(l.columns);
                            return absl::OkStatus();
                          }),
              IsOk());
  EXPECT_EQ(numbers, (std::vector<int64_t>{1, 3, 5}));
  EXPECT_EQ(tokens[0], (std::vector<std::string_view>{"grid", "2", "3"}));
  EXPECT_EQ(columns[0], (std::vector<int64_t>{1, 6, 8}));
  EXPECT_EQ(tokens[1], (std::vector<std::string_view>{"1", "2"}));
  EXPECT_EQ(columns[1], (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(tokens[2], (std::vector<std::string_view>{"end"}));
  // Views, not copies: the first token starts where the text does.
  EXPECT_EQ(tokens[0][0].data(), text.data());
}

TEST(ForEachLineTest, StopsAtTheFirstError) {
  int calls = 0;
  const absl::Status s =
      ForEachLine("a\nb\nc\n", [&](const LineView& l) -> absl::Status {
        ++calls;
        if (l.tokens[0] == "b") return LineError("f", l.number, "no b");
        return absl::OkStatus();
      });
  EXPECT_EQ(s.message(), "f:2: no b");
  EXPECT_EQ(calls, 2);
}

TEST(ForEachLineTest, AgreesWithSplitLines) {
  const std::string text = "x 1 # c\r\n\t\n y\t 2 3\r\n";
  const std::vector<Line> lines = SplitLines(text);
  size_t k = 0;
  ASSERT_THAT(ForEachLine(text,
                          [&](const LineView& v) {
                            const Line& l = lines.at(k++);
                            EXPECT_EQ(v.number, l.number);
                            EXPECT_EQ(v.text, l.text);
                            EXPECT_EQ(v.tokens.size(), l.tokens.size());
                            for (size_t t = 0; t < v.tokens.size(); ++t) {
                              EXPECT_EQ(v.tokens[t], l.tokens[t].text);
                              EXPECT_EQ(v.columns[t], l.tokens[t].column);
                            }
                            return absl::OkStatus();
                          }),
              IsOk());
  EXPECT_EQ(k, lines.size());
}

TEST(LineErrorTest, Format) {
  EXPECT_EQ(LineError("p.txt", 4, "bad").message(), "p.txt:4: bad");
  EXPECT_EQ(ColumnError("p.txt", 4, 7, "bad").message(), "p.txt:4:7: bad");
  EXPECT_EQ(LineError("p.txt", 4, "bad").code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace rankmap::base
