#include "graphs/fuzz/mutate.h"

#include <cctype>
#include <cstdlib>
#include <iterator>

namespace rankmap::graphs::fuzz {
namespace {

const char* const kHostileTokens[] = {
    "-1",  "0",    "1",      "2147483647", "2147483648", "99999999999999999999",
    "nan", "inf",  "-inf",   "1e308",      "1e-320",     "-0",
    "+",   "0x10", "1.5",    "1e",         "%",          "#",
    "",    "111",  "1000000"};

const char kAlphabet[] = "0123456789 \n\t-+.eE%#naif\r";

}  // namespace

std::string Mutate(std::string s, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t pos = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 8) {
      case 0:  // replace a byte
        if (!s.empty()) s[pos] = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
        break;
      case 1:  // arbitrary byte, including NUL and high bytes
        if (!s.empty()) s[pos] = static_cast<char>(rng() % 256);
        break;
      case 2:  // delete a short range
        s.erase(pos, 1 + rng() % 8);
        break;
      case 3:  // insert a few characters
        s.insert(pos, std::string(1 + rng() % 3,
                                  kAlphabet[rng() % (sizeof(kAlphabet) - 1)]));
        break;
      case 4: {  // swap the token at pos for a hostile one
        size_t b = pos, t = pos;
        while (b > 0 && !std::isspace(static_cast<unsigned char>(s[b - 1])))
          --b;
        while (t < s.size() && !std::isspace(static_cast<unsigned char>(s[t])))
          ++t;
        s.replace(b, t - b, kHostileTokens[rng() % std::size(kHostileTokens)]);
        break;
      }
      case 5: {  // duplicate the line containing pos
        const size_t b = s.rfind('\n', pos == 0 ? 0 : pos - 1);
        const size_t start = b == std::string::npos || pos == 0 ? 0 : b + 1;
        size_t end = s.find('\n', pos);
        end = end == std::string::npos ? s.size() : end + 1;
        s.insert(start, s.substr(start, end - start));
        break;
      }
      case 6: {  // delete the line containing pos
        const size_t b = s.rfind('\n', pos == 0 ? 0 : pos - 1);
        const size_t start = b == std::string::npos || pos == 0 ? 0 : b + 1;
        size_t end = s.find('\n', pos);
        end = end == std::string::npos ? s.size() : end + 1;
        s.erase(start, end - start);
        break;
      }
      default:  // truncate
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

}  // namespace rankmap::graphs::fuzz
