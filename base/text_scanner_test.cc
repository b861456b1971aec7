#include "base/text_scanner.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(TextScannerTest, TokensAndLines) {
  TextScanner s("a  b\r\n\n c\td", "t.txt");
  EXPECT_EQ(s.TokenOnLine(), "a");
  EXPECT_EQ(s.TokenOnLine(), "b");
  EXPECT_EQ(s.TokenOnLine(), "");
  EXPECT_TRUE(s.AtEndOfLine());
  EXPECT_EQ(s.line(), 1);
  EXPECT_EQ(s.Token(), "c");  // crosses the empty line 2
  EXPECT_EQ(s.line(), 3);
  EXPECT_EQ(s.Token(), "d");
  EXPECT_EQ(s.Token(), "");
  EXPECT_TRUE(s.AtEndOfFile());
}

TEST(TextScannerTest, SkipsCommentsAndReportsLines) {
  TextScanner s("% one\n\n  % two\nx y\n", "g.graph");
  s.SkipBlankAndCommentLines('%');
  EXPECT_EQ(s.line(), 4);
  EXPECT_EQ(s.TokenOnLine(), "x");
  absl::Status e = s.Error("a number", Quote("y"));
  EXPECT_EQ(std::string(e.message()),
            "g.graph:4: expected a number, found 'y'");
}

TEST(TextScannerTest, QuoteEscapesAndTruncates) {
  EXPECT_EQ(Quote(""), "end of line");
  EXPECT_EQ(QuoteOrEof(""), "end of file");
  EXPECT_EQ(Quote(std::string("a\x01'", 3)), "'a\\x01\\x27'");
  EXPECT_EQ(Quote(std::string(40, 'z')), "'" + std::string(32, 'z') + "...'");
}

TEST(TextScannerTest, ParseInt) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInt("42", &v));
  EXPECT_EQ(v, 42);
  EXPECT_TRUE(ParseInt("+7", &v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(ParseInt("-3", &v));
  EXPECT_EQ(v, -3);
  EXPECT_FALSE(ParseInt("", &v));
  EXPECT_FALSE(ParseInt("+", &v));
  EXPECT_FALSE(ParseInt("++1", &v));
  EXPECT_FALSE(ParseInt("1.0", &v));
  EXPECT_FALSE(ParseInt("12a", &v));
  EXPECT_FALSE(ParseInt("99999999999999999999", &v));  // overflows int64
}

TEST(TextScannerTest, ParseReal) {
  double v = 0;
  EXPECT_TRUE(ParseReal("1.5e3", &v));
  EXPECT_EQ(v, 1500.0);
  EXPECT_TRUE(ParseReal("+2", &v));
  EXPECT_EQ(v, 2.0);
  EXPECT_TRUE(ParseReal("-0.25", &v));
  EXPECT_EQ(v, -0.25);
  EXPECT_TRUE(ParseReal(".5", &v));
  EXPECT_EQ(v, 0.5);
  EXPECT_TRUE(ParseReal("1E-2", &v));
  EXPECT_DOUBLE_EQ(v, 0.01);
  EXPECT_FALSE(ParseReal("+-1", &v));
  EXPECT_FALSE(ParseReal("1,5", &v));
  EXPECT_FALSE(ParseReal("e5", &v));
  EXPECT_FALSE(ParseReal("1e999", &v));
  EXPECT_FALSE(ParseReal("0x10", &v));
}

}  // namespace
}  // namespace rankmap::base
