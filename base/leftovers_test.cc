#include "base/leftovers.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/subprocess.h"
#include "base/temp_dir.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// Gone, or a zombie that nobody of ours waits for.
bool Ended(pid_t pid) {
  if (kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  const size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() &&
         text[close + 2] == 'Z';
}

void WaitForFile(const std::string& path) {
  for (int i = 0; i < 500 && !Exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// The checks of a stop, in a child process (a stop is final and
// process-wide). Exit code 0, or the number of the check that failed.
int StopScenario(const std::string& scratch) {
  const std::string pids = scratch + "/pids";
  std::atomic<bool> returned{false};
  // One child group: a shell that ends on SIGTERM and a sleep that ignores
  // it, both writing their pids.
  std::thread waiter([&] {
    SubprocessOptions o;
    const std::vector<std::string> argv = {
        "sh", "-c",
        "(trap '' TERM; echo $(exec sh -c 'echo $PPID') >>" + pids +
            ".tmp; exec sleep 60) & echo $$ >>" + pids +
            ".tmp; sleep 0.2; mv " + pids + ".tmp " + pids + "; wait"};
    (void)RunSubprocess(argv, o);
    returned = true;
  });
  waiter.detach();
  absl::StatusOr<TempDir> dir = TempDir::Create("leftovers");
  if (!dir.ok()) return 1;
  std::ofstream(dir->path() + "/file") << "x";
  const std::string outside = scratch + "/kept";
  std::ofstream(outside) << "y";
  RegisterTemporary(scratch + "/registered");
  std::ofstream(scratch + "/registered") << "z";
  WaitForFile(pids);
  std::vector<pid_t> started;
  {
    std::ifstream in(pids);
    for (pid_t p; in >> p;) started.push_back(p);
  }
  if (started.size() != 2) return 2;
  const auto t0 = std::chrono::steady_clock::now();
  const int killed = StopChildrenAndRemoveTemporaries(0.5);
  const double took = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t0)
                          .count();
  if (killed != 1) return 3;  // the sleep ignored SIGTERM
  if (took < 0.5 || took > 10) return 4;
  for (pid_t p : started) {
    for (int i = 0; i < 100 && !Ended(p); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!Ended(p)) return 5;
  }
  if (Exists(dir->path()) || Exists(scratch + "/registered")) return 6;
  if (!Exists(outside)) return 7;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (returned) return 8;  // the child's end is not reported
  if (!StopRequested()) return 9;
  errno = 0;
  if (ForkRegistered() != -1 || errno != ECANCELED) return 10;
  return 0;
}

TEST(Leftovers, AStopEndsChildGroupsAndRemovesTemporaries) {
  const std::string scratch = std::string(std::getenv("TEST_TMPDIR")) + "/s";
  mkdir(scratch.c_str(), 0755);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(StopScenario(scratch));
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "check " << WEXITSTATUS(status);
}

// Without a stop, a child's group is forgotten once it was waited for, and
// a group whose members all ended counts as gone.
TEST(Leftovers, NothingToStopIsQuick) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::vector<std::string> argv = {"true"};
    if (!RunSubprocess(argv).ok()) _exit(1);
    const auto t0 = std::chrono::steady_clock::now();
    if (StopChildrenAndRemoveTemporaries(5) != 0) _exit(2);
    const double took = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - t0)
                            .count();
    _exit(took < 1 ? 0 : 3);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "check " << WEXITSTATUS(status);
}

TEST(Leftovers, RemovePathRemovesTreesAndLinksNotTheirTargets) {
  const std::string root = std::string(std::getenv("TEST_TMPDIR")) + "/tree";
  const std::string target = std::string(std::getenv("TEST_TMPDIR")) + "/t";
  mkdir(target.c_str(), 0755);
  std::ofstream(target + "/keep") << "k";
  mkdir(root.c_str(), 0755);
  mkdir((root + "/a").c_str(), 0755);
  std::ofstream(root + "/a/b") << "b";
  ASSERT_EQ(symlink(target.c_str(), (root + "/link").c_str()), 0);
  RemovePath(root);
  EXPECT_FALSE(Exists(root));
  EXPECT_TRUE(Exists(target + "/keep"));
}

}  // namespace
}  // namespace rankmap::base
