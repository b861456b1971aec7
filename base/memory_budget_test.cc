#include "base/memory_budget.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <limits>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(MemoryBudgetTest, ExplicitBudgetWins) {
  EXPECT_EQ(MemoryBudget(123), 123);
  EXPECT_GE(MemoryBudget(), int64_t{64} << 20);
  EXPECT_EQ(MemoryBudget(0), MemoryBudget(-5));
}

TEST(MemoryBudgetTest, FollowsTheAddressSpaceLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's shadow memory exceeds any small limit";
#endif
  // In a child, so the limit does not reach the test runner (or a sanitizer).
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    struct rlimit l;
    getrlimit(RLIMIT_AS, &l);
    l.rlim_cur = rlim_t{8} << 30;
    if (setrlimit(RLIMIT_AS, &l) != 0) _exit(3);
    _exit(MemoryBudget() <= int64_t{6} << 30 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(MemoryBudgetTest, FormatsBytes) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(int64_t{2} << 30), "2.0 GiB");
  EXPECT_EQ(FormatBytes(std::numeric_limits<int64_t>::max()), "8.0 EiB");
}

TEST(MemoryBudgetTest, SaturatesInsteadOfWrapping) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(SaturatingMulAdd(3, 4, 5), 17);
  EXPECT_EQ(SaturatingMulAdd(int64_t{1} << 40, int64_t{1} << 40), kMax);
  EXPECT_EQ(SaturatingMulAdd(kMax, 1, 1), kMax);
}

TEST(MemoryBudgetTest, CheckNamesWhatAndBothSizes) {
  EXPECT_THAT(CheckMemory("x", 100, 100), IsOk());
  const absl::Status s =
      CheckMemory("t.tgt:1: tleaf", int64_t{3} << 30, int64_t{2} << 30);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(),
            "t.tgt:1: tleaf needs about 3.0 GiB, above the memory budget of "
            "2.0 GiB");
}

}  // namespace
}  // namespace rankmap::base
