// CPU lists in the syntax of Linux (cpuset, taskset -c), hwloc and Slurm:
// ascending ranges "a-b" and single indexes, comma separated.
//
//   FormatCpuList({8, 0, 1, 2, 3, 3})  // "0-3,8"
//
// In base/ so that the preloaded MPI profiler (no hwloc) and topology/ (hwloc
// binding) print one syntax.
#ifndef RANKMAP_BASE_CPU_LIST_H_
#define RANKMAP_BASE_CPU_LIST_H_

#include <cstdint>
#include <span>
#include <string>

namespace rankmap::base {

// "0-3,8" for {0, 1, 2, 3, 8}; input in any order, duplicates dropped; ""
// for none. O(k log k).
std::string FormatCpuList(std::span<const int32_t> cpus);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_CPU_LIST_H_
