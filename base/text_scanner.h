// TextScanner: a fast whitespace tokenizer over an in-memory file, with line
// tracking for error messages of the form `name:line: expected X, found Y`.
//
// The graph readers hold the whole file in memory (one read) and walk it with
// this scanner; tokens are views into the text, numbers are parsed with
// std::from_chars. Blanks are space, tab, CR, VT and FF; '\n' ends a line.
// Lines are 1-based.
//
// Usage:
//   TextScanner s(text, "app.graph");
//   std::string_view tok = s.TokenOnLine();          // "" at end of line
//   int64_t n;
//   if (!ParseInt(tok, &n)) return s.Error("an integer vertex count",
//   Quote(tok)); s.NextLine();
#ifndef RANKMAP_BASE_TEXT_SCANNER_H_
#define RANKMAP_BASE_TEXT_SCANNER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace rankmap::base {

class TextScanner {
 public:
  TextScanner(std::string_view text, std::string_view name)
      : p_(text.data()), end_(text.data() + text.size()), name_(name) {}

  // 1-based line of the current position.
  int64_t line() const { return line_; }
  const std::string& name() const { return name_; }
  bool AtEndOfFile() const { return p_ == end_; }
  // Bytes not yet consumed.
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  // Skips blanks, then reports whether the current line has no more tokens.
  bool AtEndOfLine() {
    SkipBlanks();
    return p_ == end_ || *p_ == '\n';
  }

  // The next token on the current line, or "" when the line has no more.
  // O(token length).
  std::string_view TokenOnLine() {
    SkipBlanks();
    const char* start = p_;
    while (p_ != end_ && !IsSpace(*p_)) ++p_;
    return {start, static_cast<size_t>(p_ - start)};
  }

  // The next token anywhere (crossing line ends, which are counted), or "" at
  // end of file.
  std::string_view Token() {
    while (p_ != end_ && IsSpace(*p_)) {
      if (*p_ == '\n' && p_ + 1 != end_) ++line_;
      ++p_;
    }
    const char* start = p_;
    while (p_ != end_ && !IsSpace(*p_)) ++p_;
    return {start, static_cast<size_t>(p_ - start)};
  }

  // Moves past the next '\n' (to the end of the file when there is none). A
  // final '\n' does not start a new line, so errors at the end of a file name
  // its last line.
  void NextLine() {
    while (p_ != end_ && *p_ != '\n') ++p_;
    if (p_ != end_) {
      ++p_;
      if (p_ != end_) ++line_;
    }
  }

  // The first non-blank character of the rest of the current line, or '\n' when
  // there is none.
  char PeekOnLine() {
    SkipBlanks();
    return p_ == end_ ? '\n' : *p_;
  }

  // Skips blank lines and lines whose first non-blank character is `comment`
  // (if nonzero). Leaves the scanner at the start of a data line or at the end
  // of the file.
  void SkipBlankAndCommentLines(char comment) {
    while (p_ != end_) {
      const char c = PeekOnLine();
      if (c == '\n' || (comment != 0 && c == comment)) {
        if (p_ == end_) return;
        NextLine();
      } else {
        return;
      }
    }
  }

  // `name:line: expected <expected>, found <found>` as InvalidArgument.
  absl::Status Error(std::string_view expected, std::string_view found) const {
    return ErrorAt(line_, expected, found);
  }
  absl::Status ErrorAt(int64_t line, std::string_view expected,
                       std::string_view found) const;
  // `name:line: <message>` as InvalidArgument.
  absl::Status Message(std::string_view message) const;

 private:
  static bool IsSpace(char c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' ||
           c == '\f';
  }
  void SkipBlanks() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\r' ||
                          *p_ == '\v' || *p_ == '\f')) {
      ++p_;
    }
  }

  const char* p_;
  const char* end_;
  int64_t line_ = 1;
  std::string name_;
};

// How a token appears in an error message: 'tok' (truncated, non-printable
// bytes escaped), or `end of line` for an empty token.
std::string Quote(std::string_view token);
// Same, but an empty token reads `end of file`.
std::string QuoteOrEof(std::string_view token);

// Parses a whole token as a decimal integer with an optional sign. False on
// anything else, including overflow of int64.
bool ParseInt(std::string_view token, int64_t* value);
// Parses a whole token as a real: optional sign, digits, fraction, exponent;
// also "inf" and "nan" spellings (callers reject non-finite values with their
// own message). False on anything else, including magnitudes that overflow
// double.
bool ParseReal(std::string_view token, double* value);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_TEXT_SCANNER_H_
