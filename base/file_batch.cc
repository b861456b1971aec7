#include "base/file_batch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "base/leftovers.h"
#include "base/status_macros.h"

namespace rankmap::base {
namespace {

// "<dir>/.<name>.rankmap-XXXXXX" for mkstemp.
std::string TemporaryPattern(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);
  return absl::StrCat(dir, ".", name, ".rankmap-XXXXXX");
}

absl::Status WriteAll(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t n = write(fd, contents.data(), contents.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return absl::DataLossError(std::strerror(errno));
    contents.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

// Writes `contents` into an existing device or FIFO (a FIFO without a
// reader is an error, not a wait).
absl::Status WriteStream(const std::string& path, std::string_view contents) {
  const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot open for writing: ", std::strerror(errno)));
  }
  absl::Status written = WriteAll(fd, contents);
  close(fd);
  if (!written.ok()) {
    return absl::DataLossError(
        absl::StrCat(path, ": write failed: ", written.message()));
  }
  return absl::OkStatus();
}

}  // namespace

FileBatch::~FileBatch() { RemovePending(); }

void FileBatch::RemovePending() {
  for (const Pending& p : pending_) {
    if (p.temporary.empty()) continue;
    std::error_code ignored;
    std::filesystem::remove_all(p.temporary, ignored);
    ForgetTemporary(p.temporary);
  }
  pending_.clear();
}

void FileBatch::Adopt(const std::string& file, const std::string& path) {
  RegisterTemporary(file);
  pending_.push_back({file, path, std::nullopt});
}

void FileBatch::RemoveAtCommit(const std::string& path) {
  pending_.push_back({"", path, std::nullopt});
}

absl::Status FileBatch::Write(const std::string& path,
                              std::string_view contents, bool executable) {
  // A device or FIFO (--output /dev/null) is written, not replaced: at the
  // commit, in order.
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISDIR(st.st_mode)) {
    pending_.push_back({"", path, std::string(contents)});
    return absl::OkStatus();
  }
  std::string name = TemporaryPattern(path);
  const int fd = mkstemp(name.data());
  if (fd < 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot open for writing: ", std::strerror(errno)));
  }
  RegisterTemporary(name);
  pending_.push_back({name, path, std::nullopt});
  absl::Status written = WriteAll(fd, contents);
  if (fchmod(fd, executable ? 0755 : 0644) != 0 && written.ok()) {
    written = absl::PermissionDeniedError(std::strerror(errno));
  }
  if (close(fd) != 0 && written.ok()) {
    written = absl::DataLossError(std::strerror(errno));
  }
  if (!written.ok()) {
    return absl::DataLossError(
        absl::StrCat(path, ": write failed: ", written.message()));
  }
  return absl::OkStatus();
}

absl::Status FileBatch::Commit() {
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].stream) {
      RETURN_IF_ERROR(WriteStream(pending_[i].path, *pending_[i].stream));
      continue;
    }
    std::error_code ignored;
    if (pending_[i].temporary.empty()) {
      std::filesystem::remove_all(pending_[i].path, ignored);
      continue;
    }
    // An adopted directory replaces the one of an earlier run whole (rename
    // cannot replace a directory that holds files).
    if (std::filesystem::is_directory(pending_[i].temporary, ignored)) {
      std::filesystem::remove_all(pending_[i].path, ignored);
    }
    if (std::rename(pending_[i].temporary.c_str(), pending_[i].path.c_str()) !=
        0) {
      const int error = errno;
      const std::string path = pending_[i].path;
      pending_.erase(pending_.begin(), pending_.begin() + i);
      RemovePending();
      return absl::PermissionDeniedError(
          absl::StrCat(path, ": cannot write: ", std::strerror(error)));
    }
    ForgetTemporary(pending_[i].temporary);
  }
  pending_.clear();
  return absl::OkStatus();
}

}  // namespace rankmap::base
