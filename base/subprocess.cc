#include "base/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>
#include <thread>

extern char** environ;

#include "absl/strings/str_cat.h"
#include "base/leftovers.h"

namespace rankmap::base {
namespace {

// Child side: only async-signal-safe calls until exec (no allocation).
[[noreturn]] void ExecChild(char* const* argv, char* const* envp,
                            const char* out, const char* err, const char* dir) {
  setpgid(0, 0);
  const int in = open("/dev/null", O_RDONLY);
  if (in >= 0) dup2(in, 0);
  if (out != nullptr) {
    const int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(126);
    dup2(fd, 1);
  }
  if (err != nullptr) {
    const int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(126);
    dup2(fd, 2);
  }
  if (dir != nullptr && chdir(dir) != 0) _exit(126);
  // The caller may block signals (the command's stop handling): the child
  // starts with none blocked and default dispositions.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  execvpe(argv[0], argv, envp);
  _exit(127);
}

// Once the process is being stopped (base/leftovers.h) nothing may be
// reported as the child's outcome: the stop ends the process.
void BlockWhileStopping() {
  while (StopRequested()) std::this_thread::sleep_for(std::chrono::seconds(1));
}

}  // namespace

absl::StatusOr<SubprocessResult> RunSubprocess(
    std::span<const std::string> argv, const SubprocessOptions& options) {
  if (argv.empty()) return absl::InvalidArgumentError("no program to run");
  std::vector<std::string> words(argv.begin(), argv.end());
  std::vector<char*> cargv;
  for (std::string& w : words) cargv.push_back(w.data());
  cargv.push_back(nullptr);
  // The child's environment, built here: the child may only make
  // async-signal-safe calls, and setenv is not one.
  std::vector<std::string> env_words;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    bool overridden = false;
    for (const auto& [k, v] : options.env) {
      overridden = overridden ||
                   (entry.size() > k.size() && entry.substr(0, k.size()) == k &&
                    entry[k.size()] == '=');
    }
    if (!overridden) env_words.emplace_back(entry);
  }
  for (const auto& [k, v] : options.env) env_words.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (std::string& w : env_words) envp.push_back(w.data());
  envp.push_back(nullptr);
  // In a group of its own, registered: a stop of this process ends it.
  const pid_t pid = ForkRegistered();
  if (pid == 0) {
    ExecChild(
        cargv.data(), envp.data(),
        options.stdout_path.empty() ? nullptr : options.stdout_path.c_str(),
        options.stderr_path.empty() ? nullptr : options.stderr_path.c_str(),
        options.work_dir.empty() ? nullptr : options.work_dir.c_str());
  }
  if (pid < 0) {
    BlockWhileStopping();
    return absl::InternalError(
        absl::StrCat("cannot start ", argv[0], ": ", std::strerror(errno)));
  }
  const pid_t target = options.new_group ? -pid : pid;
  SubprocessResult result;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  bool termed = false, killed = false;
  int status = 0;
  for (;;) {
    const pid_t done =
        waitpid(pid, &status, options.timeout_seconds > 0 ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      return absl::InternalError(
          absl::StrCat("waiting for ", argv[0], ": ", std::strerror(errno)));
    }
    if (options.timeout_seconds <= 0) continue;
    const double t = elapsed();
    if (!termed && t >= options.timeout_seconds) {
      kill(target, SIGTERM);
      termed = true;
      result.timed_out = true;
    } else if (termed && !killed &&
               t >= options.timeout_seconds + options.grace_seconds) {
      kill(target, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ForgetChildGroup(pid);
  BlockWhileStopping();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  // What the stopped child left behind in its group does not outlive it.
  if (termed && options.new_group) kill(-pid, SIGKILL);
  return result;
}

std::string LastLines(const std::string& text, int lines) {
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  size_t begin = end;
  for (int n = 0; n < lines && begin > 0; ++n) {
    const size_t nl = text.rfind('\n', begin - 1);
    if (nl == std::string::npos) {
      begin = 0;
      break;
    }
    begin = n + 1 < lines ? nl : nl + 1;
  }
  if (begin < end && text[begin] == '\n') ++begin;
  return text.substr(begin, end - begin);
}

}  // namespace rankmap::base
