// FoamLexer: the token syntax of OpenFOAM's files, as far as rankmap reads
// them (the FoamFile header, label lists, the boundary dictionary).
//
// Tokens: the punctuation ; { } ( ) [ ], double-quoted strings (a backslash
// escapes the next character; strings may span lines), and words: any other
// run of characters up to a blank, punctuation or quote (numbers are words,
// for base::ParseInt). `//` comments run to the end of the line and `/* */`
// comments may span lines, as in C++. Lines are 1-based; bytes of binary
// blocks (TakeRaw) are counted like any other, so lines after a block are
// lines of the file.
//
//   FoamLexer lex(text, "owner");
//   ASSIGN_OR_RETURN(FoamToken t, lex.Next());
//   if (!t.Is('(')) return lex.Expected(t, "'('");
#ifndef RANKMAP_GRAPHS_FOAM_LEXER_H_
#define RANKMAP_GRAPHS_FOAM_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rankmap::graphs {

struct FoamToken {
  enum class Kind { kEnd, kPunct, kString, kWord };
  Kind kind = Kind::kEnd;
  // The punctuation character, the word, or the string without its quotes
  // (escapes kept as written).
  std::string_view text;
  int64_t line = 0;

  bool Is(char punct) const {
    return kind == Kind::kPunct && text.size() == 1 && text[0] == punct;
  }
  bool IsWord() const { return kind == Kind::kWord; }
  bool IsEnd() const { return kind == Kind::kEnd; }
};

class FoamLexer {
 public:
  FoamLexer(std::string_view text, std::string_view name)
      : text_(text), name_(name) {}

  const std::string& name() const { return name_; }
  int64_t line() const { return line_; }
  size_t remaining() const { return text_.size() - pos_; }

  // The next token after blanks and comments; kEnd at the end of the text.
  // Errors: a string or a `/*` comment that is not closed.
  absl::StatusOr<FoamToken> Next();
  // The next token without consuming it.
  absl::StatusOr<FoamToken> Peek();

  // The next `n` bytes exactly as they are (a binary block), or false when
  // fewer remain (nothing is consumed then). O(n).
  bool TakeRaw(size_t n, std::string_view* bytes);

  // `name:line: expected <expected>, found <token>` (InvalidArgument).
  absl::Status Expected(const FoamToken& found,
                        std::string_view expected) const;
  // `name:line: <message>` (InvalidArgument).
  absl::Status ErrorAt(int64_t line, std::string_view message) const;

 private:
  // Skips blanks and comments. Error: an unclosed `/*`.
  absl::Status SkipBlanks();

  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 1;
  std::string name_;
};

// How a token appears in error messages: 'word', '(' , "string", end of file.
std::string Describe(const FoamToken& token);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FOAM_LEXER_H_
