#include "base/text_scanner.h"

#include <algorithm>
#include <charconv>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace rankmap::base {
namespace {

constexpr size_t kMaxQuotedLength = 32;

}  // namespace

absl::Status TextScanner::ErrorAt(int64_t line, std::string_view expected,
                                  std::string_view found) const {
  return absl::InvalidArgumentError(
      absl::StrCat(name_, ":", line, ": expected ", std::string(expected),
                   ", found ", std::string(found)));
}

absl::Status TextScanner::Message(std::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(name_, ":", line_, ": ", std::string(message)));
}

std::string Quote(std::string_view token) {
  if (token.empty()) return "end of line";
  std::string out = "'";
  const size_t shown = std::min(token.size(), kMaxQuotedLength);
  for (size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  if (shown < token.size()) out += "...";
  out.push_back('\'');
  return out;
}

std::string QuoteOrEof(std::string_view token) {
  return token.empty() ? std::string("end of file") : Quote(token);
}

namespace {

// Fast path for the common case of a short unsigned decimal: at most 15 digits,
// so the value is exact both as int64 and as double. Returns false (without
// side effects) otherwise.
bool ParseShortDigits(std::string_view token, int64_t* value) {
  if (token.empty() || token.size() > 15) return false;
  int64_t v = 0;
  for (char c : token) {
    const unsigned d = static_cast<unsigned>(c - '0');
    if (d > 9) return false;
    v = v * 10 + d;
  }
  *value = v;
  return true;
}

}  // namespace

bool ParseInt(std::string_view token, int64_t* value) {
  if (ParseShortDigits(token, value)) return true;
  const char* first = token.data();
  const char* last = first + token.size();
  if (first != last && *first == '+') ++first;
  if (first == last || *first == '+') return false;
  auto [ptr, ec] = std::from_chars(first, last, *value);
  return ec == std::errc() && ptr == last;
}

bool ParseReal(std::string_view token, double* value) {
  if (int64_t digits; ParseShortDigits(token, &digits)) {
    *value = static_cast<double>(digits);
    return true;
  }
  const char* first = token.data();
  const char* last = first + token.size();
  bool negate = false;
  // from_chars accepts a leading '-' but not '+'; handle both here so "+-1"
  // stays invalid.
  if (first != last && (*first == '+' || *first == '-')) {
    negate = *first == '-';
    ++first;
  }
  if (first == last || *first == '+' || *first == '-') return false;
  auto [ptr, ec] =
      std::from_chars(first, last, *value, std::chars_format::general);
  if (ec != std::errc() || ptr != last) return false;
  if (negate) *value = -*value;
  return true;
}

}  // namespace rankmap::base
