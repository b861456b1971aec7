#include "base/shell_quote.h"

namespace rankmap::base {
namespace {

bool IsPlain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '@' || c == '%' ||
         c == '+' || c == '=' || c == ':' || c == ',' || c == '.' || c == '/' ||
         c == '-';
}

}  // namespace

std::string ShellQuote(std::string_view word) {
  // A leading '-' stays plain: quotes would not stop a program reading an
  // option. A leading '~' would expand.
  bool plain = !word.empty() && word.front() != '~';
  for (char c : word) plain = plain && IsPlain(c);
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

std::string ShellJoin(std::span<const std::string> words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += ShellQuote(w);
  }
  return out;
}

}  // namespace rankmap::base
