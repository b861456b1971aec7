#include "sim/smpirun.h"

#include <unistd.h>

#include <cstdlib>

#include "absl/strings/numbers.h"
#include <limits.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/runfiles.h"
#include "base/shell_quote.h"
#include "base/status_macros.h"
#include "sim/subprocess.h"

namespace rankmap::sim {
namespace {

// The line of a failed run's error output that says why: the last line the
// program wrote itself, else the last SimGrid log line ("[host:rank] ..."),
// smpirun's closing lines (the command it ran, "Execution failed with code
// N", backtraces) skipped.
std::string Reason(std::string_view text) {
  const std::vector<std::string> lines =
      absl::StrSplit(std::string(text), '\n');
  std::string log_line;
  for (size_t i = lines.size(); i-- > 0;) {
    const std::string& l = lines[i];
    if (l.empty() || l.rfind("Execution failed", 0) == 0 ||
        l.find("--cfg=") != std::string::npos || l.rfind("  ->", 0) == 0 ||
        l.rfind("Backtrace", 0) == 0 || l == "Aborted" ||
        l.find("did not return 0") != std::string::npos)
      continue;
    if (l[0] != '[') return l;
    if (log_line.empty()) log_line = l;
  }
  return log_line.empty() ? "(no error output)" : log_line;
}

// smpirun is a shell script that passes the program's arguments, the
// hostfile and its temporary directory on unquoted: they are split at
// blanks and expanded as globs. A word is safe when it holds only characters
// no shell treats specially (base/shell_quote.h).
bool SafeWord(std::string_view word) { return base::ShellQuote(word) == word; }

// The extension of a file name when it is plain letters and digits (".grf"),
// so a link keeps what tells the readers its format; else "".
std::string PlainExtension(const std::string& path) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return "";
  const std::string ext = path.substr(dot);
  for (size_t i = 1; i < ext.size(); ++i) {
    if (!std::isalnum(static_cast<unsigned char>(ext[i]))) return "";
  }
  return ext.size() > 1 ? ext : "";
}

}  // namespace

absl::StatusOr<std::string> SmpiSafePath(const std::string& path,
                                         const std::string& work_dir,
                                         std::string_view name) {
  if (SafeWord(path)) return path;
  const std::string link =
      absl::StrCat(std::string(name), PlainExtension(path));
  const std::string at = absl::StrCat(work_dir, "/", link);
  char cwd[PATH_MAX];
  const std::string target =
      path.starts_with('/') || getcwd(cwd, sizeof cwd) == nullptr
          ? path
          : absl::StrCat(cwd, "/", path);
  unlink(at.c_str());
  if (symlink(target.c_str(), at.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("simulate: cannot link ", at,
                                            ": ", std::strerror(errno)));
  }
  return link;  // relative: smpirun runs in work_dir
}

std::vector<std::string> SmpiModelFlags(SmpiModel model) {
  if (model == SmpiModel::kCalibrated) return {};
  return {"--cfg=network/model:CM02",
          "--cfg=network/crosstraffic:0",
          "--cfg=network/TCP-gamma:0",
          "--cfg=smpi/bw-factor:1",
          "--cfg=smpi/lat-factor:1",
          "--cfg=smpi/async-small-thresh:0",
          "--cfg=smpi/send-is-detached-thresh:0",
          "--cfg=smpi/os:0:0:0",
          "--cfg=smpi/or:0:0:0",
          "--cfg=smpi/ois:0:0:0",
          "--cfg=smpi/wtime:0"};
}

absl::StatusOr<SmpiModel> ParseSmpiModel(std::string_view name) {
  if (name == "calibrated") return SmpiModel::kCalibrated;
  if (name == "exact") return SmpiModel::kExact;
  return absl::InvalidArgumentError(
      absl::StrCat("--smpi_model: expected calibrated or exact, found '",
                   std::string(name), "'"));
}

