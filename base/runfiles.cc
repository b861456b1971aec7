#include "base/runfiles.h"

#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/file.h"

namespace rankmap::base {

std::string SelfExe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  return std::string(buf, static_cast<size_t>(n));
}

absl::StatusOr<std::string> FindBesideSelf(
    std::string_view relative, std::span<const std::string> installed) {
  const std::string rel(relative);
  const std::string exe = SelfExe();
  std::vector<std::string> candidates;
  if (!exe.empty()) candidates.push_back(exe + ".runfiles/rankmap/" + rel);
  for (const char* env : {"RUNFILES_DIR", "TEST_SRCDIR"}) {
    if (const char* d = std::getenv(env))
      candidates.push_back(absl::StrCat(d, "/rankmap/", rel));
  }
  if (!exe.empty()) {
    const std::string dir = exe.substr(0, exe.rfind('/'));
    const std::string name = rel.substr(rel.rfind('/') + 1);
    for (const std::string& d : installed)
      candidates.push_back(absl::StrCat(dir, "/", d, "/", name));
  }
  for (const std::string& c : candidates) {
    if (IsRegularFile(c)) return c;
  }
  return absl::NotFoundError(absl::StrCat("cannot find ", rel, " (looked in ",
                                          absl::StrJoin(candidates, ", "),
                                          ")"));
}

}  // namespace rankmap::base
