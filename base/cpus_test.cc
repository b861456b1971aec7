#include "base/cpus.h"

#include <sched.h>

#include <thread>

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(UsableCpusTest, CountsTheAffinityMaskNotTheMachine) {
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof(mine), &mine), 0);
  EXPECT_EQ(UsableCpus(), CPU_COUNT(&mine));
  // Narrowed to one CPU (the first allowed), as `taskset -c` would: 1.
  int first = 0;
  while (!CPU_ISSET(first, &mine)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(UsableCpus(), 1);
  ASSERT_EQ(sched_setaffinity(0, sizeof(mine), &mine), 0);
  EXPECT_EQ(UsableCpus(), CPU_COUNT(&mine));
}

}  // namespace
}  // namespace rankmap::base
