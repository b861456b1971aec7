#include "launch/hydra.h"

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kHeader[] =
    "# mpiexec.hydra -f: host:count runs in rank order\n";

TEST(HydraTest, OneRunPerHostWithAUserList) {
  // Ranks 0, 1 on beta (PUs 3, 1), ranks 2, 3 on alpha (PUs 2, 0): the local
  // lists 3,1 and 2,0 disagree -> wrapper.
  absl::StatusOr<LaunchPlan> p =
      HydraLaunch(testing::Place(testing::TwoHosts(), {3, 2, 1, 0}), "m.hosts",
                  BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->files[0].contents, std::string(kHeader) + "beta:2\nalpha:2\n");
  EXPECT_EQ(p->command, "mpiexec.hydra -f m.hosts -n 4 ./m.hosts.bind.sh");
  ASSERT_EQ(p->files.size(), 2u);
  EXPECT_THAT(p->files[1].contents, HasSubstr("  0) cpus=0x00000008 ;;\n"));

  JobPlacement agree;
  agree.ranks = {{"n1", {1}}, {"n1", {0}}, {"n2", {1}}, {"n2", {0}}};
  agree.hosts = {"n1", "n2"};
  agree.physical = true;
  p = HydraLaunch(agree, "h", BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command, "mpiexec.hydra -f h -bind-to user:1,0 -n 4");
  EXPECT_EQ(p->files[0].contents, std::string(kHeader) + "n1:2\nn2:2\n");
  EXPECT_EQ(p->files.size(), 1u);
}

// A host that comes back after another gets a second line and its own proxy,
// whose local ranks restart at 0: the list must fit both runs.
TEST(HydraTest, InterleavedHostsAreSeparateRuns) {
  JobPlacement job;
  job.ranks = {{"n1", {1}}, {"n2", {1}}, {"n1", {1}}};
  job.hosts = {"n1", "n2"};
  job.physical = true;
  absl::StatusOr<LaunchPlan> p = HydraLaunch(job, "h", BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->files[0].contents, std::string(kHeader) + "n1:1\nn2:1\nn1:1\n");
  EXPECT_EQ(p->command, "mpiexec.hydra -f h -bind-to user:1 -n 3");
}

TEST(HydraTest, CoreLeavesJoinThreadsWithPlus) {
  absl::StatusOr<LaunchPlan> p = HydraLaunch(
      testing::Place(testing::CoreHost(), {1, 0}), "c", BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command, "mpiexec.hydra -f c -bind-to user:4+12,0+8 -n 2");
  EXPECT_EQ(p->files[0].contents, std::string(kHeader) + "gamma:2\n");
  EXPECT_EQ(HydraLaunch(testing::Place(testing::CoreHost(), {1, 0}), "c",
                        BindingMode::kNone)
                ->command,
            "mpiexec.hydra -f c -n 2");
  EXPECT_EQ(HydraLaunch(testing::Place(testing::CoreHost(), {1, 0}), "c",
                        BindingMode::kWrapper)
                ->command,
            "mpiexec.hydra -f c -n 2 ./c.bind.sh");
}

TEST(HydraTest, RanksWithoutPusBindOnlyWithNone) {
  JobPlacement job;
  job.ranks = {{"a-0", {}, 0, false}};
  job.hosts = {"a-0"};
  EXPECT_THAT(HydraLaunch(job, "h", BindingMode::kAuto), Not(IsOk()));
  EXPECT_EQ(HydraLaunch(job, "h", BindingMode::kNone)->command,
            "mpiexec.hydra -f h -n 1");
}

}  // namespace
}  // namespace rankmap::launch
