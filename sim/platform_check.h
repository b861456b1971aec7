// The check every platform passes before a simulation runs on it: SimGrid's
// own loader, in a subprocess (sim/platform_check_main.cc), so that a
// platform rankmap reads but SMPI refuses or aborts on (no DOCTYPE line, a
// link of 1e-5 bytes/s) is reported in one line naming the file instead of as
// SMPI's last log line after a failed run.
//
//   RETURN_IF_ERROR(CheckPlatform("p.xml", {"n0", "n1"}, dir.path()));
#ifndef RANKMAP_SIM_PLATFORM_CHECK_H_
#define RANKMAP_SIM_PLATFORM_CHECK_H_

#include <span>
#include <string>

#include "absl/status/status.h"

namespace rankmap::sim {

// Loads `platform` with SimGrid and checks its links' bandwidths and
// latencies, its hosts' speeds (bounds in platform_check_main.cc), and that
// every name in `hosts` is one of its hosts; writes its files into
// `work_dir`. Errors: InvalidArgument with the check's one line (naming the
// platform file); FailedPrecondition when the check cannot run (not found
// beside the binary, or libsimgrid missing, naming libsimgrid-dev).
absl::Status CheckPlatform(const std::string& platform,
                           std::span<const std::string> hosts,
                           const std::string& work_dir);

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_PLATFORM_CHECK_H_
