// Whole-file reading and writing with errors that name the file and the reason
// (the operating system's text for errno).
//
//   ASSIGN_OR_RETURN(std::string text, base::ReadFile(path, "network spec"));
//   RETURN_IF_ERROR(base::WriteFile(path, text));
//
// ReadFile refuses what is not a regular file before opening it (opening a
// FIFO blocks until a writer comes) and files larger than max_bytes before
// allocating, so a stray path (a FIFO, a device, a directory, a 50 GB dump)
// can neither hang the process nor exhaust memory.
#ifndef RANKMAP_BASE_FILE_H_
#define RANKMAP_BASE_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::base {

// Default size limit of ReadFile: 1 GiB.
inline constexpr int64_t kMaxFileBytes = int64_t{1} << 30;

// The contents of path. `what` names the kind of file in messages ("cannot
// open <what>: No such file or directory"). Errors: NotFound (cannot open,
// with errno text), InvalidArgument ("<path>: not a regular file", checked by
// stat before the open), ResourceExhausted
// (larger than max_bytes), DataLoss (short read).
absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     std::string_view what = "file",
                                     int64_t max_bytes = kMaxFileBytes);

// At most the last `max_bytes` bytes of path, from the first line break on
// when the file is longer (no line is cut): a failed program's standard
// error, however large, costs max_bytes. Errors as ReadFile's.
absl::StatusOr<std::string> ReadFileTail(const std::string& path,
                                         int64_t max_bytes,
                                         std::string_view what = "file");

// True when path names an existing regular file (follows symlinks).
bool IsRegularFile(const std::string& path);

// True when path names an existing directory (follows symlinks).
bool IsDirectory(const std::string& path);

// Writes contents to path (replacing it). Errors name the path and errno text.
absl::Status WriteFile(const std::string& path, std::string_view contents);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_FILE_H_
