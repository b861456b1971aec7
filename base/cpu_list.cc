#include "base/cpu_list.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rankmap::base {

std::string FormatCpuList(std::span<const int32_t> cpus) {
  std::vector<int32_t> v(cpus.begin(), cpus.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    absl::StrAppend(&out, out.empty() ? "" : ",", v[i]);
    if (j > i) absl::StrAppend(&out, "-", v[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace rankmap::base
