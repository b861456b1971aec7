// Lines of a small text file (network specs, parameter files, speed lists,
// mappings, tleaf files) split into whitespace-separated tokens, with the line
// and column numbers every error message needs.
//
//   for (const base::Line& l : base::SplitLines(text)) {
//     if (l.tokens[0].text != "level")
//       return base::LineError(source, l.number, "expected 'level'");
//   }
//
// A comment character (default '#') ends a line's content; lines with no token
// left are dropped. A trailing '\r' (DOS line end) is removed.
//
// SplitLines copies every token (about 15 times the text in small strings);
// ForEachLine hands out views into the text instead, one line at a time, for
// readers whose input may be large (speed lists, speed functions,
// partitions), where a hostile file would otherwise cost gigabytes:
//
//   RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
//     if (l.tokens[0] != "grid") return base::LineError(name, l.number, "...");
//     return absl::OkStatus();
//   }));
//
// Large numeric files (graphs) use base::TextScanner.
#ifndef RANKMAP_BASE_LINES_H_
#define RANKMAP_BASE_LINES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"

namespace rankmap::base {

struct Token {
  std::string text;
  int32_t column = 0;  // 1-based
};

struct Line {
  int32_t number = 0;  // 1-based
  std::string text;    // the line without its comment
  std::vector<Token> tokens;

  // The rest of the line from token k on, as written (trailing blanks
  // removed); "" when k is past the last token.
  std::string Rest(size_t k) const;
};

// One line as views into the text; the same splitting as Line.
struct LineView {
  int64_t number = 0;                    // 1-based
  std::string_view text;                 // the line without its comment
  std::vector<std::string_view> tokens;  // never empty
  std::vector<int64_t> columns;          // 1-based, one per token
};

// Calls fn on every line that has a token, in order; returns the first error
// fn returns. comment == 0: no comments. O(size of text); the LineView is
// reused from line to line.
absl::Status ForEachLine(std::string_view text,
                         absl::FunctionRef<absl::Status(const LineView&)> fn,
                         char comment = '#');

// The non-empty lines of text. comment == 0: no comments. O(size of text).
std::vector<Line> SplitLines(std::string_view text, char comment = '#');

// `source:line: message` as InvalidArgument (the form every parser uses).
absl::Status LineError(std::string_view source, int64_t line,
                       std::string_view message);
// `source:line:column: message` as InvalidArgument.
absl::Status ColumnError(std::string_view source, int64_t line, int64_t column,
                         std::string_view message);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_LINES_H_
