#include "sim/subprocess.h"

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/subprocess.h"

namespace rankmap::sim {

absl::StatusOr<ProcessResult> RunProcess(std::vector<std::string> argv,
                                         const std::string& work_dir,
                                         std::string_view tag) {
  const std::string name(tag);
  base::SubprocessOptions options;
  options.stdout_path = absl::StrCat(work_dir, "/", name, ".out");
  options.stderr_path = absl::StrCat(work_dir, "/", name, ".err");
  options.work_dir = work_dir;
  options.env = {{"TMPDIR", work_dir}};
  ASSIGN_OR_RETURN(const base::SubprocessResult run,
                   base::RunSubprocess(argv, options));
  ProcessResult result;
  // Bounded: what is read are the closing lines (a time, a reason).
  result.out =
      base::ReadFileTail(options.stdout_path, kMaxOutputBytes, name + " output")
          .value_or("");
  result.err =
      base::ReadFileTail(options.stderr_path, kMaxErrorBytes, name + " errors")
          .value_or("");
  result.signal = run.signal;
  result.exit_status = run.signal != 0 ? 128 + run.signal : run.exit_code;
  return result;
}

}  // namespace rankmap::sim
