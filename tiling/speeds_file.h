// Speed lists: the relative speed of each processor (process), the input of
// every heterogeneous partition. `rankmap frontend --speeds FILE` reads one,
// `rankmap frontend summa|square-corner --output G` writes G.speeds (the
// speed each process's rectangle was computed for) and `rankmap map
// --process-speeds G.speeds` reads it back.
//
// Format (text): positive finite numbers separated by white space, one per
// process in order; '#' starts a comment.
//   # two fast processes, then four slow ones
//   4 4
//   1 1 1 1
// Errors name the source and line: "speeds.txt:3: expected a positive speed,
// found 'abc'".
//
// Usage:
//   ASSIGN_OR_RETURN(std::vector<double> s, ReadSpeedsFile("g.edges.speeds"));
#ifndef RANKMAP_TILING_SPEEDS_FILE_H_
#define RANKMAP_TILING_SPEEDS_FILE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::tiling {

// Parses the format above; `name` is used in messages. Errors: a token that is
// not a positive finite number, no speed at all.
absl::StatusOr<std::vector<double>> ParseSpeeds(std::string_view text,
                                                std::string_view name);
// ParseSpeeds on the file at `path`; also an unreadable file.
absl::StatusOr<std::vector<double>> ReadSpeedsFile(const std::string& path);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_SPEEDS_FILE_H_
