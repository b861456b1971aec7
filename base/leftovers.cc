#include "base/leftovers.h"

#include <ftw.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace rankmap::base {
namespace {

struct Registry {
  std::mutex mu;
  std::set<pid_t> groups;
  std::multiset<std::string> temporaries;
};

// Never destroyed: a stop may run while static destructors do.
Registry& R() {
  static Registry* r = new Registry;
  return *r;
}

std::atomic<bool> stopping{false};

bool GroupAlive(pid_t group) {
  return kill(-group, 0) == 0 || errno == EPERM;
}

// Waits until no group of `groups` has a process, or `seconds` passed.
// Returns the groups still alive.
std::vector<pid_t> WaitForGroups(std::vector<pid_t> groups, double seconds) {
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::duration<double>(seconds);
  for (;;) {
    std::vector<pid_t> alive;
    for (pid_t g : groups) {
      if (GroupAlive(g)) alive.push_back(g);
    }
    groups = std::move(alive);
    if (groups.empty() || std::chrono::steady_clock::now() >= end)
      return groups;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

pid_t ForkRegistered() {
  Registry& r = R();
  std::lock_guard<std::mutex> lock(r.mu);
  if (stopping.load()) {
    errno = ECANCELED;
    return -1;
  }
  const pid_t pid = fork();
  if (pid > 0) {
    setpgid(pid, pid);
    r.groups.insert(pid);
  }
  return pid;
}

void ForgetChildGroup(pid_t leader) {
  Registry& r = R();
  std::lock_guard<std::mutex> lock(r.mu);
  r.groups.erase(leader);
}

void RegisterTemporary(const std::string& path) {
  Registry& r = R();
  std::lock_guard<std::mutex> lock(r.mu);
  r.temporaries.insert(path);
}

void ForgetTemporary(const std::string& path) {
  Registry& r = R();
  std::lock_guard<std::mutex> lock(r.mu);
  if (auto it = r.temporaries.find(path); it != r.temporaries.end())
    r.temporaries.erase(it);
}

void RemovePath(const std::string& path) {
  nftw(
      path.c_str(),
      [](const char* p, const struct stat*, int, struct FTW*) {
        std::remove(p);
        return 0;
      },
      16, FTW_DEPTH | FTW_PHYS);
}

int StopChildrenAndRemoveTemporaries(double grace_seconds) {
  Registry& r = R();
  std::vector<pid_t> groups;
  {
    // Held only to read: RunSubprocess forgets its group after the wait.
    std::lock_guard<std::mutex> lock(r.mu);
    stopping.store(true);
    groups.assign(r.groups.begin(), r.groups.end());
  }
  for (pid_t g : groups) kill(-g, SIGTERM);
  std::vector<pid_t> stubborn = WaitForGroups(groups, grace_seconds);
  for (pid_t g : stubborn) kill(-g, SIGKILL);
  // SIGKILL is not refused; the wait lets the processes go before their
  // files do.
  WaitForGroups(stubborn, 2);
  std::multiset<std::string> temporaries;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    temporaries = r.temporaries;
  }
  for (const std::string& path : temporaries) RemovePath(path);
  return static_cast<int>(stubborn.size());
}

bool StopRequested() { return stopping.load(); }

}  // namespace rankmap::base
