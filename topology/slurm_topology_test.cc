#include "topology/slurm_topology.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Error(std::string_view text) {
  absl::StatusOr<SwitchTree> t = ParseSlurmTopology(text, "topology.conf");
  EXPECT_FALSE(t.ok()) << text;
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
  ASSERT_TRUE(t.ok()) << t.status();
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
  ASSERT_TRUE(t.ok()) << t.status();
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

TEST(SlurmTopology, SwitchPathsFromTaskAddresses) {
  absl::StatusOr<SwitchTree> t =
      SwitchTreeFromAddresses({{"tux5", "top.s1.tux5"},
                               {"tux0", "top.s0.tux0"},
                               {"tux5", "top.s1.tux5"},
                               {"tux6", "top.s1.tux6"}},
                              "switch.switch.node");
  ASSERT_TRUE(t.ok()) << t.status();
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
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->switches.size(), 4u);
  EXPECT_FALSE(SwitchTreeFromAddresses({{"a", "s0.a"}}, "node.switch").ok());
  EXPECT_FALSE(
      SwitchTreeFromAddresses({{"a", "s0..a"}}, "switch.switch.node").ok());
  absl::StatusOr<SwitchTree> two =
      SwitchTreeFromAddresses({{"a", "s0.a"}, {"a", "s1.a"}}, "switch.node");
  ASSERT_FALSE(two.ok());
  EXPECT_THAT(two.status().message(), HasSubstr("host 'a' has two addresses"));
}

}  // namespace
}  // namespace rankmap::topology
