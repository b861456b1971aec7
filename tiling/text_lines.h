// The data lines of the package's small text formats (speed lists, speed
// functions, partitions): '#' starts a comment, blank lines are skipped, a
// trailing '\r' is dropped, tokens are separated by blanks; the same rules as
// base::SplitLines. Tokens are views into the text, so a file of millions of
// lines costs no copy: SplitLines keeps a string per token, about 15 times
// the text, which a hostile file would turn into gigabytes.
//
//   RETURN_IF_ERROR(ForEachTextLine(text, [&](const TextLine& l) {
//     if (l.tokens[0] != "grid") return base::LineError(name, l.number, "...");
//     return absl::OkStatus();
//   }));
#ifndef RANKMAP_TILING_TEXT_LINES_H_
#define RANKMAP_TILING_TEXT_LINES_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"

namespace rankmap::tiling {

struct TextLine {
  int64_t number = 0;                    // 1-based
  std::vector<std::string_view> tokens;  // never empty
  std::vector<int64_t> columns;          // 1-based, one per token
};

// Calls fn on every line that has a token, in order; returns the first error
// fn returns. O(size of text); the TextLine is reused from line to line.
absl::Status ForEachTextLine(
    std::string_view text, absl::FunctionRef<absl::Status(const TextLine&)> fn);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_TEXT_LINES_H_
