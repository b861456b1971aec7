#include "topology/switch_tree.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

SwitchTree TwoLevels() {
  SwitchTree net;
  net.switches = {{"s0", 2, {"tux0", "tux1"}},
                  {"s1", 2, {"tux2"}},
                  {"top", -1, {}},
                  {"empty", 2, {}}};
  return net;
}

TEST(SwitchTree, HostsGetTheirHardwareUnderTheirSwitch) {
  LoadOptions o;
  o.node = "tleaf 2 2 10 2 1";  // 4 leaves, root cost 11
  absl::StatusOr<Tree> t = AttachNodes(TwoLevels(), "topology.conf", o);
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 12);
  EXPECT_EQ(t->host(0), "tux0");
  EXPECT_EQ(t->host(4), "tux1");
  EXPECT_EQ(t->host(11), "tux2");
  // Inside a host: tleaf costs; leaf switch: 10 x 11 = 110; top: 1100.
  EXPECT_EQ(t->Distance(0, 1), 1);
  EXPECT_EQ(t->Distance(0, 2), 11);
  EXPECT_EQ(t->Distance(0, 4), 110);
  EXPECT_EQ(t->Distance(0, 8), 1100);
  EXPECT_EQ(t->kind(t->root()), "switch");
  // The switch without hosts is gone: the root has two children.
  EXPECT_EQ(t->num_children(t->root()), 2);
}

TEST(SwitchTree, LinkSpeedsScaleSwitchCosts) {
  SwitchTree net = TwoLevels();
  net.switches[0].link_speed = 100;
  net.switches[1].link_speed = 25;
  LoadOptions o;
  o.node = "core:2";  // root cost 1
  absl::StatusOr<Tree> t = AttachNodes(net, "f", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->Distance(0, 2), 10);   // s0: base 10 x 100/100
  EXPECT_EQ(t->Distance(4, 5), 1);    // inside tux2
  EXPECT_EQ(t->Distance(0, 4), 100);  // top: level 1, no speed
  net.switches[1].hosts = {"tux2", "tux3"};
  t = AttachNodes(net, "f", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->Distance(4, 6), 40);  // s1: 10 x 100/25
}

TEST(SwitchTree, SeveralTopSwitchesGetARoot) {
  SwitchTree net;
  net.switches = {{"a", -1, {"x"}}, {"b", -1, {"y"}}};
  LoadOptions o;
  o.node = "core:1";
  absl::StatusOr<Tree> t = AttachNodes(net, "f", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->kind(t->root()), "network");
  EXPECT_EQ(t->Distance(0, 1), 100);
}

TEST(SwitchTree, PerHostXmlExports) {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/hosts";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file("tests/data/hwloc-xml/16em64t-4s2c2t.xml",
                             dir + "/tux0.xml",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file("tests/data/hwloc-xml/24em64t-2n6c2t-pci.xml",
                             dir + "/tux1.xml",
                             std::filesystem::copy_options::overwrite_existing);
  SwitchTree net;
  net.switches = {{"s0", -1, {"tux0", "tux1"}}};
  LoadOptions o;
  o.node = dir;
  o.leaf = LeafKind::kCore;
  absl::StatusOr<Tree> t = AttachNodes(net, "topology.conf", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 8 + 12);
  EXPECT_EQ(t->host(8), "tux1");  // the network's name, not the export's
  EXPECT_THAT(t->pus(8), testing::ElementsAre(0, 12));
  net.switches[0].hosts.push_back("tux2");
  absl::StatusOr<Tree> missing = AttachNodes(net, "topology.conf", o);
  ASSERT_THAT(missing, Not(IsOk()));
  EXPECT_THAT(missing.status().message(),
              HasSubstr("topology.conf: host 'tux2': no hwloc export " + dir +
                        "/tux2.xml"));
}

// Host names name files under --node DIR and lines of hostfiles: checked
// before any file is opened, with the switch's line when the file gave one.
TEST(SwitchTree, HostNamesAreCheckedBeforeTheyNameFiles) {
  const std::string dir = ::testing::TempDir() + "/exports";
  std::filesystem::create_directories(dir);
  LoadOptions o;
  o.node = dir;
  SwitchTree net;
  net.switches = {{"s0", -1, {"tux0", "../x"}, 0, 3}};
  absl::StatusOr<Tree> t = AttachNodes(net, "t.conf", o);
  EXPECT_EQ(t.status().message(),
            "t.conf:3: switch 's0': host name '../x': empty label at character "
            "1 (two dots, or a dot at an end)");
  net.switches = {{"s0", -1, {"-oProxyCommand"}}};
  t = AttachNodes(net, "t.conf", o);
  EXPECT_THAT(t.status().message(),
              HasSubstr("t.conf: switch 's0': host name '-oProxyCommand'"));
}

