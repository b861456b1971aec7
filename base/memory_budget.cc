#include "base/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rankmap::base {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kFloor = int64_t{64} << 20;

// The memory limit of this process's cgroup (v2, then v1), or kMax.
int64_t CgroupLimit() {
  for (const char* path : {"/sys/fs/cgroup/memory.max",
                           "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream f(path);
    std::string word;
    int64_t v = 0;
    if (f >> word && absl::SimpleAtoi(word, &v) && v > 0) return v;
  }
  return kMax;
}

}  // namespace

int64_t MemoryBudget(int64_t requested) {
  if (requested > 0) return requested;
  int64_t budget = int64_t{4} << 30;  // when the machine cannot tell
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0)
    budget = static_cast<int64_t>(pages) * page_size / 2;
  budget = std::min(budget, CgroupLimit() / 2);
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur < static_cast<rlim_t>(kMax)) {
    budget = std::min(budget, static_cast<int64_t>(limit.rlim_cur) / 4 * 3);
  }
  return std::max(budget, kFloor);
}

std::string FormatBytes(int64_t bytes) {
  if (bytes < 1024) return absl::StrCat(bytes, " B");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f %s", v, units[u]);
  return buf;
}

int64_t SaturatingMulAdd(int64_t a, int64_t b, int64_t c) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return kMax;
  int64_t sum = 0;
  if (__builtin_add_overflow(product, c, &sum)) return kMax;
  return sum;
}

absl::Status CheckMemory(std::string_view what, int64_t bytes, int64_t budget) {
  if (bytes <= budget) return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat(std::string(what), " needs about ", FormatBytes(bytes),
                   ", above the memory budget of ", FormatBytes(budget)));
}

}  // namespace rankmap::base
