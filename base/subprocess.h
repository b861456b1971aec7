// Running another program and waiting for it: argv (no shell), its output to
// files, extra environment variables, an optional time limit after which it
// is stopped (SIGTERM, then SIGKILL after a grace period). Every child runs in
// a process group of its own, registered while it runs (base/leftovers.h), so
// that a stopped rankmap ends it and everything it started (the terminal's
// Ctrl-C reaches rankmap, whose stop passes it on). A launcher stops its ranks
// when it gets SIGTERM; for programs that do not pass it on, `new_group`
// makes the time limit signal the whole group.
//
//   SubprocessOptions o;
//   o.stderr_path = dir + "/job.err";
//   o.timeout_seconds = 60;
//   ASSIGN_OR_RETURN(SubprocessResult r, RunSubprocess({"mpirun", ...}, o));
//   if (r.timed_out) ...   // stopped after 60 s
#ifndef RANKMAP_BASE_SUBPROCESS_H_
#define RANKMAP_BASE_SUBPROCESS_H_

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::base {

struct SubprocessOptions {
  std::string stdout_path;  // "": the caller's standard output
  std::string stderr_path;  // "": the caller's standard error
  std::string work_dir;     // "": the caller's
  // Set in the child's environment (over the inherited one).
  std::vector<std::pair<std::string, std::string>> env;
  // 0: no limit. Otherwise the child (its group with new_group) gets SIGTERM
  // after this many seconds, and SIGKILL `grace_seconds` later if it is still
  // running.
  double timeout_seconds = 0;
  double grace_seconds = 5;
  bool new_group = false;
};

struct SubprocessResult {
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  bool timed_out = false;  // the time limit stopped it
};

// Runs argv[0] (searched in PATH when it has no '/'), standard input from
// /dev/null. Errors: an empty argv, an output
// file that cannot be opened, fork failing; a program that cannot be executed
// exits with 127 (as a shell reports it).
absl::StatusOr<SubprocessResult> RunSubprocess(
    std::span<const std::string> argv, const SubprocessOptions& options = {});

// The last `lines` lines of `text` (for reporting a failed program's
// standard error), without a trailing newline.
std::string LastLines(const std::string& text, int lines);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_SUBPROCESS_H_
