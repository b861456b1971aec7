// How much memory one request (a file to read, a tree to build, a mapping to
// compute) may take, and the one check every size estimate goes through, so
// that a tiny input describing a huge object is refused before anything is
// allocated instead of exhausting the machine.
//
//   const int64_t budget = base::MemoryBudget(options.max_memory_bytes);
//   RETURN_IF_ERROR(base::CheckMemory("spec.tgt:1: tleaf of 2^30 leaves",
//                                     EstimatedBytes(...), budget));
//
// The default budget is the smallest of half the physical memory, half the
// cgroup's memory limit and three quarters of the address-space limit
// (`ulimit -v`), so a run under a limit is refused with a message rather than
// killed.
#ifndef RANKMAP_BASE_MEMORY_BUDGET_H_
#define RANKMAP_BASE_MEMORY_BUDGET_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace rankmap::base {

// `requested` when positive, else the default budget described above (at
// least 64 MiB). Reads /proc and getrlimit once per call; cheap.
int64_t MemoryBudget(int64_t requested = 0);

// "512 B", "3.2 MiB", "6.3 GiB": one decimal above 1 KiB.
std::string FormatBytes(int64_t bytes);

// a * b + c saturating at INT64_MAX, for size estimates from untrusted counts
// (all arguments >= 0).
int64_t SaturatingMulAdd(int64_t a, int64_t b, int64_t c = 0);

// OK when `bytes` <= `budget`; otherwise ResourceExhausted reading
// "<what> needs about 6.3 GiB, above the memory budget of 2.0 GiB".
absl::Status CheckMemory(std::string_view what, int64_t bytes, int64_t budget);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_MEMORY_BUDGET_H_
