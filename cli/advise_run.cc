#include "cli/advise_run.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"

namespace rankmap::cli {
namespace {

// The regular files and directories directly in `dir` (a profile keeps its
// hosts' hardware in a directory, prefix.hwloc/).
std::vector<std::string> EntriesIn(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    const std::string path = absl::StrCat(dir, "/", name);
    if (name != "." && name != ".." &&
        (base::IsRegularFile(path) || base::IsDirectory(path))) {
      names.push_back(name);
    }
  }
  closedir(d);
  return names;
}

// mkdir -p.
absl::Status MakeDirectories(const std::string& dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
      return absl::InvalidArgumentError(
          absl::StrCat("--output ", dir, ": cannot make ", part, ": ",
                       std::strerror(errno)));
    }
  }
  if (!base::IsDirectory(dir)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--output ", dir, ": not a directory"));
  }
  return absl::OkStatus();
}

bool HasControl(std::string_view path) {
  for (const char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  }
  return false;
}

absl::Status NoControl(std::string_view path) {
  if (!HasControl(path)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "--output: the path holds a control character (a line break would "
      "split the lines of the files and commands that name it)");
}

}  // namespace

absl::StatusOr<AdviseRun> AdviseRun::Start(const std::string& output) {
  RETURN_IF_ERROR(NoControl(output));
  if (output.empty()) {
    return absl::InvalidArgumentError("--output: an empty path");
  }
  RETURN_IF_ERROR(MakeDirectories(output));
  char resolved[PATH_MAX];
  if (realpath(output.c_str(), resolved) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--output ", output, ": cannot resolve: ", std::strerror(errno)));
  }
  RETURN_IF_ERROR(NoControl(resolved));
  ASSIGN_OR_RETURN(base::TempDir dir,
                   base::TempDir::CreateIn(resolved, "advise"));
  return AdviseRun(resolved, std::move(dir));
}

std::string AdviseRun::Published(std::string_view name) const {
  return absl::StrCat(output_, "/", std::string(name));
}

void AdviseRun::Publish(std::string_view family, base::FileBatch& files) const {
  const std::vector<std::string> fresh = EntriesIn(dir());
  std::set<std::string> names(fresh.begin(), fresh.end());
  bool family_written = false;
  for (const std::string& name : fresh) {
    files.Adopt(absl::StrCat(dir(), "/", name), Published(name));
    family_written = family_written || name.starts_with(family);
  }
  if (!family_written || family.empty()) return;
  for (const std::string& name : EntriesIn(output_)) {
    if (name.starts_with(family) && !names.count(name))
      files.RemoveAtCommit(Published(name));
  }
}

}  // namespace rankmap::cli
