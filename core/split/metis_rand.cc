#include "core/split/metis_rand.h"

#include <dlfcn.h>

namespace rankmap::core {

bool MetisRunsInParallel() {
  // The marker is defined next to the replacement rand(); both must come from
  // the same loaded object, and that object must be the one the global scope
  // (where libmetis's rand() is looked up) resolves rand() to.
  static const bool parallel = [] {
    void* marker = dlsym(RTLD_DEFAULT, "rankmap_thread_local_rand");
    void* rand_fn = dlsym(RTLD_DEFAULT, "rand");
    if (marker == nullptr || rand_fn == nullptr) return false;
    Dl_info a, b;
    if (dladdr(marker, &a) == 0 || dladdr(rand_fn, &b) == 0) return false;
    return a.dli_fbase == b.dli_fbase;
  }();
  return parallel;
}

namespace internal {

void LibcRandom::Seed(uint32_t seed) {
  // glibc stores the seed as a 32-bit signed word; 0 becomes 1.
  int32_t word = static_cast<int32_t>(seed == 0 ? 1 : seed);
  state_[0] = word;
  for (int i = 1; i < kDegree; ++i) {
    // 16807 * word mod (2^31 - 1) by Schrage's method, in signed arithmetic
    // with truncating division, as glibc computes it (the first word may be
    // negative).
    const int32_t hi = word / 127773;
    const int32_t lo = word % 127773;
    word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    state_[i] = word;
  }
  front_ = kSeparation;
  rear_ = 0;
  for (int i = 0; i < 10 * kDegree; ++i) Next();
}

int32_t LibcRandom::Next() {
  const uint32_t sum = static_cast<uint32_t>(state_[front_]) +
                       static_cast<uint32_t>(state_[rear_]);
  state_[front_] = static_cast<int32_t>(sum);
  if (++front_ == kDegree) front_ = 0;
  if (++rear_ == kDegree) rear_ = 0;
  return static_cast<int32_t>(sum >> 1);
}

}  // namespace internal
}  // namespace rankmap::core
