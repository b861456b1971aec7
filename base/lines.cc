#include "base/lines.h"

#include "absl/strings/str_cat.h"

namespace rankmap::base {
namespace {

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::string Line::Rest(size_t k) const {
  if (k >= tokens.size()) return "";
  std::string s = text.substr(tokens[k].column - 1);
  while (!s.empty() && IsBlank(s.back())) s.pop_back();
  return s;
}

std::vector<Line> SplitLines(std::string_view text, char comment) {
  std::vector<Line> out;
  int32_t number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    std::string_view content = text.substr(pos, end - pos);
    if (comment != 0) content = content.substr(0, content.find(comment));
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    Line l{number, std::string(content), {}};
    size_t i = 0;
    while (i < content.size()) {
      while (i < content.size() && IsBlank(content[i])) ++i;
      if (i >= content.size()) break;
      const size_t start = i;
      while (i < content.size() && !IsBlank(content[i])) ++i;
      l.tokens.push_back({std::string(content.substr(start, i - start)),
                          static_cast<int32_t>(start) + 1});
    }
    if (!l.tokens.empty()) out.push_back(std::move(l));
    pos = end + 1;
  }
  return out;
}

absl::Status LineError(std::string_view source, int64_t line,
                       std::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(source), ":", line, ": ", std::string(message)));
}

absl::Status ColumnError(std::string_view source, int64_t line, int64_t column,
                         std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(
      std::string(source), ":", line, ":", column, ": ", std::string(message)));
}

}  // namespace rankmap::base
