#include "topology/shown.h"

#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

TEST(Shown, PlainTextUnchanged) {
  EXPECT_EQ(Shown("tux-12.cluster"), "tux-12.cluster");
}

TEST(Shown, ControlBytesEscapedOnOneLine) {
  EXPECT_EQ(Shown("a\nb"), "a\\nb");
  EXPECT_EQ(Shown("\x1b[31m"), "\\x1b[31m");
  EXPECT_EQ(Shown("it's"), "it\\'s");
}

TEST(Shown, LongTextCut) {
  const std::string s(1000, 'p');
  EXPECT_EQ(Shown(s), std::string(64, 'p') + "...");
  EXPECT_EQ(Shown(s, 3), "ppp...");
  EXPECT_EQ(Shown(std::string(64, 'q')), std::string(64, 'q'));
}

TEST(Shown, OneLineEscapesControlBytesOnly) {
  EXPECT_EQ(OneLine("host 'a\nb' at \"x\""), "host 'a\\nb' at \"x\"");
  EXPECT_EQ(OneLine(std::string("a\0b\x7f", 4)), "a\\x00b\\x7f");
  EXPECT_EQ(OneLine("\tx\r"), "\\tx\\r");
}

}  // namespace
}  // namespace rankmap::topology
