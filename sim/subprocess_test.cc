#include "sim/subprocess.h"

#include <signal.h>

#include <string>

#include "base/temp_dir.h"
#include "gtest/gtest.h"

namespace rankmap::sim {
namespace {

TEST(RunProcess, ASignalIsNoSuccess) {
  auto dir = base::TempDir::Create("sim-subprocess");
  ASSERT_TRUE(dir.ok());
  auto killed = RunProcess({"/bin/sh", "-c", "echo before; kill -KILL $$"},
                           dir->path(), "killed");
  ASSERT_TRUE(killed.ok()) << killed.status();
  EXPECT_EQ(killed->signal, SIGKILL);
  EXPECT_EQ(killed->exit_status, 128 + SIGKILL);
  EXPECT_EQ(killed->out, "before\n");
  auto exited =
      RunProcess({"/bin/sh", "-c", "echo why >&2; exit 3"}, dir->path(), "e");
  ASSERT_TRUE(exited.ok());
  EXPECT_EQ(exited->signal, 0);
  EXPECT_EQ(exited->exit_status, 3);
  EXPECT_EQ(exited->err, "why\n");
  auto missing = RunProcess({"/nonexistent"}, dir->path(), "missing");
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->exit_status, 127);
}

// A flood of error output costs its last kMaxErrorBytes, from a line start.
TEST(RunProcess, OutputIsReadAsABoundedTail) {
  auto dir = base::TempDir::Create("sim-subprocess");
  ASSERT_TRUE(dir.ok());
  auto r = RunProcess({"/bin/sh", "-c",
                       "yes 'a line of error output' | head -c 3000000 >&2; "
                       "echo last >&2"},
                      dir->path(), "flood");
  ASSERT_TRUE(r.ok());
  EXPECT_LE(static_cast<int64_t>(r->err.size()), kMaxErrorBytes);
  EXPECT_GT(static_cast<int64_t>(r->err.size()), kMaxErrorBytes / 2);
  EXPECT_EQ(r->err.substr(0, 23), "a line of error output\n");
  EXPECT_EQ(r->err.substr(r->err.size() - 5), "last\n");
}

}  // namespace
}  // namespace rankmap::sim
