#include "base/subprocess.h"

#include <signal.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/status_matchers.h"
#include "base/temp_dir.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

using ::testing::Not;

using Words = std::vector<std::string>;

TEST(RunSubprocess, ExitCodeOutputAndEnvironment) {
  auto dir = TempDir::Create("subprocess");
  ASSERT_THAT(dir, IsOk());
  SubprocessOptions o;
  o.stdout_path = dir->path() + "/out";
  o.stderr_path = dir->path() + "/err";
  o.env = {{"RANKMAP_TEST_X", "42"}, {"HOME", "/nowhere"}};
  auto r = RunSubprocess(
      Words{"sh", "-c", "echo $RANKMAP_TEST_X $HOME; echo oops >&2; exit 3"},
      o);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->signal, 0);
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(*ReadFile(o.stdout_path, "out"), "42 /nowhere\n");
  EXPECT_EQ(*ReadFile(o.stderr_path, "err"), "oops\n");
  auto missing = RunSubprocess(Words{"/nonexistent/program"}, o);
  ASSERT_THAT(missing, IsOk());
  EXPECT_EQ(missing->exit_code, 127);
  EXPECT_THAT(RunSubprocess(Words{}, o), Not(IsOk()));
}

// The limit stops the whole group: a shell and the sleep it started.
TEST(RunSubprocess, TheTimeLimitStopsTheGroup) {
  SubprocessOptions o;
  o.timeout_seconds = 0.3;
  o.grace_seconds = 0.5;
  o.new_group = true;
  const auto start = std::chrono::steady_clock::now();
  auto r = RunSubprocess(Words{"sh", "-c", "sleep 30; echo late"}, o);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, SIGTERM);
  EXPECT_LT(took, 20.0) << "the sleep was stopped, not waited for";
  // A program that ignores SIGTERM is killed after the grace period.
  auto ignores_term =
      RunSubprocess(Words{"sh", "-c", "trap '' TERM; sleep 30"}, o);
  ASSERT_THAT(ignores_term, IsOk());
  EXPECT_TRUE(ignores_term->timed_out);
}

TEST(LastLines, KeepsTheTail) {
  EXPECT_EQ(LastLines("a\nb\nc\n", 2), "b\nc");
  EXPECT_EQ(LastLines("a\nb\nc", 5), "a\nb\nc");
  EXPECT_EQ(LastLines("only", 1), "only");
  EXPECT_EQ(LastLines("", 3), "");
  EXPECT_EQ(LastLines("x\n\n\n", 1), "x");
}

}  // namespace
}  // namespace rankmap::base
