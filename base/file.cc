#include "base/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::base {
namespace {

struct Closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, Closer>;

// An open regular file and its size. stat before open: opening a FIFO for
// reading blocks until a writer comes, so a FIFO, device or directory is
// refused without being opened. The descriptor is opened non-blocking and
// checked again, in case the path was replaced in between.
struct OpenFile {
  FilePtr file;
  int64_t size = 0;
};

absl::StatusOr<OpenFile> OpenRegular(const std::string& path,
                                     std::string_view what) {
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
  OpenFile f{FilePtr(fdopen(fd, "rb"))};
  if (f.file == nullptr) {
    close(fd);
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": cannot open ", std::string(what), ": ", std::strerror(errno)));
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return not_regular();
  f.size = static_cast<int64_t>(st.st_size);
  return f;
}

absl::StatusOr<std::string> ReadAt(const std::string& path, std::FILE* file,
                                   int64_t offset, int64_t size) {
  std::string text(static_cast<size_t>(size), '\0');
  if (offset > 0 && std::fseek(file, static_cast<long>(offset), SEEK_SET) != 0)
    return absl::DataLossError(
        absl::StrCat(path, ": cannot seek: ", std::strerror(errno)));
  const size_t got = size > 0 ? std::fread(text.data(), 1, text.size(), file)
                              : 0;
  if (got != text.size()) {
    return absl::DataLossError(
        absl::StrCat(path, ": short read: ", std::strerror(errno)));
  }
  return text;
}

}  // namespace

absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     std::string_view what, int64_t max_bytes) {
  ASSIGN_OR_RETURN(OpenFile f, OpenRegular(path, what));
  if (f.size > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": ", std::string(what), " of ", f.size,
                     " bytes exceeds the limit of ", max_bytes, " bytes"));
  }
  return ReadAt(path, f.file.get(), 0, f.size);
}

absl::StatusOr<std::string> ReadFileTail(const std::string& path,
                                         int64_t max_bytes,
                                         std::string_view what) {
  ASSIGN_OR_RETURN(OpenFile f, OpenRegular(path, what));
  const int64_t keep = std::clamp<int64_t>(f.size, 0, std::max<int64_t>(0, max_bytes));
  ASSIGN_OR_RETURN(std::string text,
                   ReadAt(path, f.file.get(), f.size - keep, keep));
  // A cut line is no line: start after the first line break.
  if (keep < f.size) {
    const size_t nl = text.find('\n');
    text.erase(0, nl == std::string::npos ? text.size() : nl + 1);
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
