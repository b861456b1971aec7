#include "launch/cpu_sets.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace rankmap::launch {
namespace {

// 32-bit words of the set, least significant first; empty for the empty set.
std::vector<uint32_t> Words(std::span<const int32_t> pus) {
  std::vector<uint32_t> words;
  for (int32_t pu : pus) {
    const size_t w = static_cast<size_t>(pu) / 32;
    if (words.size() <= w) words.resize(w + 1, 0);
    words[w] |= uint32_t{1} << (pu % 32);
  }
  return words;
}

std::vector<int32_t> Sorted(std::span<const int32_t> pus) {
  std::vector<int32_t> v(pus.begin(), pus.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

std::string HexMask(std::span<const int32_t> pus) {
  const std::vector<uint32_t> words = Words(pus);
  if (words.empty()) return "0x0";
  std::string out = absl::StrFormat("0x%x", words.back());
  for (size_t w = words.size() - 1; w-- > 0;)
    absl::StrAppendFormat(&out, "%08x", words[w]);
  return out;
}

std::string HwlocCpuset(std::span<const int32_t> pus) {
  const std::vector<uint32_t> words = Words(pus);
  if (words.empty()) return "0x0";
  std::string out;
  for (size_t w = words.size(); w-- > 0;)
    absl::StrAppendFormat(&out, "%s0x%08x", out.empty() ? "" : ",", words[w]);
  return out;
}

std::string JoinPus(std::span<const int32_t> pus, std::string_view separator) {
  return absl::StrJoin(Sorted(pus), std::string(separator));
}

}  // namespace rankmap::launch
