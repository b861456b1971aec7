// Host names that reach launcher files, shell commands and file paths.
//
// Host names come from files any host can influence (SimGrid platforms,
// Slurm topology files, ibnetdiscover node descriptions, hwloc exports,
// profiles) and end up in rankfiles, hostfiles, `ssh` command lines and
// `--node DIR/<host>.xml` paths. One grammar is checked wherever they are
// read: the hostname grammar (RFC 1123 labels of letters, digits and '-',
// separated by dots) widened by '_' (common in simulated platforms and
// cluster node names). So a name can never start an option ('-'), break a
// line, climb a directory ('..', '/') or carry shell syntax.
//
//   RETURN_IF_ERROR(base::CheckHostName(name));   // "host name '-oProxy..."
#ifndef RANKMAP_BASE_HOST_NAME_H_
#define RANKMAP_BASE_HOST_NAME_H_

#include <string_view>

#include "absl/status/status.h"

namespace rankmap::base {

// Longest accepted name and label (RFC 1035/1123 limits).
inline constexpr size_t kMaxHostNameLength = 253;
inline constexpr size_t kMaxHostLabelLength = 63;

// OK when `name` is 1 to 253 characters of dot-separated labels, each 1 to 63
// characters of [A-Za-z0-9_-] that start and end with a letter, digit or '_'.
// The error (InvalidArgument) quotes the name, control and non-ASCII bytes
// escaped, at most 64 characters of it, and says what is wrong; callers
// prefix file and line. O(length).
absl::Status CheckHostName(std::string_view name);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_HOST_NAME_H_
