#include "sim/platform_check.h"

#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "sim/smpirun.h"
#include "sim/subprocess.h"

namespace rankmap::sim {
namespace {

// The last non-empty line of `text`, without SimGrid's "[time] file:line:
// [category/LEVEL] " prefix.
std::string LastLine(std::string_view text) {
  std::string last;
  for (absl::string_view l :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    if (!absl::StripAsciiWhitespace(l).empty()) last = std::string(l);
  }
  const size_t tag = last.find("] ", last.find("/"));
  if (!last.empty() && last[0] == '[' && tag != std::string::npos)
    last = last.substr(tag + 2);
  return last.empty() ? "(no error output)" : last;
}

}  // namespace

absl::Status CheckPlatform(const std::string& platform,
                           std::span<const std::string> hosts,
                           const std::string& work_dir) {
  absl::StatusOr<std::string> check = FindSmpiProgram("platform_check");
  if (!check.ok())
    return absl::FailedPreconditionError(check.status().message());
  std::string list;
  for (const std::string& h : hosts) absl::StrAppend(&list, h, "\n");
  const std::string hosts_path = work_dir + "/platform_hosts";
  RETURN_IF_ERROR(base::WriteFile(hosts_path, list));
  ASSIGN_OR_RETURN(
      const ProcessResult r,
      RunProcess({*check, platform, hosts_path}, work_dir, "platform_check"));
  if (r.signal == 0 && r.exit_status == 0) return absl::OkStatus();
  if (r.signal == 0 && r.exit_status == 2) {
    return absl::InvalidArgumentError(LastLine(r.err));
  }
  if (r.signal == 0 && r.exit_status == 127) {
    return absl::FailedPreconditionError(
        absl::StrCat("simulate: cannot run the platform check ", *check, ": ",
                     LastLine(r.err),
                     " (SimGrid comes with the Debian package "
                     "libsimgrid-dev)"));
  }
  // SimGrid aborted inside its loader.
  return absl::InvalidArgumentError(
      absl::StrCat(platform, ": SimGrid cannot load it: ", LastLine(r.err)));
}

}  // namespace rankmap::sim
