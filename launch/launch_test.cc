#include "launch/launch.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"
#include "topology/topology.h"

namespace rankmap::launch {
namespace {

using ::testing::HasSubstr;

TEST(LaunchTest, ParsesFormatNames) {
  EXPECT_EQ(*ParseLaunchFormat("rankfile"), LaunchFormat::kRankfile);
  EXPECT_EQ(*ParseLaunchFormat("ompi5"), LaunchFormat::kOmpi5);
  EXPECT_EQ(*ParseLaunchFormat("slurm"), LaunchFormat::kSlurm);
  EXPECT_EQ(*ParseLaunchFormat("hydra"), LaunchFormat::kHydra);
  EXPECT_EQ(*ParseLaunchFormat("hwloc"), LaunchFormat::kHwloc);
  EXPECT_FALSE(IsLaunchFormatName("plain"));
  EXPECT_THAT(ParseLaunchFormat("pbs").status().message(),
              HasSubstr("unknown format 'pbs'"));
  EXPECT_EQ(*ParseBindingMode("wrapper"), BindingMode::kWrapper);
  EXPECT_FALSE(ParseBindingMode("core").ok());
}

// The three cases a new user hit with the old writer.
TEST(LaunchTest, NetworkOfTleafNodesWritesNodeLocalSlots) {
  const std::string path =
      std::string(std::getenv("TEST_TMPDIR")) + "/nodes.net";
  std::ofstream(path) << "network\ncluster a\n2 x tleaf 1 4 1\n";
  absl::StatusOr<topology::Tree> t = topology::LoadTopology(path);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<LaunchPlan> p =
      PlanLaunch(LaunchFormat::kRankfile, *t, {4, 5, 6, 7}, "m.rf");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(p->files[0].contents,
              HasSubstr("rank 0=a-1 slot=0\nrank 1=a-1 slot=1\n"
                        "rank 2=a-1 slot=2\nrank 3=a-1 slot=3\n"));
}

TEST(LaunchTest, TleafIsRefusedWithAClearError) {
  absl::StatusOr<topology::Tree> t = topology::LoadTopology("tleaf 1 8 1");
  ASSERT_TRUE(t.ok());
  for (LaunchFormat f :
       {LaunchFormat::kRankfile, LaunchFormat::kOmpi5, LaunchFormat::kSlurm,
        LaunchFormat::kHydra, LaunchFormat::kHwloc}) {
    absl::StatusOr<LaunchPlan> p = PlanLaunch(f, *t, {4}, "x");
    ASSERT_FALSE(p.ok());
    EXPECT_THAT(p.status().message(), HasSubstr("not a real machine"));
  }
}

TEST(LaunchTest, WritesFilesAndMakesWrappersExecutable) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  LaunchOptions o;
  o.binding = BindingMode::kWrapper;
  absl::StatusOr<LaunchPlan> p = PlanLaunch(
      LaunchFormat::kSlurm, testing::TwoHosts(), {3, 0}, dir + "/j.hosts", o);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_TRUE(WriteLaunchFiles(*p).ok());
  std::stringstream hosts;
  hosts << std::ifstream(dir + "/j.hosts").rdbuf();
  EXPECT_THAT(hosts.str(), HasSubstr("beta\nalpha\n"));
  struct stat st;
  ASSERT_EQ(stat((dir + "/j.hosts.bind.sh").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  p->files[0].path = dir + "/no-such-dir/x";
  EXPECT_FALSE(WriteLaunchFiles(*p).ok());
}

}  // namespace
}  // namespace rankmap::launch
