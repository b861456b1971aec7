#include "launch/slurm.h"

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
    "# SLURM_HOSTFILE for srun --distribution=arbitrary: one line per rank\n";

// alpha's local tasks get PUs 0, 2 and beta's 1, 3: the lists differ, so the
// wrapper binds by SLURM_PROCID.
TEST(SlurmTest, DisagreeingNodesGetTheWrapper) {
  absl::StatusOr<LaunchPlan> p =
      SlurmLaunch(testing::Place(testing::TwoHosts(), {0, 2, 1, 3}), "m.hosts",
                  BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command,
            "SLURM_HOSTFILE=m.hosts srun --distribution=arbitrary "
            "--cpu-bind=none -n 4 ./m.hosts.bind.sh");
  ASSERT_EQ(p->files.size(), 2u);
  EXPECT_EQ(p->files[0].contents,
            std::string(kHeader) + "alpha\nbeta\nalpha\nbeta\n");
  EXPECT_EQ(p->files[1].path, "m.hosts.bind.sh");
  EXPECT_TRUE(p->files[1].executable);
  EXPECT_THAT(p->files[1].contents,
              HasSubstr("  1) cpus=0x00000002 ;;\n  2) cpus=0x00000004 ;;\n"));
}

// Local task k of every node on the same PU: map_cpu with the common list.
TEST(SlurmTest, AgreeingNodesGetMapCpu) {
  JobPlacement job;
  job.ranks = {{"n1", {1}}, {"n2", {1}}, {"n1", {0}}, {"n2", {1}}};
  job.hosts = {"n1", "n2"};
  job.physical = true;
  // n2's second task is on PU 1, n1's on 0: disagree.
  EXPECT_THAT(SlurmLaunch(job, "h", BindingMode::kAuto)->command,
              HasSubstr("--cpu-bind=none"));
  job.ranks[3].pus = {0};
  absl::StatusOr<LaunchPlan> p = SlurmLaunch(job, "dir/h", BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command,
            "SLURM_HOSTFILE=dir/h srun --distribution=arbitrary "
            "--cpu-bind=map_cpu:1,0 -n 4");
  EXPECT_EQ(p->files.size(), 1u);
  EXPECT_EQ(p->files[0].contents, std::string(kHeader) + "n1\nn2\nn1\nn2\n");
  // A node with fewer tasks only needs a prefix of the list.
  job.ranks.pop_back();
  EXPECT_THAT(SlurmLaunch(job, "h", BindingMode::kAuto)->command,
              HasSubstr("--cpu-bind=map_cpu:1,0 -n 3"));
}

TEST(SlurmTest, SeveralPusPerRankUseMasks) {
  absl::StatusOr<LaunchPlan> p =
      SlurmLaunch(testing::Place(testing::CoreHost(), {1, 0}), "c.hosts",
                  BindingMode::kAuto);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command,
            "SLURM_HOSTFILE=c.hosts srun --distribution=arbitrary "
            "--cpu-bind=mask_cpu:0x1010,0x101 -n 2");
}

TEST(SlurmTest, SharedPusOvercommitAndForcedModes) {
  const JobPlacement job = testing::Place(testing::CoreHost(), {1, 1});
  EXPECT_EQ(SlurmLaunch(job, "h", BindingMode::kAuto)->command,
            "SLURM_HOSTFILE=h srun --distribution=arbitrary "
            "--cpu-bind=mask_cpu:0x1010,0x1010 --overcommit -n 2");
  EXPECT_EQ(SlurmLaunch(job, "h", BindingMode::kNone)->command,
            "SLURM_HOSTFILE=h srun --distribution=arbitrary --overcommit -n 2");
  EXPECT_EQ(SlurmLaunch(job, "/t/h", BindingMode::kWrapper)->command,
            "SLURM_HOSTFILE=/t/h srun --distribution=arbitrary "
            "--cpu-bind=none --overcommit -n 2 /t/h.bind.sh");
  const JobPlacement pus = testing::Place(testing::TwoHosts(), {1});
  EXPECT_THAT(SlurmLaunch(pus, "h", BindingMode::kMask)->command,
              HasSubstr("--cpu-bind=mask_cpu:0x4 -n 1"));
}

TEST(SlurmTest, RanksWithoutPusBindOnlyWithNone) {
  JobPlacement job;
  job.ranks = {{"a-0", {}, 0, false}};
  job.hosts = {"a-0"};
  absl::StatusOr<LaunchPlan> p = SlurmLaunch(job, "h", BindingMode::kAuto);
  ASSERT_THAT(p, Not(IsOk()));
  EXPECT_THAT(p.status().message(), HasSubstr("--bind none"));
  EXPECT_THAT(SlurmLaunch(job, "h", BindingMode::kNone), IsOk());
  EXPECT_THAT(SlurmLaunch(JobPlacement{}, "h", BindingMode::kNone),
              Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::launch
