#include "graphs/foam_lexer.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/text_scanner.h"

namespace rankmap::graphs {
namespace {

bool IsBlank(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' ||
         c == '\f';
}

bool IsPunct(char c) {
  return c == ';' || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' ||
         c == ']';
}

}  // namespace

absl::Status FoamLexer::SkipBlanks() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (IsBlank(c)) {
      if (c == '\n') ++line_;
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      const size_t eol = text_.find('\n', pos_);
      pos_ = eol == std::string_view::npos ? text_.size() : eol;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
      const int64_t start = line_;
      const size_t close = text_.find("*/", pos_ + 2);
      const size_t stop =
          close == std::string_view::npos ? text_.size() : close;
      line_ += std::count(text_.begin() + pos_, text_.begin() + stop, '\n');
      if (close == std::string_view::npos) {
        pos_ = text_.size();
        return ErrorAt(start, "a '/*' comment that is never closed");
      }
      pos_ = close + 2;
    } else {
      break;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<FoamToken> FoamLexer::Next() {
  if (absl::Status s = SkipBlanks(); !s.ok()) return s;
  FoamToken t;
  t.line = line_;
  if (pos_ == text_.size()) return t;
  const char c = text_[pos_];
  if (IsPunct(c)) {
    t.kind = FoamToken::Kind::kPunct;
    t.text = text_.substr(pos_++, 1);
    return t;
  }
  if (c == '"') {
    size_t i = pos_ + 1;
    int64_t lines = 0;
    while (i < text_.size() && text_[i] != '"') {
      if (text_[i] == '\\' && i + 1 < text_.size()) ++i;
      if (text_[i] == '\n') ++lines;
      ++i;
    }
    if (i >= text_.size()) {
      pos_ = text_.size();
      return ErrorAt(t.line, "a string that is never closed");
    }
    t.kind = FoamToken::Kind::kString;
    t.text = text_.substr(pos_ + 1, i - pos_ - 1);
    line_ += lines;
    pos_ = i + 1;
    return t;
  }
  size_t i = pos_;
  while (i < text_.size() && !IsBlank(text_[i]) && !IsPunct(text_[i]) &&
         text_[i] != '"') {
    ++i;
  }
  t.kind = FoamToken::Kind::kWord;
  t.text = text_.substr(pos_, i - pos_);
  pos_ = i;
  return t;
}

absl::StatusOr<FoamToken> FoamLexer::Peek() {
  const size_t pos = pos_;
  const int64_t line = line_;
  absl::StatusOr<FoamToken> t = Next();
  pos_ = pos;
  line_ = line;
  return t;
}

bool FoamLexer::TakeRaw(size_t n, std::string_view* bytes) {
  if (n > remaining()) return false;
  *bytes = text_.substr(pos_, n);
  line_ += std::count(bytes->begin(), bytes->end(), '\n');
  pos_ += n;
  return true;
}

absl::Status FoamLexer::Expected(const FoamToken& found,
                                 std::string_view expected) const {
  return ErrorAt(found.line, absl::StrCat("expected ", std::string(expected),
                                          ", found ", Describe(found)));
}

absl::Status FoamLexer::ErrorAt(int64_t line, std::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(name_, ":", line, ": ", std::string(message)));
}

std::string Describe(const FoamToken& token) {
  switch (token.kind) {
    case FoamToken::Kind::kEnd:
      return "end of file";
    case FoamToken::Kind::kString:
      return token.text.empty()
                 ? std::string("an empty string")
                 : absl::StrCat("the string ", base::Quote(token.text));
    default:
      return base::Quote(token.text);
  }
}

}  // namespace rankmap::graphs