// Costs grow 10x per level: a costly host under a few levels passes DBL_MAX,
// which the builder once reported as "cost inf" without a file or line.
TEST(SwitchTree, CostsThatAreNotFiniteNameTheSwitch) {
  SwitchTree net;
  for (int i = 0; i < 10; ++i) {
    net.switches.push_back(
        {"s" + std::to_string(i), i + 1 < 10 ? i + 1 : -1, {}, 0, i + 1});
  }
  net.switches[0].hosts = {"tux0"};
  LoadOptions o;
  o.node = "tleaf 1 2 1e300";
  absl::StatusOr<Tree> t = AttachNodes(net, "c.conf", o);
  EXPECT_EQ(t.status().message(),
            "c.conf:9: switch 's8': its cost, 1e+301 (10 x the costliest "
            "host) x 10^8 (its level), is not finite");
  net.switches = {{"a", -1, {"x"}, 1e-300}, {"b", -1, {"y"}, 1e300}};
  o.node = "tleaf 1 2 1";
  t = AttachNodes(net, "c.conf", o);
  EXPECT_THAT(t.status().message(),
              HasSubstr("c.conf: switch 'a': its cost, 10 (10 x the costliest "
                        "host) x 10^0 (its level) x 1e+300 / 1e-300 (link "
                        "speeds), is not finite"));
}

// The tree is sized (nodes and host name bytes) before it is built.
TEST(SwitchTree, HostNamesCountInTheSizeEstimate) {
  auto net = [](const std::string& stem) {
    SwitchTree n;
    n.switches = {{"s0", -1, {}}};
    for (int i = 1000; i < 2000; ++i)
      n.switches[0].hosts.push_back(stem + std::to_string(i));
    return n;
  };
  LoadOptions o;
  o.node = "tleaf 1 64 1";
  o.max_memory_bytes = int64_t{20} << 20;
  const std::string stem = std::string(60, 'a') + "." + std::string(60, 'b') +
                           "." + std::string(60, 'c') + ".x";
  absl::StatusOr<Tree> t = AttachNodes(net(stem), "m.conf", o);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(t.status().message(),
            "m.conf: network of 64000 leaves (65002 nodes) needs about 27.6 "
            "MiB, above the memory budget of 20.0 MiB");
  t = AttachNodes(net("tux"), "m.conf", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 64000);
}

// A FIFO where a host description should be: refused, not waited on.
TEST(SwitchTree, AFifoAsNodeDescriptionIsRefused) {
  const std::string fifo = ::testing::TempDir() + "/node-fifo.xml";
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  LoadOptions o;
  o.node = fifo;
  absl::StatusOr<Tree> t = AttachNodes(TwoLevels(), "t.conf", o);
  EXPECT_EQ(t.status().message(),
            "t.conf: host 'tux0': " + fifo +
                ": not a regular file (expected a hwloc XML file)");
}

TEST(SwitchTree, Errors) {
  LoadOptions o;
  absl::StatusOr<Tree> t = AttachNodes(TwoLevels(), "topology.conf", o);
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(t.status().message(),
              HasSubstr("topology.conf: the hosts' hardware is not described"));
  o.node = "pack:0";
  t = AttachNodes(TwoLevels(), "topology.conf", o);
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(t.status().message(), HasSubstr("topology.conf: host 'tux0': "));
  o.node = "core:2";
  SwitchTree cycle;
  cycle.switches = {{"a", 1, {"x"}}, {"b", 0, {}}};
  t = AttachNodes(cycle, "f", o);
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(t.status().message(), HasSubstr("cycle"));
  SwitchTree twice;
  twice.switches = {{"a", -1, {"x"}}, {"b", -1, {"x"}}};
  t = AttachNodes(twice, "f", o);
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(t.status().message(),
              HasSubstr("host 'x' is under two switches"));
  EXPECT_THAT(AttachNodes(SwitchTree{}, "f", o), Not(IsOk()));
  SwitchTree big;
  big.switches = {{"a", -1, {"x", "y"}}};
  o.node = "core:8";
  EXPECT_THAT(AttachNodes(big, "f", o, 10).status().message(),
              HasSubstr("more than 10 leaves"));
}

}  // namespace
}  // namespace rankmap::topology
