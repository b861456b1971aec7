#include "core/split/metis_rand.h"

#include <cstdint>
#include <cstdlib>

#include "gtest/gtest.h"

namespace rankmap::core {
namespace {

using internal::LibcRandom;

// glibc's reentrant random_r with its default state size (the generator
// rand() uses) is the oracle.
TEST(LibcRandomTest, EqualsGlibcRandomForEverySeedShape) {
  // 0 (glibc uses 1), small, METIS's default 4321, the largest positive
  // signed word, and seeds that become negative as glibc's signed word.
  for (uint32_t seed : {0u, 1u, 2u, 4321u, 2147483647u, 2147483648u,
                        2147483653u, 4294967295u}) {
    char buf[128];
    random_data rd{};
    ASSERT_EQ(initstate_r(seed, buf, sizeof buf, &rd), 0);
    LibcRandom ours(seed);
    for (int i = 0; i < 200000; ++i) {
      int32_t theirs = 0;
      random_r(&rd, &theirs);
      ASSERT_EQ(ours.Next(), theirs) << "seed " << seed << ", draw " << i;
    }
  }
}

TEST(LibcRandomTest, ReseedingRestartsTheSequenceAndTheDefaultSeedIsOne) {
  LibcRandom a, b(1);
  const int32_t first = a.Next();
  EXPECT_EQ(first, b.Next());
  a.Seed(1);
  EXPECT_EQ(a.Next(), first);
}

TEST(MetisRunsInParallelTest, FalseWithoutTheThreadLocalRand) {
  // This test does not link //core/split:metis_thread_rand: libc's rand() is
  // the one METIS calls, so METIS must stay on one thread.
  EXPECT_FALSE(MetisRunsInParallel());
}

}  // namespace
}  // namespace rankmap::core
