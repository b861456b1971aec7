#include "topology/binding.h"

#include <algorithm>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::rankmap::base::IsOkAndHolds;
using ::rankmap::base::StatusIs;
using ::testing::_;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(BindingTest, CurrentBindingIsNonEmptyAndSorted) {
  absl::StatusOr<std::vector<int32_t>> pus = CurrentBindingPus();
  ASSERT_THAT(pus, IsOk());
  ASSERT_FALSE(pus->empty());
  EXPECT_TRUE(std::is_sorted(pus->begin(), pus->end()));
}

TEST(BindingTest, BindToOnePuThenRestore) {
  absl::StatusOr<std::vector<int32_t>> before = CurrentBindingPus();
  ASSERT_THAT(before, IsOk());
  const int32_t last = before->back();
  ASSERT_THAT(BindProcess(std::vector<int32_t>{last}, BindWhat::kCpu), IsOk());
  absl::StatusOr<std::vector<int32_t>> now = CurrentBindingPus();
  ASSERT_THAT(now, IsOk());
  EXPECT_THAT(*now, ElementsAre(last));
  // Binding to the NUMA node of that PU widens the set again and keeps the PU
  // in it.
  ASSERT_THAT(BindToNumaOf(last), IsOk());
  now = CurrentBindingPus();
  ASSERT_THAT(now, IsOk());
  EXPECT_TRUE(std::binary_search(now->begin(), now->end(), last));
  ASSERT_THAT(BindProcess(*before, BindWhat::kCpu), IsOk());
  EXPECT_EQ(*CurrentBindingPus(), *before);
}

TEST(BindingTest, RejectsUnknownPus) {
  EXPECT_THAT(BindProcess(std::vector<int32_t>{}, BindWhat::kCpu),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "topology/binding: empty PU list"));
  EXPECT_THAT(BindProcess(std::vector<int32_t>{1 << 20}, BindWhat::kCpu),
              StatusIs(_, HasSubstr("no PU with os index 1048576")));
  EXPECT_THAT(BindToNumaOf(-1), Not(IsOk()));
}

TEST(BindWhatTest, ParsesTheThreeNames) {
  EXPECT_THAT(ParseBindWhat("none"), IsOkAndHolds(BindWhat::kNone));
  EXPECT_THAT(ParseBindWhat("cpu"), IsOkAndHolds(BindWhat::kCpu));
  EXPECT_THAT(ParseBindWhat("cpu+mem"), IsOkAndHolds(BindWhat::kCpuMem));
  absl::StatusOr<BindWhat> bad = ParseBindWhat("mem");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_EQ(bad.status().message(),
            "topology/binding: unknown binding 'mem' (none, cpu or cpu+mem)");
}

TEST(BindReportTest, SaysWhatWasApplied) {
  BindReport r;
  EXPECT_EQ(FormatBindReport(r), "not bound");
  r.asked = BindWhat::kCpu;
  r.pus = {0, 1};
  EXPECT_EQ(FormatBindReport(r), "cpus 0-1");
  r.asked = BindWhat::kCpuMem;
  r.memory_note = "the OS refused (Operation not permitted)";
  EXPECT_EQ(FormatBindReport(r),
            "cpus 0-1 memory not bound: the OS refused (Operation not "
            "permitted)");
  r.numa_nodes = {0};
  r.migrated = true;
  EXPECT_EQ(FormatBindReport(r), "cpus 0-1 memory numa 0 (bind, migrate)");
}

// CPUs and memory of this process, read back through hwloc, then restored.
TEST(BindProcessTest, BindsCpusAndMemoryToTheLocalNumaNodes) {
  absl::StatusOr<std::vector<int32_t>> before = CurrentBindingPus();
  ASSERT_THAT(before, IsOk());
  const int32_t last = before->back();
  absl::StatusOr<BindReport> r =
      BindProcess(std::vector<int32_t>{last}, BindWhat::kCpuMem);
  ASSERT_THAT(r, IsOk());
  EXPECT_THAT(r->pus, ElementsAre(last));
  EXPECT_THAT(*CurrentBindingPus(), ElementsAre(last));
  if (r->numa_nodes.empty()) {
    // A kernel that refuses memory policies must say why.
    EXPECT_FALSE(r->memory_note.empty());
  } else {
    absl::StatusOr<MemoryBinding> mem = CurrentMemoryBinding();
    ASSERT_THAT(mem, IsOk());
    EXPECT_EQ(mem->policy, "bind");
    EXPECT_EQ(mem->numa_nodes, r->numa_nodes);
  }
  ASSERT_THAT(BindProcess(*before, BindWhat::kCpu), IsOk());
}

TEST(BindProcessTest, ChecksEveryPuBeforeBinding) {
  absl::StatusOr<std::vector<int32_t>> before = CurrentBindingPus();
  ASSERT_THAT(before, IsOk());
  absl::StatusOr<BindReport> r = BindProcess(
      std::vector<int32_t>{before->front(), 1 << 20}, BindWhat::kCpuMem);
  EXPECT_THAT(r, Not(IsOk()));
  EXPECT_EQ(*CurrentBindingPus(), *before);
  EXPECT_TRUE(BindProcess({}, BindWhat::kNone)->pus.empty());
}

}  // namespace
}  // namespace rankmap::topology
