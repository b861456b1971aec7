#include "base/text_mutation.h"

#include <cctype>
#include <cstdlib>
#include <utility>

namespace rankmap::base {
namespace {

// [begin, end) of the line that holds pos, its '\n' included.
std::pair<size_t, size_t> LineAt(const std::string& s, size_t pos) {
  const size_t b = pos == 0 ? std::string::npos : s.rfind('\n', pos - 1);
  const size_t begin = b == std::string::npos ? 0 : b + 1;
  const size_t e = s.find('\n', pos);
  return {begin, e == std::string::npos ? s.size() : e + 1};
}

// [begin, end) of the blank-separated token that holds pos.
std::pair<size_t, size_t> TokenAt(const std::string& s, size_t pos) {
  size_t b = pos, e = pos;
  while (b > 0 && !std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  while (e < s.size() && !std::isspace(static_cast<unsigned char>(s[e]))) ++e;
  return {b, e};
}

void SwapToken(std::string& s, size_t pos, std::mt19937_64& rng,
               const MutationVocabulary& v) {
  auto [b, e] = TokenAt(s, pos);
  const std::string& hostile =
      v.hostile_tokens[rng() % v.hostile_tokens.size()];
  if (v.colon_values) {
    const size_t colon = s.find(':', b);
    if (colon != std::string::npos && colon < e && rng() % 2 == 0) {
      b = colon + 1;
    }
  }
  s.replace(b, e - b, hostile);
}

void SwapLines(std::string& s, size_t pos, std::mt19937_64& rng) {
  if (s.empty()) return;
  auto [b1, e1] = LineAt(s, pos);
  auto [b2, e2] = LineAt(s, rng() % s.size());
  if (b1 == b2) return;
  if (b2 < b1) {
    std::swap(b1, b2);
    std::swap(e1, e2);
  }
  std::string first = s.substr(b1, e1 - b1), second = s.substr(b2, e2 - b2);
  // A last line without '\n' keeps the text's ending where it was.
  if (e2 == s.size() && (second.empty() || second.back() != '\n')) {
    second.push_back('\n');
    first.pop_back();
  }
  s = s.substr(0, b1) + second + s.substr(e1, b2 - e1) + first + s.substr(e2);
}

}  // namespace

std::string MutateText(std::string s, std::mt19937_64& rng,
                       const MutationVocabulary& v) {
  auto letter = [&] { return v.alphabet[rng() % v.alphabet.size()]; };
  const int edits = 1 + static_cast<int>(rng() % v.max_edits);
  for (int e = 0; e < edits; ++e) {
    const size_t pos = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 9) {
      case 0:
        if (!s.empty()) s[pos] = letter();
        break;
      case 1:
        if (!s.empty()) s[pos] = static_cast<char>(rng() % 256);
        break;
      case 2:
        s.erase(pos, 1 + rng() % 8);
        break;
      case 3:
        s.insert(pos, std::string(1 + rng() % 3, letter()));
        break;
      case 4:
        SwapToken(s, pos, rng, v);
        break;
      case 5: {
        const auto [b, end] = LineAt(s, pos);
        s.insert(b, s.substr(b, end - b));
        break;
      }
      case 6: {
        const auto [b, end] = LineAt(s, pos);
        s.erase(b, end - b);
        break;
      }
      case 7:
        SwapLines(s, pos, rng);
        break;
      default:
        s.resize(pos);
        break;
    }
  }
  return s;
}

int64_t EnvOr(const char* name, int64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoll(value) : fallback;
}

}  // namespace rankmap::base
