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

// mpirun passes the rankfile's path to the daemons on other nodes inside a
// double-quoted word of the remote shell's command line, where these expand.
TEST(LaunchTest, RankfilePathsTheRemoteShellWouldExpandAreRefused) {
  for (const char* path : {"o$(id)/r", "o`id`/r", "o\"x/r", "o\\x/r"}) {
    for (LaunchFormat f : {LaunchFormat::kRankfile, LaunchFormat::kOmpi5}) {
      absl::StatusOr<LaunchPlan> p =
          PlanLaunch(f, testing::TwoHosts(), {3, 0}, path);
      ASSERT_FALSE(p.ok()) << path;
      EXPECT_THAT(std::string(p.status().message()),
                  HasSubstr("which the remote shell mpirun passes it to would "
                            "expand"));
    }
  }
}

// A path such as `$(...)` or `;` would run where the printed command or the
// wrapper script is run: every format quotes it, and sh reads back the path
// itself (no file appears, the echoed name is literal).
TEST(LaunchTest, OutputPathsAreQuotedInCommandsAndScripts) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  const std::string evil =
      dir + "/j;touch " + dir + "/pwned1;$(touch " + dir + "/pwned2)'x";
  LaunchOptions wrapper;
  wrapper.binding = BindingMode::kWrapper;
  // A rankfile's path cannot hold '$' (see the next test).
  const std::string evil_rankfile = dir + "/j;touch " + dir + "/pwned1;'x";
  for (LaunchFormat f : {LaunchFormat::kRankfile, LaunchFormat::kSlurm,
                         LaunchFormat::kHydra, LaunchFormat::kHwloc}) {
    absl::StatusOr<LaunchPlan> p =
        PlanLaunch(f, testing::TwoHosts(), {3, 0},
                   f == LaunchFormat::kRankfile ? evil_rankfile : evil,
                   wrapper);
    ASSERT_TRUE(p.ok()) << p.status();
    // The command with `true` as the launcher: sh parses every word and runs
    // nothing else (hwloc's $(awk ...) reads the missing file and prints
    // nothing).
    std::string command = p->command;
    if (f == LaunchFormat::kSlurm) {
      command.replace(command.find(" srun "), 6, " true ");
    } else {
      command = "true" + command.substr(command.find(' '));
    }
    ASSERT_EQ(std::system((command + " 2>/dev/null").c_str()), 0) << command;
    EXPECT_THAT(p->command, HasSubstr("'\\''x"));
  }
  absl::StatusOr<LaunchPlan> p =
      PlanLaunch(LaunchFormat::kHydra, testing::TwoHosts(), {3, 0},
                 dir + "/w$(id)`id`;x", wrapper);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->files.size(), 2u);
  ASSERT_TRUE(WriteLaunchFiles(*p).ok());
  // The wrapper for a rank it has no CPUs for: the message names the script
  // literally.
  const std::string run = "PMI_RANK=7 sh '" + p->files[1].path + "' true 2>&1";
  FILE* pipe = popen(run.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[512] = {};
  const size_t got = fread(buf, 1, sizeof buf - 1, pipe);
  pclose(pipe);
  EXPECT_EQ(std::string(buf, got),
            p->files[1].path + ": no CPUs for rank '7'\n");
  for (const char* f : {"/pwned1", "/pwned2"}) {
    struct stat st;
    EXPECT_NE(stat((dir + f).c_str(), &st), 0) << f << " was created";
  }
  EXPECT_THAT(PlanLaunch(LaunchFormat::kRankfile, testing::TwoHosts(), {0},
                         "a\nrank 1=x slot=0")
                  .status()
                  .message(),
              HasSubstr("control character"));
  EXPECT_THAT(PlanLaunch(LaunchFormat::kOmpi5, testing::TwoHosts(), {0}, "a:b")
                  .status()
                  .message(),
              HasSubstr("holds a ':'"));
}

// Host names reach hostfiles, rankfiles and scripts: whatever reader made the
// tree, launch/ checks them before writing anything.
TEST(LaunchTest, HostNamesAreCheckedBeforeWriting) {
  for (const char* host : {"-oProxyCommand=x", "a b", "n1;id", "$(id)", ""}) {
    topology::TreeBuilder b;
    const auto root = b.AddRoot("Machine", 1);
    for (int c = 0; c < 2; ++c) {
      const auto leaf = b.AddChild(root, "PU");
      b.SetOsIndex(leaf, c);
      b.SetHost(leaf, c == 0 ? "good" : host);
    }
    absl::StatusOr<topology::Tree> t = std::move(b).Build();
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<LaunchPlan> p =
        PlanLaunch(LaunchFormat::kRankfile, *t, {0, 1}, "m.rf");
    ASSERT_FALSE(p.ok()) << host;
    EXPECT_THAT(p.status().message(),
                HasSubstr(*host ? "launch: leaf 1 (process 1): host name"
                                : "has no host name"))
        << host;
  }
}

}  // namespace
}  // namespace rankmap::launch
