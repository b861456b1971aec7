#include "tiling/text_lines.h"

namespace rankmap::tiling {
namespace {

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

absl::Status ForEachTextLine(
    std::string_view text,
    absl::FunctionRef<absl::Status(const TextLine&)> fn) {
  TextLine line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++line.number;
    std::string_view content = text.substr(pos, end - pos);
    content = content.substr(0, content.find('#'));
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

}  // namespace rankmap::tiling
