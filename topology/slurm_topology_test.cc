#include "topology/slurm_topology.h"

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Error(std::string_view text) {
  absl::StatusOr<SwitchTree> t = ParseSlurmTopology(text, "topology.conf");
  EXPECT_THAT(t, Not(IsOk())) << text;
  return t.ok() ? "" : std::string(t.status().message());
}

TEST(SlurmTopology, TopologyConf) {
  const char* conf =
      "# two leaf switches under a top one\n"
      "SwitchName=s0 Nodes=tux[0-3] LinkSpeed=100\n"
      "switchname=s1 nodes=tux[4-6,12]\n"
      "SwitchName=top Switches=s[0-1] LinkSpeed=50\n";
  EXPECT_TRUE(LooksLikeSlurmTopology(conf));
  absl::StatusOr<SwitchTree> t = ParseSlurmTopology(conf, "topology.conf");
  ASSERT_THAT(t, IsOk());
  ASSERT_EQ(t->switches.size(), 3u);
  EXPECT_EQ(t->switches[0].name, "s0");
  EXPECT_EQ(t->switches[0].parent, 2);
  EXPECT_EQ(t->switches[0].link_speed, 100);
  EXPECT_THAT(t->switches[0].hosts,
              ElementsAre("tux0", "tux1", "tux2", "tux3"));
  EXPECT_THAT(t->switches[1].hosts,
              ElementsAre("tux4", "tux5", "tux6", "tux12"));
  EXPECT_EQ(t->switches[1].parent, 2);
  EXPECT_EQ(t->switches[2].parent, -1);
  EXPECT_TRUE(t->switches[2].hosts.empty());
}

// scontrol lists every node below an upper switch; those are not its own.
TEST(SlurmTopology, ScontrolShowTopology) {
  const char* out =
      "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=tux[0-1]\n"
      "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=tux[2-3]\n"
      "SwitchName=top Level=1 LinkSpeed=1 Nodes=tux[0-3] Switches=s[0-1]\n";
  absl::StatusOr<SwitchTree> t = ParseSlurmTopology(out, "scontrol.out");
  ASSERT_THAT(t, IsOk());
  EXPECT_THAT(t->switches[2].hosts, ElementsAre());
  EXPECT_THAT(t->switches[1].hosts, ElementsAre("tux2", "tux3"));
  EXPECT_EQ(t->switches[1].parent, 2);
}

TEST(SlurmTopology, MalformedFilesNameLineAndProblem) {
  EXPECT_EQ(Error("SwitchName=s0 Nodes=a\nSwitchName=top Switches=s[0-1]\n"),
            "topology.conf:2: switch 's1' (in Switches= of 'top') is not "
            "defined");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=tux[0-3]\n"
                  "SwitchName=s1 Nodes=tux[3-5]\n"),
            "topology.conf:2: node 'tux3' is already under switch 's0' "
            "(line 1)");
  EXPECT_EQ(Error("SwitchName=a Switches=b\nSwitchName=b Switches=c\n"
                  "SwitchName=c Switches=a\n"),
            "topology.conf:1: switches form a cycle: a -> b -> c -> a");
  EXPECT_THAT(Error("SwitchName=a Switches=a\n"), HasSubstr("cycle: a -> a"));
  EXPECT_EQ(Error("SwitchName=s0 Nodes=a\nSwitchName=s1 Nodes=b\n"
                  "SwitchName=x Switches=s0\nSwitchName=y Switches=s0\n"),
            "topology.conf:4: switch 's0' is already under 'x' (line 3)");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=a\nSwitchName=s0 Nodes=b\n"),
            "topology.conf:2: switch 's0' already defined on line 1");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=tux[0-3\n"),
            "topology.conf:1: Nodes=: hostlist 'tux[0-3': '[' without ']' at "
            "column 4");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=a LinkSpeed=fast\n"),
            "topology.conf:1: LinkSpeed: expected a positive number, found "
            "'fast'");
  EXPECT_EQ(Error("SwitchName=s0 Ports=4 Nodes=a\n"),
            "topology.conf:1: unknown key 'Ports' (expected SwitchName, "
            "Switches, Nodes, LinkSpeed)");
  EXPECT_EQ(Error("SwitchName=s0\n"),
            "topology.conf:1: switch 's0' has neither Nodes= nor Switches=");
  EXPECT_EQ(Error("Nodes=a SwitchName=s0\n"),
            "topology.conf:1: a line starts with SwitchName=, found 'Nodes=a'");
  EXPECT_EQ(Error("SwitchName=s0 Nodes a\n"),
            "topology.conf:1: expected Key=Value, found 'Nodes'");
  EXPECT_EQ(Error("# nothing\n"), "topology.conf:1: no SwitchName= line");
  EXPECT_FALSE(LooksLikeSlurmTopology("# c\nNodeName=a\n"));
}

// Slurm's keys are case-insensitive; a key given twice on a line was read
// as the last one, dropping the first list without a word.
TEST(SlurmTopology, KeysAnyCaseOncePerLine) {
  absl::StatusOr<SwitchTree> t = ParseSlurmTopology(
      "SWITCHNAME=s0 NODES=tux[0-1] linkspeed=10 level=0\n"
      "switchname=top sWiTcHeS=s0\n",
      "topology.conf");
  ASSERT_THAT(t, IsOk());
  EXPECT_THAT(t->switches[0].hosts, ElementsAre("tux0", "tux1"));
  EXPECT_EQ(t->switches[0].link_speed, 10);
  EXPECT_EQ(t->switches[0].parent, 1);
  EXPECT_EQ(t->switches[1].line, 2);
  EXPECT_EQ(Error("SwitchName=s0 Nodes=tux[0-1] nodes=tux[2-3]\n"),
            "topology.conf:1: nodes= twice on one line (keys are "
            "case-insensitive)");
  EXPECT_EQ(Error("SwitchName=s0 Nodes=a switchname=s1\n"),
            "topology.conf:1: SwitchName= twice on one line");
}

