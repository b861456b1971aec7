#include "base/shell_quote.h"

#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(ShellQuote, PlainWordsStayAsTheyAre) {
  EXPECT_EQ(ShellQuote("job.rf"), "job.rf");
  EXPECT_EQ(ShellQuote("/tmp/a-b_c/x=1,y:2"), "/tmp/a-b_c/x=1,y:2");
  EXPECT_EQ(ShellQuote("-n"), "-n");
  EXPECT_EQ(ShellQuote("--mca"), "--mca");
}

TEST(ShellQuote, EverythingElseIsSingleQuoted) {
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("~root"), "'~root'");
  EXPECT_EQ(ShellQuote("a b"), "'a b'");
  EXPECT_EQ(ShellQuote("$(id)"), "'$(id)'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(ShellJoin(std::vector<std::string>{"echo", "a;b", "c"}),
            "echo 'a;b' c");
}

// The real shell reads each quoted word back as exactly the original bytes.
TEST(ShellQuote, ShReadsTheOriginalBack) {
  const std::vector<std::string> words = {
      "plain",      "a b",         "$(touch /nonexistent/x)",
      "`id`",       "it's",        "a\nb",
      "semi;colon", "back\\slash", "\"dq\"",
      "*",          "~",           "-rf",
      "",           "!x"};
  for (const std::string& w : words) {
    const std::string cmd = "printf '%s' " + ShellQuote(w);
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string got;
    char buf[256];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, p)) > 0) got.append(buf, k);
    ASSERT_EQ(pclose(p), 0) << cmd;
    EXPECT_EQ(got, w) << cmd;
  }
}

}  // namespace
}  // namespace rankmap::base