absl::StatusOr<std::string> FindSmpirun() {
  const char* path = std::getenv("PATH");
  const std::vector<std::string> dirs =
      absl::StrSplit(path != nullptr ? path : "/usr/bin:/bin", ':');
  for (const std::string& dir : dirs) {
    const std::string candidate = absl::StrCat(dir, "/smpirun");
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return absl::FailedPreconditionError(
      "simulate: smpirun not found: install SimGrid's SMPI (Debian package "
      "libsimgrid-dev)");
}

absl::StatusOr<std::string> FindSmpiProgram(std::string_view name) {
  if (const char* d = std::getenv("RANKMAP_SIM_DIR")) {
    const std::string candidate = absl::StrCat(d, "/", std::string(name));
    if (base::IsRegularFile(candidate)) return candidate;
  }
  // Bazel's runfiles, else installed beside the binary or in ../sim.
  const std::vector<std::string> installed = {"../sim", "."};
  absl::StatusOr<std::string> found =
      base::FindBesideSelf(absl::StrCat("sim/", std::string(name)), installed);
  if (found.ok()) return found;
  return absl::NotFoundError(
      absl::StrCat("simulate: the SMPI program ", std::string(name),
                   " (built by //sim): ", found.status().message()));
}

absl::StatusOr<SmpiOutput> RunSmpi(const SmpiRun& run) {
  ASSIGN_OR_RETURN(const std::string smpirun, FindSmpirun());
  // smpirun's own temporary directory is its TMPDIR, the work directory.
  if (!SafeWord(run.work_dir)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "simulate: smpirun cannot work in '", run.work_dir,
        "' (it splits paths at blanks and expands globs)"));
  }
  ASSIGN_OR_RETURN(const std::string platform,
                   SmpiSafePath(run.platform, run.work_dir, "platform"));
  ASSIGN_OR_RETURN(const std::string hostfile,
                   SmpiSafePath(run.hostfile, run.work_dir, "hostfile"));
  ASSIGN_OR_RETURN(const std::string program,
                   SmpiSafePath(run.program, run.work_dir, "program"));
  std::vector<std::string> argv = {smpirun,
                                   "-np",
                                   absl::StrCat(run.ranks),
                                   "-platform",
                                   platform,
                                   "-hostfile",
                                   hostfile,
                                   "--cfg=smpi/privatization:no",
                                   "--cfg=smpi/simulate-computation:no",
                                   "--log=root.thresh:warning"};
  for (const std::string& f : SmpiModelFlags(run.model)) argv.push_back(f);
  for (const std::string& f : run.extra_flags) argv.push_back(f);
  argv.push_back(program);
  for (const std::string& a : run.args) {
    if (!SafeWord(a)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "simulate: smpirun would split or expand the argument '",
          a.substr(0, 200), "' (pass files through SmpiSafePath)"));
    }
    argv.push_back(a);
  }
  ASSIGN_OR_RETURN(const ProcessResult r,
                   RunProcess(std::move(argv), run.work_dir, "smpirun"));
  if (r.signal != 0) {
    return absl::InternalError(absl::StrCat(
        "simulate: smpirun killed by signal ", r.signal, ": ", Reason(r.err)));
  }
  if (r.exit_status != 0) {
    return absl::InternalError(
        absl::StrCat("simulate: smpirun exited with status ", r.exit_status,
                     ": ", Reason(r.err)));
  }
  return SmpiOutput{r.out, r.err};
}

absl::StatusOr<double> ParseTimePerIteration(std::string_view out) {
  constexpr std::string_view kKey = "time per iteration: ";
  const size_t at = out.find(kKey);
  if (at != std::string_view::npos) {
    std::string_view rest = out.substr(at + kKey.size());
    rest = rest.substr(0, rest.find(' '));
    double v = 0;
    if (absl::SimpleAtod(std::string(rest), &v)) return v;
  }
  return absl::InternalError(absl::StrCat(
      "simulate: no 'time per iteration' in the program's output: ",
      Reason(out)));
}

}  // namespace rankmap::sim
