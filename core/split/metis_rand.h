// METIS draws its random numbers from the C library's rand(), whose state is
// one per process: two METIS calls on two threads would interleave their
// draws, and the results would depend on timing. Each METIS call reseeds with
// srand(its seed option), so a call run wholly on one thread gives the same
// partition as long as rand() keeps one state per thread and produces glibc's
// sequence.
//
// Programs that link //core/split:metis_thread_rand get exactly that: rand()
// and srand() are replaced process-wide by LibcRandom, one per thread. The
// engine asks MetisRunsInParallel() before running METIS on several threads;
// without the replacement (a library loaded into somebody else's program, the
// Python module) it stays on one thread. Results never depend on which: the
// sequence is glibc's in both cases.
//
//   if (MetisRunsInParallel()) { ... METIS on worker threads ... }
#ifndef RANKMAP_CORE_SPLIT_METIS_RAND_H_
#define RANKMAP_CORE_SPLIT_METIS_RAND_H_

#include <array>
#include <cstdint>

namespace rankmap::core {

// True when the rand() that METIS calls keeps one state per thread (the
// program links //core/split:metis_thread_rand and the dynamic linker bound
// rand() to it).
bool MetisRunsInParallel();

namespace internal {

// glibc's random()/rand() (the additive feedback generator of degree 31,
// separation 3, seeded by a Park-Miller sequence), as a value: LibcRandom(s)
// then Next() gives what srand(s) then rand() gives with glibc.
class LibcRandom {
 public:
  explicit LibcRandom(uint32_t seed = 1) { Seed(seed); }
  void Seed(uint32_t seed);
  int32_t Next();

 private:
  static constexpr int kDegree = 31;
  static constexpr int kSeparation = 3;
  std::array<int32_t, kDegree> state_{};
  int front_ = kSeparation;  // the two taps, indices into state_
  int rear_ = 0;
};

}  // namespace internal
}  // namespace rankmap::core

#endif  // RANKMAP_CORE_SPLIT_METIS_RAND_H_
