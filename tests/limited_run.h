// Runs a real command in a child process under an address-space limit and a
// hang guard, and reports how it ended: the hardening tests' way of checking
// that hostile inputs get an answer, not a crash, a hang or an exhausted
// machine. The guard is not a time budget: a run still going after
// kHangSeconds is taken for a hang and killed (SIGKILL), which the caller sees
// as `hung` (and signal 9); every case the tests run ends in about a second
// when the machine is idle.
//
//   const LimitedRun r = RunLimited(rankmap, "fifo", {"topology", "--topology",
//                                                     path});
//   EXPECT_EQ(r.exit_code, 2);
//   EXPECT_EQ(CountLines(r.err), 1);
#ifndef RANKMAP_TESTS_LIMITED_RUN_H_
#define RANKMAP_TESTS_LIMITED_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rankmap {

inline constexpr int64_t kRunLimitBytes = int64_t{2} << 30;
inline constexpr double kHangSeconds = 300;

struct LimitedRun {
  int exit_code = -1;  // -1: killed by a signal
  int signal = 0;
  bool hung = false;  // still running after the hang guard: killed
  std::string out, err;
  double seconds = 0;
  int64_t max_rss_kb = 0;
};

// Runs `binary args...` with RLIMIT_AS = limit_bytes, stdout and stderr in
// files under the test's temporary directory named after `name`; kills it
// (SIGKILL) after kill_after_seconds (then `hung`). Prints one line per run
// (name, exit, time, peak RSS, stderr) into the test log.
LimitedRun RunLimited(const std::string& binary, const std::string& name,
                      const std::vector<std::string>& args,
                      int64_t limit_bytes = kRunLimitBytes,
                      double kill_after_seconds = kHangSeconds);

// Number of '\n' in s.
int CountLines(const std::string& s);

}  // namespace rankmap

#endif  // RANKMAP_TESTS_LIMITED_RUN_H_
