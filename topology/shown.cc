#include "topology/shown.h"

#include "absl/strings/escaping.h"

namespace rankmap::topology {

std::string Shown(std::string_view text, size_t max_chars) {
  const std::string_view shown = text.substr(0, max_chars);
  std::string out =
      absl::CHexEscape(absl::string_view(shown.data(), shown.size()));
  if (text.size() > max_chars) out += "...";
  return out;
}

std::string OneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
    } else {
      out += absl::CHexEscape(absl::string_view(&c, 1));
    }
  }
  return out;
}

}  // namespace rankmap::topology