TEST(SlurmTopology, NodeNamesAreHostNames) {
  EXPECT_EQ(Error("SwitchName=s0 Nodes=tux0,-oProxyCommand\n"),
            "topology.conf:1: Nodes=: host name '-oProxyCommand': a label "
            "starts or ends with '-'");
  EXPECT_THAT(Error("# x\nSwitchName=s0 Nodes=../etc/x\n"),
              HasSubstr("topology.conf:2: Nodes=: host name '../etc/x': "));
  // Switch names are not host names: any token is fine.
  EXPECT_THAT(ParseSlurmTopology("SwitchName=s:0/x Nodes=a\n", "topology.conf"),
              IsOk());
}

// The limits of hostlists hold for the whole file, not per list: 8 lines of
// 4M hosts each passed one by one.
TEST(SlurmTopology, HostlistLimitsCoverTheWholeFile) {
  // A budget of 5 MiB leaves 1 MiB for names (5 copies of each): about
  // 24,000 names of 8 characters (41 bytes each).
  const int64_t budget = int64_t{5} << 20;
  const std::string line = "SwitchName=s0 Nodes=tux[00000-19999]\n";
  EXPECT_THAT(ParseSlurmTopology(line, "t.conf", budget), IsOk());
  absl::StatusOr<SwitchTree> t = ParseSlurmTopology(
      line + "SwitchName=s1 Nodes=tux[20000-39999]\n", "t.conf", budget);
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(t.status().message(),
            "t.conf:2: Nodes=: with the lines above, the file's hostlists "
            "take more than 1.0 MiB of names (a fifth of the memory budget: "
            "the tree holds about five copies)");
}

// Chains of Switches= deeper than a tree's 256 levels are refused at once
// (a 200,000-line chain took 50 s to fail on an infinite cost); the walk
// over parents is linear.
TEST(SlurmTopology, ChainsDeeperThanATreeAreRefused) {
  auto chain = [](int n) {
    std::string s = "SwitchName=s0 Nodes=tux0\n";
    for (int i = 1; i < n; ++i)
      absl::StrAppend(&s, "SwitchName=s", i, " Switches=s", i - 1, "\n");
    return s;
  };
  absl::StatusOr<SwitchTree> ok = ParseSlurmTopology(chain(256), "c.conf");
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->switches[0].parent, 1);
  EXPECT_EQ(ParseSlurmTopology(chain(257), "c.conf").status().message(),
            "c.conf:1: switch 's0' has 256 switches above it: rankmap reads "
            "Switches= chains of at most 256 switches (a tree's depth limit)");
  EXPECT_THAT(ParseSlurmTopology(chain(200000), "c.conf").status().message(),
              HasSubstr("c.conf:1: switch 's0' has 199999 switches above it"));
  // A cycle after a long chain is still named as a cycle.
  EXPECT_EQ(Error(chain(100) + "SwitchName=x Switches=y\n" +
                  "SwitchName=y Switches=x\n"),
            "topology.conf:101: switches form a cycle: x -> y -> x");
}

TEST(SlurmTopology, SwitchPathsFromTaskAddresses) {
  absl::StatusOr<SwitchTree> t =
      SwitchTreeFromAddresses({{"tux5", "top.s1.tux5"},
                               {"tux0", "top.s0.tux0"},
                               {"tux5", "top.s1.tux5"},
                               {"tux6", "top.s1.tux6"}},
                              "switch.switch.node");
  ASSERT_THAT(t, IsOk());
  ASSERT_EQ(t->switches.size(), 3u);
  EXPECT_EQ(t->switches[0].name, "top");
  EXPECT_EQ(t->switches[0].parent, -1);
  EXPECT_EQ(t->switches[1].name, "top.s1");
  EXPECT_EQ(t->switches[1].parent, 0);
  EXPECT_THAT(t->switches[1].hosts, ElementsAre("tux5", "tux6"));
  EXPECT_THAT(t->switches[2].hosts, ElementsAre("tux0"));
  // Same switch name under different parents: different switches.
  absl::StatusOr<SwitchTree> u = SwitchTreeFromAddresses(
      {{"a", "x.leaf.a"}, {"b", "y.leaf.b"}}, "switch.switch.node");
  ASSERT_THAT(u, IsOk());
  EXPECT_EQ(u->switches.size(), 4u);
  EXPECT_THAT(SwitchTreeFromAddresses({{"a", "s0.a"}}, "node.switch"),
              Not(IsOk()));
  EXPECT_THAT(SwitchTreeFromAddresses({{"a", "s0..a"}}, "switch.switch.node"),
              Not(IsOk()));
  absl::StatusOr<SwitchTree> two =
      SwitchTreeFromAddresses({{"a", "s0.a"}, {"a", "s1.a"}}, "switch.node");
  ASSERT_THAT(two, Not(IsOk()));
  EXPECT_THAT(two.status().message(), HasSubstr("host 'a' has two addresses"));
}

}  // namespace
}  // namespace rankmap::topology
