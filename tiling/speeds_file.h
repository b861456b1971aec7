// Speed lists: the relative speed of each processor (process), the input of
// every heterogeneous partition. `rankmap frontend --speeds FILE` reads one,
// `rankmap frontend summa|square-corner --output G` writes G.speeds (the
// speed each process's rectangle was computed for) and `rankmap map
// --process-speeds G.speeds` reads it back.
//
// Format (text): numbers separated by white space, one per process in order;
// '#' starts a comment.
//   # two fast processes, then four slow ones
//   4 4
//   1 1 1 1
// Speeds are relative, finite and within [kMinSpeed, kMaxSpeed]: far beyond
// any real ratio, and narrow enough that no share of a partition underflows
// to zero or overflows. Errors name the source and line: "speeds.txt:3:
// expected a positive speed, found 'abc'".
//
// Usage:
//   ASSIGN_OR_RETURN(std::vector<double> s, ReadSpeedsFile("g.edges.speeds"));
#ifndef RANKMAP_TILING_SPEEDS_FILE_H_
#define RANKMAP_TILING_SPEEDS_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::tiling {

inline constexpr double kMinSpeed = 1e-100;
inline constexpr double kMaxSpeed = 1e100;

// Parses the format above; `name` is used in messages. The speeds are counted
// before they are stored: more than base::MemoryBudget(max_memory_bytes)
// allows is ResourceExhausted. Errors: a token that is not a number in
// [kMinSpeed, kMaxSpeed], no speed at all. O(size of text).
absl::StatusOr<std::vector<double>> ParseSpeeds(std::string_view text,
                                                std::string_view name,
                                                int64_t max_memory_bytes = 0);
// ParseSpeeds on the file at `path`; also an unreadable file.
absl::StatusOr<std::vector<double>> ReadSpeedsFile(
    const std::string& path, int64_t max_memory_bytes = 0);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_SPEEDS_FILE_H_
