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

absl::Status ForEachLine(std::string_view text,
                         absl::FunctionRef<absl::Status(const LineView&)> fn,
                         char comment) {
  LineView line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++line.number;
    std::string_view content = text.substr(pos, end - pos);
    if (comment != 0) content = content.substr(0, content.find(comment));
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    line.text = content;
    line.tokens.clear();
    line.columns.clear();
    size_t i = 0;
    while (i < content.size()) {
      while (i < content.size() && IsBlank(content[i])) ++i;
      if (i >= content.size()) break;
      const size_t start = i;
      while (i < content.size() && !IsBlank(content[i])) ++i;
      line.tokens.push_back(content.substr(start, i - start));
      line.columns.push_back(static_cast<int64_t>(start) + 1);
    }
    if (!line.tokens.empty()) {
      if (absl::Status s = fn(line); !s.ok()) return s;
    }
    pos = end + 1;
  }
  return absl::OkStatus();
}

std::vector<Line> SplitLines(std::string_view text, char comment) {
  std::vector<Line> out;
  // fn never fails, so neither does ForEachLine.
  (void)ForEachLine(
      text,
      [&](const LineView& v) {
        Line l{static_cast<int32_t>(v.number), std::string(v.text), {}};
        for (size_t k = 0; k < v.tokens.size(); ++k) {
          l.tokens.push_back(
              {std::string(v.tokens[k]), static_cast<int32_t>(v.columns[k])});
        }
        out.push_back(std::move(l));
        return absl::OkStatus();
      },
      comment);
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
