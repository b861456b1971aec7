#include "sim/subprocess.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "base/file.h"

namespace rankmap::sim {

absl::StatusOr<ProcessResult> RunProcess(std::vector<std::string> argv,
                                         const std::string& work_dir,
                                         std::string_view tag) {
  const std::string name(tag);
  const std::string out_path = absl::StrCat(work_dir, "/", name, ".out");
  const std::string err_path = absl::StrCat(work_dir, "/", name, ".err");
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    return absl::InternalError(
        absl::StrCat("simulate: fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0 || chdir(work_dir.c_str()) != 0)
      _exit(127);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    setenv("TMPDIR", work_dir.c_str(), 1);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return absl::InternalError(
          absl::StrCat("simulate: waitpid: ", std::strerror(errno)));
    }
  }
  ProcessResult result;
  result.out = base::ReadFile(out_path, name + " output").value_or("");
  result.err = base::ReadFile(err_path, name + " errors").value_or("");
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  } else {
    result.exit_status = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace rankmap::sim
