#include "cli/stop_signals.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

// In a child process (the watcher is process-wide): a fork made after
// StopOnSignals has SIGTERM unblocked again, and SIGTERM sent to the process
// ends it with 128 + 15 and one line, whichever thread it reaches.
TEST(StopSignals, ExitsWithTheSignalAndChildrenKeepTheirMask) {
  const std::string err = std::string(std::getenv("TEST_TMPDIR")) + "/err";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);
    const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    StopOnSignals("unit");
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      sigset_t mask;
      pthread_sigmask(SIG_SETMASK, nullptr, &mask);
      _exit(sigismember(&mask, SIGTERM) ? 1 : 0);
    }
    int status = 0;
    waitpid(grandchild, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) _exit(3);
    kill(getpid(), SIGTERM);
    sleep(30);
    _exit(4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  std::stringstream text;
  text << std::ifstream(err).rdbuf();
  EXPECT_EQ(text.str(), "rankmap: unit: stopped by SIGTERM\n");
}

}  // namespace
}  // namespace rankmap::cli
