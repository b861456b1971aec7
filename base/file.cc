#include "base/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"

namespace rankmap::base {
namespace {

struct Closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, Closer>;

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     std::string_view what, int64_t max_bytes) {
  // stat before open: opening a FIFO for reading blocks until a writer comes,
  // so a FIFO, device or directory is refused without being opened. The
  // descriptor is opened non-blocking and checked again, in case the path was
  // replaced in between.
  const auto not_regular = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not a regular file (expected a ", std::string(what), ")"));
  };
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return absl::NotFoundError(absl::StrCat(
        path, ": cannot open ", std::string(what), ": ", std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) return not_regular();
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return absl::NotFoundError(absl::StrCat(
        path, ": cannot open ", std::string(what), ": ", std::strerror(errno)));
  }
  FilePtr file(fdopen(fd, "rb"));
  if (file == nullptr) {
    close(fd);
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": cannot open ", std::string(what), ": ", std::strerror(errno)));
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return not_regular();
  const int64_t size = static_cast<int64_t>(st.st_size);
  if (size > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": ", std::string(what), " of ", size,
                     " bytes exceeds the limit of ", max_bytes, " bytes"));
  }
  std::string text(static_cast<size_t>(size), '\0');
  if (size > 0 &&
      std::fread(text.data(), 1, text.size(), file.get()) != text.size()) {
    return absl::DataLossError(
        absl::StrCat(path, ": short read: ", std::strerror(errno)));
  }
  return text;
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

absl::Status WriteFile(const std::string& path, std::string_view contents) {
  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (file == nullptr) {
    return absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot open for writing: ", std::strerror(errno)));
  }
  if (!contents.empty() && std::fwrite(contents.data(), 1, contents.size(),
                                       file.get()) != contents.size()) {
    return absl::DataLossError(
        absl::StrCat(path, ": write failed: ", std::strerror(errno)));
  }
  if (std::fclose(file.release()) != 0) {
    return absl::DataLossError(
        absl::StrCat(path, ": write failed: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace rankmap::base
