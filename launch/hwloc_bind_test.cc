#include "launch/hwloc_bind.h"

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(HwlocBindTest, OneCpusetPerRank) {
  absl::StatusOr<LaunchPlan> p =
      HwlocCpusets(PlaceJob(testing::CoreHost(), {1, 0}).value(), "m.cpus");
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command,
            "hwloc-bind $(awk -v r=$RANK '$1 == r {print $3}' m.cpus) --");
  EXPECT_EQ(p->files[0].contents,
            "# rank host cpuset; in each rank: hwloc-bind $(awk -v r=$RANK "
            "'$1 == r {print $3}' m.cpus) -- ./app\n"
            "0 gamma 0x00001010\n1 gamma 0x00000101\n");
}

TEST(HwlocBindTest, WrapperScriptBindsByRankVariable) {
  absl::StatusOr<std::string> s =
      BindWrapperScript(PlaceJob(testing::TwoHosts(), {3, 0}).value(), "w.sh");
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(*s,
            "#!/bin/sh\n"
            "# Binds this rank as the mapping says, then runs the program.\n"
            "rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-${SLURM_"
            "PROCID:-}}}}\n"
            "case \"$rank\" in\n"
            "  0) cpus=0x00000008 ;;\n"
            "  1) cpus=0x00000001 ;;\n"
            "  *) echo w.sh\": no CPUs for rank '$rank'\" >&2; exit 1 ;;\n"
            "esac\n"
            "exec hwloc-bind \"$cpus\" -- \"$@\"\n");
}

TEST(HwlocBindTest, NeedsPuOsIndexes) {
  JobPlacement job;
  job.ranks = {{"a-0", {}, 0, false}};
  job.hosts = {"a-0"};
  absl::StatusOr<LaunchPlan> p = HwlocCpusets(job, "x");
  ASSERT_THAT(p, Not(IsOk()));
  EXPECT_THAT(p.status().message(), HasSubstr("rank 0 on host 'a-0'"));
  EXPECT_THAT(BindWrapperScript(job, "w"), Not(IsOk()));
}

TEST(HwlocBindTest, Paths) {
  EXPECT_EQ(WrapperPath("out/m.hosts"), "out/m.hosts.bind.sh");
  EXPECT_EQ(CommandPath("m.sh"), "./m.sh");
  EXPECT_EQ(CommandPath("/tmp/m.sh"), "/tmp/m.sh");
}

}  // namespace
}  // namespace rankmap::launch
