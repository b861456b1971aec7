#include "tests/limited_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace rankmap {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// In the child: the limit, the output files, then exec (never returns).
[[noreturn]] void ExecLimited(const std::string& binary,
                              const std::vector<std::string>& args,
                              int64_t limit_bytes, const std::string& out,
                              const std::string& err) {
  struct rlimit l = {static_cast<rlim_t>(limit_bytes),
                     static_cast<rlim_t>(limit_bytes)};
  setrlimit(RLIMIT_AS, &l);
  const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  dup2(o, 1);
  dup2(e, 2);
  std::vector<char*> argv = {const_cast<char*>(binary.c_str())};
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}

}  // namespace

LimitedRun RunLimited(const std::string& binary, const std::string& name,
                      const std::vector<std::string>& args, int64_t limit_bytes,
                      double kill_after_seconds) {
  const std::string out = TempDir() + "/" + name + ".out";
  const std::string err = TempDir() + "/" + name + ".err";
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) ExecLimited(binary, args, limit_bytes, out, err);
  LimitedRun r;
  int status = 0;
  struct rusage usage = {};
  const auto deadline =
      start + std::chrono::duration<double>(kill_after_seconds);
  for (;;) {
    if (wait4(pid, &status, WNOHANG, &usage) == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      r.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  r.max_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = Slurp(out);
  r.err = Slurp(err);
  std::printf("%-28s exit %d%s  %6.2f s  %7.1f MiB  %s", name.c_str(),
              r.exit_code, r.signal ? " (signal)" : "", r.seconds,
              r.max_rss_kb / 1024.0, r.err.empty() ? "\n" : r.err.c_str());
  if (!r.err.empty() && r.err.back() != '\n') std::printf("\n");
  return r;
}

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace rankmap
