#include "launch/job_placement.h"

#include <cstdlib>
#include <fstream>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"
#include "topology/topology.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(PlacementTest, HostsPusAndLogicalIndexesComeFromTheLeaves) {
  absl::StatusOr<JobPlacement> job =
      PlaceJob(testing::TwoHosts(), {3, 0, 2, 1});
  ASSERT_THAT(job, IsOk());
  ASSERT_EQ(job->ranks.size(), 4u);
  EXPECT_EQ(job->ranks[0].host, "beta");
  EXPECT_THAT(job->ranks[0].pus, ElementsAre(3));
  EXPECT_EQ(job->ranks[0].logical, 1);
  EXPECT_FALSE(job->ranks[0].logical_is_core);
  EXPECT_EQ(job->ranks[1].host, "alpha");
  EXPECT_THAT(job->ranks[1].pus, ElementsAre(0));
  EXPECT_THAT(job->ranks[2].pus, ElementsAre(1));
  EXPECT_EQ(job->ranks[2].logical, 0);
  EXPECT_THAT(job->hosts, ElementsAre("beta", "alpha"));
  EXPECT_TRUE(job->physical);
  EXPECT_THAT(RanksByHost(*job),
              ElementsAre(ElementsAre(0, 2), ElementsAre(1, 3)));
  EXPECT_FALSE(SharesPus(*job));
}

TEST(PlacementTest, CoreLeavesCoverEveryHardwareThread) {
  absl::StatusOr<JobPlacement> job = PlaceJob(testing::CoreHost(), {1, 1, 0});
  ASSERT_THAT(job, IsOk());
  EXPECT_THAT(job->ranks[0].pus, ElementsAre(4, 12));
  EXPECT_THAT(job->ranks[1].pus, ElementsAre(4, 12));
  EXPECT_THAT(job->ranks[2].pus, ElementsAre(0, 8));
  EXPECT_EQ(job->ranks[0].logical, 1);
  EXPECT_TRUE(job->ranks[0].logical_is_core);
  EXPECT_TRUE(SharesPus(*job));
}

// A real export: mirage004, 2 packages x 6 cores x 2 threads, core c holding
// PUs P#2c and P#2c+12 of package 0.
TEST(PlacementTest, CoreLeavesOfAnHwlocExport) {
  topology::LoadOptions o;
  o.leaf = topology::LeafKind::kCore;
  absl::StatusOr<topology::Tree> t =
      topology::LoadTopology("tests/data/hwloc-xml/24em64t-2n6c2t-pci.xml", o);
  ASSERT_THAT(t, IsOk());
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {1, 0});
  ASSERT_THAT(job, IsOk());
  EXPECT_EQ(job->ranks[0].host, "mirage004");
  EXPECT_THAT(job->ranks[0].pus, ElementsAre(2, 14));
  EXPECT_EQ(job->ranks[0].logical, 1);
  EXPECT_TRUE(job->ranks[0].logical_is_core);
  EXPECT_THAT(job->ranks[1].pus, ElementsAre(0, 12));
}

// allowed_pus keeps the machine's logical numbering (what a launcher sees).
TEST(PlacementTest, RestrictedExportKeepsMachineLogicalIndexes) {
  topology::LoadOptions o;
  o.allowed_pus = "14,16";  // PUs L#3 (core 1) and L#5 (core 2)
  absl::StatusOr<topology::Tree> t =
      topology::LoadTopology("tests/data/hwloc-xml/24em64t-2n6c2t-pci.xml", o);
  ASSERT_THAT(t, IsOk());
  ASSERT_EQ(t->num_leaves(), 2);
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {0, 1});
  ASSERT_THAT(job, IsOk());
  EXPECT_THAT(job->ranks[0].pus, ElementsAre(14));
  EXPECT_EQ(job->ranks[0].logical, 3);
  EXPECT_THAT(job->ranks[1].pus, ElementsAre(16));
  EXPECT_EQ(job->ranks[1].logical, 5);
}

// Leaves of tleaf nodes in a network spec: node-local positions, no PUs.
TEST(PlacementTest, TleafNodesOfANetworkNumberLeavesPerHost) {
  const std::string path =
      std::string(std::getenv("TEST_TMPDIR")) + "/tleaf_nodes.net";
  std::ofstream(path) << "network\ncluster a\n2 x tleaf 1 4 1\n";
  absl::StatusOr<topology::Tree> t = topology::LoadTopology(path);
  ASSERT_THAT(t, IsOk());
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {4, 5, 6, 7, 0});
  ASSERT_THAT(job, IsOk());
  EXPECT_EQ(job->ranks[0].host, "a-1");
  EXPECT_EQ(job->ranks[0].logical, 0);
  EXPECT_EQ(job->ranks[3].logical, 3);
  EXPECT_EQ(job->ranks[4].host, "a-0");
  EXPECT_EQ(job->ranks[4].logical, 0);
  EXPECT_TRUE(job->ranks[0].pus.empty());
  EXPECT_FALSE(job->physical);
}

TEST(PlacementTest, TreesWithoutHostsAreNotMachines) {
  absl::StatusOr<topology::Tree> t = topology::LoadTopology("tleaf 1 4 1");
  ASSERT_THAT(t, IsOk());
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {0, 1});
  ASSERT_THAT(job, Not(IsOk()));
  EXPECT_THAT(job.status().message(),
              HasSubstr("leaf 0 (process 0) has no host name"));
  absl::StatusOr<topology::Tree> s = topology::LoadTopology("core:2");
  ASSERT_THAT(s, IsOk());
  EXPECT_THAT(PlaceJob(*s, {0}), Not(IsOk()));
}

TEST(PlacementTest, RejectsLeavesOutOfRangeAndEmptyJobs) {
  absl::StatusOr<JobPlacement> job = PlaceJob(testing::TwoHosts(), {0, 4});
  ASSERT_THAT(job, Not(IsOk()));
  EXPECT_THAT(job.status().message(),
              HasSubstr("process 1 is mapped to leaf 4"));
  EXPECT_THAT(PlaceJob(testing::TwoHosts(), {-1}), Not(IsOk()));
  EXPECT_THAT(PlaceJob(testing::TwoHosts(), {}), Not(IsOk()));
}

TEST(PlacementTest, SharedLocalBindingNeedsPrefixAgreement) {
  absl::StatusOr<JobPlacement> job = PlaceJob(testing::TwoHosts(), {0, 1, 2});
  ASSERT_THAT(job, IsOk());
  // alpha: {0}, {2}; beta: {1} -> beta's list is not a prefix of alpha's.
  EXPECT_FALSE(SharedLocalBinding(*job, RanksByHost(*job)).has_value());
  // Same PUs in the same local order everywhere: alpha gets {0} then {2}, a
  // second group gets {0}.
  auto shared = SharedLocalBinding(*job, {{0, 1}, {0}});
  ASSERT_TRUE(shared.has_value());
  EXPECT_THAT(*shared, ElementsAre(ElementsAre(0), ElementsAre(2)));
}

}  // namespace
}  // namespace rankmap::launch
