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
#include <thread>
#include <vector>

#include "base/subprocess.h"
#include "base/temp_dir.h"
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

// A stop ends the programs the command started and removes its temporary
// directories before the process exits.
TEST(StopSignals, ChildrenAndTemporariesGoWithTheCommand) {
  const std::string tmp = std::getenv("TEST_TMPDIR");
  const std::string pid_file = tmp + "/child.pid", dir_file = tmp + "/dir";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);
    const int fd = open((tmp + "/err2").c_str(), O_WRONLY | O_CREAT, 0644);
    dup2(fd, 2);
    StopOnSignals("unit");
    absl::StatusOr<base::TempDir> dir = base::TempDir::Create("stop");
    if (!dir.ok()) _exit(3);
    std::ofstream(dir_file) << dir->path();
    std::thread([&] {
      const std::vector<std::string> argv = {
          "sh", "-c", "echo $$ >" + pid_file + ".tmp; mv " + pid_file +
                          ".tmp " + pid_file + "; exec sleep 60"};
      (void)base::RunSubprocess(argv);
      _exit(4);  // never: the stop ends the process first
    }).detach();
    for (int i = 0; i < 500 && access(pid_file.c_str(), F_OK) != 0; ++i)
      usleep(20000);
    kill(getpid(), SIGTERM);
    sleep(30);
    _exit(5);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  std::stringstream child, dir;
  child << std::ifstream(pid_file).rdbuf();
  dir << std::ifstream(dir_file).rdbuf();
  const pid_t sleeper = std::stoi(child.str());
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = kill(sleeper, 0) != 0;
    if (!gone) usleep(20000);
  }
  EXPECT_TRUE(gone) << "the sleep " << sleeper << " outlived the command";
  ASSERT_FALSE(dir.str().empty());
  EXPECT_NE(access(dir.str().c_str(), F_OK), 0) << dir.str() << " left";
}

}  // namespace
}  // namespace rankmap::cli
