#include "launch/job_placement.h"

#include <cstdlib>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"
#include "topology/topology.h"

namespace rankmap::launch {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PlacementTest, HostsPusAndLogicalIndexesComeFromTheLeaves) {
  absl::StatusOr<JobPlacement> job =
      PlaceJob(testing::TwoHosts(), {3, 0, 2, 1});
  ASSERT_TRUE(job.ok()) << job.status();
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
  ASSERT_TRUE(job.ok()) << job.status();
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
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {1, 0});
  ASSERT_TRUE(job.ok()) << job.status();
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
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->num_leaves(), 2);
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {0, 1});
  ASSERT_TRUE(job.ok()) << job.status();
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
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {4, 5, 6, 7, 0});
  ASSERT_TRUE(job.ok()) << job.status();
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
  ASSERT_TRUE(t.ok());
  absl::StatusOr<JobPlacement> job = PlaceJob(*t, {0, 1});
  ASSERT_FALSE(job.ok());
  EXPECT_THAT(job.status().message(),
              HasSubstr("leaf 0 (process 0) has no host name"));
  absl::StatusOr<topology::Tree> s = topology::LoadTopology("core:2");
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(PlaceJob(*s, {0}).ok());
}

TEST(PlacementTest, RejectsLeavesOutOfRangeAndEmptyJobs) {
  absl::StatusOr<JobPlacement> job = PlaceJob(testing::TwoHosts(), {0, 4});
  ASSERT_FALSE(job.ok());
  EXPECT_THAT(job.status().message(),
              HasSubstr("process 1 is mapped to leaf 4"));
  EXPECT_FALSE(PlaceJob(testing::TwoHosts(), {-1}).ok());
  EXPECT_FALSE(PlaceJob(testing::TwoHosts(), {}).ok());
}

TEST(PlacementTest, SharedLocalBindingNeedsPrefixAgreement) {
  absl::StatusOr<JobPlacement> job = PlaceJob(testing::TwoHosts(), {0, 1, 2});
  ASSERT_TRUE(job.ok());
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
