// Running one of sim/'s external programs (smpirun, the platform check) and
// collecting what it printed.
//
//   ASSIGN_OR_RETURN(ProcessResult r,
//                    RunProcess({"/usr/bin/smpirun", "-np", "4", ...},
//                               dir.path(), "smpirun"));
//   if (r.exit_status != 0) ... r.err ...
//
// The child runs in `work_dir`, which is also its TMPDIR, with standard input
// from /dev/null; its standard output and error go to <work_dir>/<tag>.out
// and .err, whose last kMaxOutputBytes and kMaxErrorBytes are read back once
// it ends (from a line start).
#ifndef RANKMAP_SIM_SUBPROCESS_H_
#define RANKMAP_SIM_SUBPROCESS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::sim {

inline constexpr int64_t kMaxOutputBytes = int64_t{1} << 20;
inline constexpr int64_t kMaxErrorBytes = int64_t{64} << 10;

struct ProcessResult {
  // The child's exit status (127: it could not start); 128 + the signal's
  // number when a signal killed it, as a shell reports it.
  int exit_status = 0;
  int signal = 0;  // the signal that killed it, 0 if it exited
  std::string out;      // its standard output
  std::string err;      // its standard error
};

// Runs argv[0] (a path) with `argv` and waits (base::RunSubprocess). Errors:
// an empty argv, an output file that cannot be opened, fork failing.
absl::StatusOr<ProcessResult> RunProcess(std::vector<std::string> argv,
                                         const std::string& work_dir,
                                         std::string_view tag);

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_SUBPROCESS_H_
