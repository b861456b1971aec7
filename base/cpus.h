// How many CPUs this process may run on: the size of its affinity mask, which
// a launcher, `taskset` or a cgroup's cpuset narrows, rather than the
// machine's count.
//
//   const int32_t threads = std::min(8, base::UsableCpus());
#ifndef RANKMAP_BASE_CPUS_H_
#define RANKMAP_BASE_CPUS_H_

#include <cstdint>

namespace rankmap::base {

// CPUs in the calling thread's affinity mask; where that cannot be read, the
// machine's count; at least 1.
int32_t UsableCpus();

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_CPUS_H_
