#include "launch/rankfile.h"

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(RankfileTest, OpenMpi4PhysicalNumbersAreNodeLocalOsIndexes) {
  absl::StatusOr<LaunchPlan> p = OpenMpi4Rankfile(
      testing::Place(testing::TwoHosts(), {3, 0, 2, 1}), "m.rf");
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command,
            "mpirun --use-hwthread-cpus --mca rmaps_rank_file_physical 1 "
            "--rankfile m.rf -np 4");
  ASSERT_EQ(p->files.size(), 1u);
  EXPECT_EQ(p->files[0].path, "m.rf");
  EXPECT_EQ(p->files[0].contents,
            "# mpirun --use-hwthread-cpus --mca rmaps_rank_file_physical 1 "
            "--rankfile m.rf -np 4 ./app\n"
            "rank 0=beta slot=3\nrank 1=alpha slot=0\nrank 2=beta slot=1\n"
            "rank 3=alpha slot=2\n");
}

// Two ranks on one core of two hardware threads: both get the whole core,
// so neither thread stays idle.
TEST(RankfileTest, OpenMpi4CoreLeavesListEveryHardwareThread) {
  absl::StatusOr<LaunchPlan> p =
      OpenMpi4Rankfile(testing::Place(testing::CoreHost(), {1, 1, 0}), "c.rf");
  ASSERT_THAT(p, IsOk());
  EXPECT_THAT(p->files[0].contents,
              HasSubstr("rank 0=gamma slot=4,12\nrank 1=gamma slot=4,12\n"
                        "rank 2=gamma slot=0,8\n"));
}

TEST(RankfileTest, OpenMpi5NumbersLogically) {
  absl::StatusOr<LaunchPlan> p =
      OpenMpi5Rankfile(testing::Place(testing::TwoHosts(), {3, 0}), "m.rf");
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command, "mpirun --map-by rankfile:file=m.rf:HWTCPUS -np 2");
  EXPECT_EQ(p->files[0].contents,
            "# mpirun --map-by rankfile:file=m.rf:HWTCPUS -np 2 ./app\n"
            "rank 0=beta slot=1\nrank 1=alpha slot=0\n");
  absl::StatusOr<LaunchPlan> c =
      OpenMpi5Rankfile(testing::Place(testing::CoreHost(), {1, 0}), "c.rf");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->command, "mpirun --map-by rankfile:file=c.rf -np 2");
  EXPECT_THAT(c->files[0].contents,
              HasSubstr("rank 0=gamma slot=1\nrank 1=gamma slot=0\n"));
}

// Without PU os indexes (tleaf nodes) Open MPI 4 gets logical numbers too.
TEST(RankfileTest, OpenMpi4LogicalWithoutOsIndexes) {
  JobPlacement job;
  job.ranks = {{"a-1", {}, 2, false}, {"a-0", {}, 0, false}};
  job.hosts = {"a-1", "a-0"};
  job.physical = false;
  absl::StatusOr<LaunchPlan> p = OpenMpi4Rankfile(job, "n.rf");
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->command, "mpirun --use-hwthread-cpus --rankfile n.rf -np 2");
  EXPECT_THAT(p->files[0].contents,
              HasSubstr("rank 0=a-1 slot=2\nrank 1=a-0 slot=0\n"));
}

TEST(RankfileTest, MixedLogicalKindsAreRefused) {
  JobPlacement job;
  job.ranks = {{"h", {}, 0, true}, {"h", {}, 1, false}};
  job.hosts = {"h"};
  absl::StatusOr<LaunchPlan> p = OpenMpi5Rankfile(job, "x");
  ASSERT_THAT(p, Not(IsOk()));
  EXPECT_THAT(p.status().message(), HasSubstr("rank 1 by PU"));
  EXPECT_THAT(OpenMpi4Rankfile(job, "x"), Not(IsOk()));
  EXPECT_THAT(OpenMpi5Rankfile(JobPlacement{}, "x"), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::launch
