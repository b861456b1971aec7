#include "cli/json_mapping.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/lines.h"
#include "base/status_macros.h"

namespace rankmap::cli {
namespace {

// Characters of numbers and the literals true, false, null.
bool IsScalarChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' ||
         c == '+' || c == '.' || c == 'E';
}

// `s` for a one-line message: at most 40 characters, control and non-ASCII
// bytes as \xNN.
std::string Printable(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7f) {
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", c));
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > 40) out += "...";
  return out;
}

class JsonScanner {
 public:
  JsonScanner(std::string_view text, std::string_view name)
      : text_(text), name_(name) {}

  absl::StatusOr<core::Mapping> TopLevelMapping() {
    if (!Consume('{')) return Error("not a JSON object");
    std::optional<core::Mapping> mapping;
    if (!Consume('}')) {
      while (true) {
        SkipSpace();
        if (Peek() != '"') return Error("expected a key in quotes");
        ASSIGN_OR_RETURN(const std::string key, String());
        if (!Consume(':')) {
          return Error(
              absl::StrCat("no ':' after key \"", Printable(key), "\""));
        }
        if (key == "mapping") {
          if (mapping) return Error("a second top-level \"mapping\" key");
          ASSIGN_OR_RETURN(core::Mapping m, LeafArray());
          mapping = std::move(m);
        } else {
          RETURN_IF_ERROR(SkipValue());
        }
        if (Consume('}')) break;
        if (!Consume(',')) return Error("expected ',' or '}' after a value");
      }
    }
    const int64_t closed = line_;  // where the object ends
    SkipSpace();
    if (pos_ < text_.size()) return Error("text after the object");
    if (!mapping) {
      line_ = closed;
      return Error("no top-level \"mapping\" key");
    }
    return *std::move(mapping);
  }

 private:
  absl::Status Error(std::string_view what) const {
    return base::LineError(
        name_, line_,
        absl::StrCat(std::string(what),
                     " (expected a JSON object with a top-level \"mapping\" "
                     "array of leaf indexes)"));
  }

  void SkipSpace() {
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
    }
  }

  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  bool Consume(char c) {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  // The string whose opening quote is at pos_, escapes decoded (\u escapes
  // above ASCII become '?': only ASCII keys matter here).
  absl::StatusOr<std::string> String() {
    std::string out;
    for (++pos_; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return Error("a control character or line break inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (++pos_ >= text_.size()) break;
      const char e = text_[pos_];
      static constexpr std::string_view kFrom = "\"\\/bfnrt";
      static constexpr std::string_view kTo = "\"\\/\b\f\n\r\t";
      if (const size_t k = kFrom.find(e); k != std::string_view::npos) {
        out += kTo[k];
        continue;
      }
      uint32_t code = 0;
      const char* hex = text_.data() + pos_ + 1;
      if (e != 'u' || pos_ + 4 >= text_.size() ||
          std::from_chars(hex, hex + 4, code, 16).ptr != hex + 4) {
        return Error("a bad escape inside a string");
      }
      out += code < 0x80 ? static_cast<char>(code) : '?';
      pos_ += 4;
    }
    return Error("a string without its closing quote");
  }

  // One value of any kind and depth, checked for balance, without recursion.
  absl::Status SkipValue() {
    std::vector<char> closers;
    do {
      SkipSpace();
      if (pos_ >= text_.size()) return Error("end of file inside a value");
      const char c = text_[pos_];
      if (c == '"') {
        RETURN_IF_ERROR(String().status());
      } else if (c == '{' || c == '[') {
        closers.push_back(c == '{' ? '}' : ']');
        ++pos_;
      } else if (c == '}' || c == ']') {
        if (closers.empty() || closers.back() != c) {
          return Error(absl::StrCat("an unbalanced '", std::string(1, c), "'"));
        }
        closers.pop_back();
        ++pos_;
      } else if ((c == ',' || c == ':') && !closers.empty()) {
        ++pos_;
      } else if (IsScalarChar(c)) {
        while (pos_ < text_.size() && IsScalarChar(text_[pos_])) ++pos_;
      } else {
        return Error(absl::StrCat("unexpected character '",
                                  Printable(std::string(1, c)), "'"));
      }
    } while (!closers.empty());
    return absl::OkStatus();
  }

  absl::StatusOr<core::Mapping> LeafArray() {
    if (!Consume('[')) return Error("the \"mapping\" value is not an array");
    core::Mapping m;
    if (Consume(']')) return m;
    while (true) {
      SkipSpace();
      const size_t start = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_;
      int64_t leaf = 0;
      const char* first = text_.data() + start;
      const char* last = text_.data() + pos_;
      const auto [end, ec] = std::from_chars(first, last, leaf);
      if (start == pos_ || ec != std::errc() || end != last ||
          leaf > INT32_MAX) {
        return Error(absl::StrCat("entry ", m.size(), " is not a leaf index"));
      }
      m.push_back(static_cast<core::LeafId>(leaf));
      if (Consume(']')) return m;
      if (!Consume(',')) {
        return Error(
            absl::StrCat("expected ',' or ']' after entry ", m.size()));
      }
    }
  }

  std::string_view text_;
  std::string_view name_;
  size_t pos_ = 0;
  int64_t line_ = 1;
};

}  // namespace

absl::StatusOr<core::Mapping> ParseJsonMapping(std::string_view text,
                                               std::string_view name) {
  return JsonScanner(text, name).TopLevelMapping();
}

}  // namespace rankmap::cli
