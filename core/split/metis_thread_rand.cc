// rand() and srand() with one glibc-compatible state per thread, for programs
// that let METIS run on several threads (core/split/metis_rand.h). Linked only
// into the project's own programs: a library must not change rand() in the
// program that loads it.
#include <cstdint>

#include "core/split/metis_rand.h"

namespace {

rankmap::core::internal::LibcRandom& ThreadState() {
  thread_local rankmap::core::internal::LibcRandom state;
  return state;
}

}  // namespace

extern "C" {

// Found by MetisRunsInParallel() to tell that this replacement is in use.
__attribute__((visibility("default"), used)) void rankmap_thread_local_rand() {}

__attribute__((visibility("default"))) int rand() noexcept {
  return ThreadState().Next();
}

__attribute__((visibility("default"))) void srand(unsigned seed) noexcept {
  ThreadState().Seed(seed);
}

}  // extern "C"
