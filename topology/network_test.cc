#include "topology/network.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <random>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/hwloc_import.h"
#include "topology/topology.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

// The 4-cluster example: 4, 5, 3 and 4 nodes of 8, 12, 4 and 8 cores; cluster
// d's first node comes from an hwloc XML file next to the spec.
constexpr char kFourClusters[] = R"(# heterogeneous clusters
network
cluster a
4 x core:8
cluster b
5 x pack:2 core:6
cluster c
3 x core:4
cluster d
node d-big nodes/d.xml
3 x core:8
bandwidths 1000000      # cost = 1e6 / bandwidth
1000 100 50  20
100  2000 40 10
50   40  500 25
20   10  25  1000
)";

TEST(Network, FourHeterogeneousClusters) {
  const std::string dir = ::testing::TempDir() + "/four";
  mkdir(dir.c_str(), 0755);
  mkdir((dir + "/nodes").c_str(), 0755);
  auto xml = SyntheticToXml("pack:2 core:4");
  ASSERT_THAT(xml, IsOk());
  WriteFile(dir + "/nodes/d.xml", *xml);
  WriteFile(dir + "/four.net", kFourClusters);
  auto t = LoadTopology(dir + "/four.net");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 4 * 8 + 5 * 12 + 3 * 4 + 4 * 8);
  EXPECT_EQ(t->num_leaves(), 136);
  EXPECT_FALSE(t->Balanced());
  EXPECT_EQ(t->num_children(t->root()), 4);
  // Cluster leaf ranges: a [0,32), b [32,92), c [92,104), d [104,136).
  const int begin[] = {0, 32, 92, 104, 136};
  auto cluster_of = [&](LeafId l) {
    int c = 0;
    while (l >= begin[c + 1]) ++c;
    return c;
  };
  const double bw[4][4] = {{1000, 100, 50, 20},
                           {100, 2000, 40, 10},
                           {50, 40, 500, 25},
                           {20, 10, 25, 1000}};
  for (LeafId x = 0; x < 136; ++x) {
    for (LeafId y = 0; y < 136; ++y) {
      if (cluster_of(x) != cluster_of(y)) {
        ASSERT_EQ(t->Distance(x, y), 1e6 / bw[cluster_of(x)][cluster_of(y)])
            << x << " " << y;
      }
    }
  }
  EXPECT_EQ(t->Distance(0, 32), 10000.0);
  EXPECT_EQ(t->Distance(92, 104), 40000.0);
  EXPECT_EQ(t->Distance(0, 8),
            1000.0);  // two nodes of cluster a: 1e6 / b(a, a)
  EXPECT_EQ(t->Distance(32, 44), 500.0);   // two nodes of cluster b
  EXPECT_EQ(t->Distance(0, 1), 1.0);       // cores of one 8-core node
  EXPECT_EQ(t->Distance(32, 33), 1.0);     // same package of a b node
  EXPECT_EQ(t->Distance(32, 38), 11.0);    // other package of the same b node
  EXPECT_EQ(t->Distance(104, 108), 11.0);  // the XML node's two packages
  EXPECT_EQ(t->host(0), "a-0");
  EXPECT_EQ(t->host(8), "a-1");
  EXPECT_EQ(t->host(91), "b-4");
  EXPECT_EQ(t->host(104), "d-big");
  EXPECT_EQ(t->host(112), "d-1");
  EXPECT_EQ(t->host(135), "d-3");
  EXPECT_EQ(t->os_index(13), 5);
  EXPECT_EQ(t->kind(t->root()), "network");
  EXPECT_EQ(t->kind(t->parent(t->Lca(0, 8))), "network");
  EXPECT_EQ(t->Capacity(t->Lca(32, 91)), 60);
}

TEST(Network, LevelCostsAndDefaults) {
  auto t = ParseNetworkSpec(
      "network\ncost cluster 50\ncost network 700\ncluster x\n2 x "
      "core:2\ncluster y\n"
      "node y0 tleaf 1 2 3\n",
      "s.net", "");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 6);
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(1, 2), 50.0);
  EXPECT_EQ(t->Distance(0, 4), 700.0);
  EXPECT_EQ(t->Distance(4, 5), 3.0);
  EXPECT_EQ(t->host(5), "y0");
  auto sw = ParseNetworkSpec(
      "network\nswitch s0\n2 x core:2\nswitch s1\n1 x core:2\n", "s.net", "");
  ASSERT_THAT(sw, IsOk());
  EXPECT_EQ(sw->kind(sw->Lca(0, 2)), "switch");
  EXPECT_EQ(sw->host(2), "s0-1");
  EXPECT_EQ(sw->Distance(0, 4), 100.0);
  // Defaults: cluster = 10 x the largest node root cost (111 here), network =
  // 10 x cluster.
  auto d = ParseNetworkSpec(
      "network\ncluster x\n2 x pack:2 core:2 pu:2\ncluster y\n1 x core:2\n",
      "s.net", "");
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->Distance(0, 8), 1110.0);
  EXPECT_EQ(d->Distance(0, 16), 11100.0);
  // leaf core and level_costs apply to the hwloc nodes.
  auto c = ParseNetworkSpec(
      "network\nleaf core\nlevel_costs pack=5\ncluster x\n2 x pack:2 core:2 "
      "pu:2\n",
      "s.net", "");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->num_leaves(), 8);
  EXPECT_EQ(c->Distance(0, 1), 5.0);
  // A costs matrix with a zero diagonal keeps `cost cluster`.
  auto m = ParseNetworkSpec(
      "network\ncost cluster 9\ncluster x\n2 x core:1\ncluster y\n1 x "
      "core:1\ncosts\n0 4\n4 0\n",
      "s.net", "");
  ASSERT_THAT(m, IsOk());
  EXPECT_EQ(m->Distance(0, 1), 9.0);
  EXPECT_EQ(m->Distance(0, 2), 4.0);
}

TEST(Network, MalformedSpecsNameLineColumnAndField) {
  const std::string dir = ::testing::TempDir();
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"network\ncluster a\nnode n1 nodes/missing.xml\n",
       "s.net:3: node 'nodes/missing.xml': "},
      {"network\ncluster a\n1 x core:2\ncluster b\n1 x core:2\ncosts\n0 5\n6 "
       "0\n",
       "s.net:7:3: costs: not symmetric: entry (1, 2) = 5 but entry (2, 1) = "
       "6"},
      {"network\ncluster a\n1 x core:2\ncluster b\n1 x core:2\nbandwidths\n1 "
       "2\n2\n",
       "s.net:8: bandwidths row 2: expected 2 numbers, found 1"},
      {"network\ncluster a\n1 x core:2\ncosts\n0 1\n1 0\n",
       "s.net:4: costs: 2 rows for 1 clusters"},
      {"network\ncluster a\n1 x core:2\nbandwidths\n0\n",
       "s.net:5:1: bandwidths row 1: entry '0'"},
      {"network\nswtich a\n", "s.net:2:1: unknown directive 'swtich'"},
      {"network\n2 x core:2\n",
       "s.net:2: node line before any 'cluster <name>' line"},
      {"network\ncluster a\n0 x core:2\n", "s.net:3:1: node count"},
      {"network\ncluster a\n-3 x core:2\n", "s.net:3:1: node count"},
      {"network\ncluster a\n1 x pack:2 foo:2\n",
       "s.net:3: node 'pack:2 foo:2': topology/synthetic: unknown level 'foo' "
       "at column 12"},
      {"network\ncluster a\n1 x pack:0 core:2\n", "count '0'"},
      {"network\ncluster a\nnode n tleaf 2 2 1\n",
       "s.net:3:19: missing field 'a2'"},
      {"network\ncluster a\ncluster b\n1 x core:1\n",
       "s.net:2: cluster 'a' has no nodes"},
      {"network\ncluster a\n1 x core:1\ncluster a\n",
       "s.net:4:9: cluster 'a' already defined on line 2"},
      {"network\ncost network -5\n",
       "s.net:2:14: cost network: expected a finite non-negative number"},
      {"network\ncost switch 5\n", "s.net:2:6: cost: expected"},
      {"cluster a\n", "s.net:1: a network spec starts with the line 'network'"},
      {"network\n", "s.net: no 'cluster <name>' line"},
      {"network\nleaf hyperthread\n",
       "s.net:2:6: leaf: expected 'pu' or 'core'"},
      {"network\ncluster a\n1 x core:1\nbandwidths -2\n1\n",
       "s.net:4:12: bandwidths: scale"},
      {"network\nspeed 0\n",
       "s.net:2:7: speed: expected one finite number > 0, found '0'"},
      {"network\ncluster a\nspeed\n", "s.net:3:1: speed: expected"},
  };
  for (const Case& c : cases) {
    auto t = ParseNetworkSpec(c.text, "s.net", dir);
    ASSERT_THAT(t, Not(IsOk())) << c.text;
    EXPECT_THAT(Msg(t.status()), HasSubstr(c.expected)) << c.text;
  }
}

TEST(Network, SpeedDirectives) {
  // Default 2 for every cluster; cluster a sets 4 for its first node, then 1;
  // cluster b returns to the default; an hwloc node without a directive keeps
  // its CPU kinds.
  constexpr char kSpec[] = R"(network
speed 2
cluster a
speed 4
1 x core:2
speed 1
2 x core:2
cluster b
1 x core:3
)";
  auto t = ParseNetworkSpec(kSpec, "s.net", "");
  ASSERT_THAT(t, IsOk());
  const std::vector<double> expected = {4, 4, 1, 1, 1, 1, 2, 2, 2};
  EXPECT_EQ(std::vector<double>(t->speeds().begin(), t->speeds().end()),
            expected);

  const std::string xml_dir = "tests/data/hwloc-xml";
  auto hybrid = ParseNetworkSpec(
      "network\nleaf core\ncluster a\nnode h "
      "Intel-RaptorLake-Corei7-1370P.xml\nspeed 3\nnode g "
      "Intel-RaptorLake-Corei7-1370P.xml\n",
      "s.net", xml_dir);
  ASSERT_THAT(hybrid, IsOk());
  ASSERT_EQ(hybrid->num_leaves(), 28);
  EXPECT_EQ(hybrid->speed(0), 2.0);   // a P core of h
  EXPECT_EQ(hybrid->speed(13), 1.0);  // an E core of h
  EXPECT_EQ(hybrid->speed(14), 3.0);  // g, overridden
  EXPECT_EQ(hybrid->speed(27), 3.0);

  // With links the nodes become hosts and keep their speeds.
  auto linked = ParseNetworkSpec(
      "network\nlink node 40GBps:0.2us\nlink cluster 10Gbps:2us\ncluster a\n"
      "1 x core:2\nspeed 2\n1 x core:2\n",
      "s.net", "");
  ASSERT_THAT(linked, IsOk());
  EXPECT_EQ(
      std::vector<double>(linked->speeds().begin(), linked->speeds().end()),
      (std::vector<double>{1, 1, 2, 2}));
}

TEST(Network, SizeIsCheckedBeforeBuilding) {
  // 41 bytes describing 2^20 nodes of 64 leaves: 2^26 leaves, 17 GiB to build.
  LoadOptions o;
  o.max_memory_bytes = int64_t{2} << 30;
  auto big = ParseNetworkSpec("network\ncluster a\n1048576 x tleaf 1 64 1\n",
                              "big.net", "", o);
  EXPECT_EQ(big.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(Msg(big.status()),
            "big.net:3: network of 67108864 leaves (68157442 nodes) needs "
            "about 16.3 GiB, above the memory budget of 2.0 GiB");
  // Hosts whose hwloc load alone would take hours are refused on their line.
  auto slow = ParseNetworkSpec("network\ncluster a\n4 x core:22100\n",
                               "slow.net", "", o);
  EXPECT_EQ(slow.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(Msg(slow.status()),
              HasSubstr("slow.net:3: node 'core:22100': topology/synthetic "
                        "'core:22100': hwloc's load time grows"));
}

// Node names reach hostfiles, ssh and --node paths: `node <host>` and the
// <cluster>-<i> names are host names, checked on their line.
TEST(Network, NodeNamesAreHostNames) {
  auto err = [](const std::string& spec) {
    auto t = ParseNetworkSpec(spec, "n.net", "");
    return t.ok() ? std::string("OK") : Msg(t.status());
  };
  EXPECT_EQ(err("network\ncluster a\nnode -oProxyCommand core:2\n"),
            "n.net:3:6: node: host name '-oProxyCommand': a label starts or "
            "ends with '-'");
  EXPECT_THAT(err("network\ncluster a\nnode ../x core:2\n"),
              HasSubstr("n.net:3:6: node: host name '../x': empty label"));
  EXPECT_EQ(err("network\ncluster a.\n2 x core:2\n"),
            "n.net:3:1: node names 'a.-<i>' of cluster line 2: host name "
            "'a.-1': a label starts or ends with '-'");
  const std::string long_name(250, 'c');
  EXPECT_THAT(err("network\ncluster " + long_name + "\n2 x core:2\n"),
              HasSubstr("n.net:3:1: node names '" + std::string(64, 'c') +
                        "...-<i>' of cluster line 2: host name '"));
  EXPECT_EQ(err("network\ncluster rack_1.dc\n2 x core:2\nnode gpu-7 core:2\n"),
            "OK");
}

// The size estimate counts every copy of the node names: 10,000 nodes of 16
// leaves under 167-character names need 68.7 MiB, not the 41.5 MiB of their
// nodes alone.
TEST(Network, NodeNamesCountInTheSizeEstimate) {
  LoadOptions o;
  o.max_memory_bytes = int64_t{64} << 20;
  const std::string name = std::string(60, 'a') + "." + std::string(60, 'b') +
                           "." + std::string(40, 'c');
  auto t = ParseNetworkSpec(
      "network\ncluster " + name + "\n10000 x tleaf 1 16 1\n", "n.net", "", o);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(Msg(t.status()),
            "n.net:3: network of 160000 leaves (170002 nodes) needs about "
            "68.7 MiB, above the memory budget of 64.0 MiB");
  t = ParseNetworkSpec("network\ncluster c\n10000 x tleaf 1 16 1\n", "n.net",
                       "", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 160000);
}

// Default costs are 10x the level below; past DBL_MAX they are refused on the
// line that set them (the builder once said "cost inf is negative or not
// finite", naming no file).
TEST(Network, DefaultCostsThatAreNotFiniteNameTheirLine) {
  auto err = [](const std::string& spec) {
    auto t = ParseNetworkSpec(spec, "n.net", "");
    return t.ok() ? std::string("OK") : Msg(t.status());
  };
  EXPECT_EQ(err("network\ncost cluster 1e308\ncluster a\n2 x core:2\n"),
            "n.net:2: cost network: the default, 10 x cost cluster (1e+308), "
            "is not finite: give 'cost network <c>'");
  EXPECT_EQ(err("network\ncluster a\nnode x core:2\nnode y tleaf 1 2 1e308\n"),
            "n.net:4: cost cluster: the default, 10 x this node's root cost "
            "(1e+308), is not finite: give 'cost cluster <c>'");
  EXPECT_EQ(err("network\ncost cluster 1e308\ncost network 1e308\ncluster a\n"
                "2 x core:2\n"),
            "OK");
}

// A FIFO where a node's XML should be: refused by name, not waited on.
TEST(Network, AFifoAsNodeXmlIsRefused) {
  const std::string dir = ::testing::TempDir() + "/fifo-spec";
  mkdir(dir.c_str(), 0755);
  const std::string fifo = dir + "/node.xml";
  unlink(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  WriteFile(dir + "/f.net", "network\ncluster a\nnode n0 node.xml\n");
  auto t = LoadTopology(dir + "/f.net");
  EXPECT_EQ(Msg(t.status()),
            dir + "/f.net:3: node 'node.xml': " + fifo +
                ": not a regular file (expected a hwloc XML file)");
}

TEST(Network, ManyClustersParseInLinearTime) {
  // 50,000 clusters: duplicate names are found through a hash table, not by
  // comparing every pair.
  std::string spec = "network\n";
  for (int c = 0; c < 50000; ++c)
    spec += "cluster c" + std::to_string(c) + "\n1 x tleaf 1 2 1\n";
  auto t = ParseNetworkSpec(spec, "k.net", "");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 100000);
  EXPECT_EQ(t->num_children(t->root()), 50000);
  spec += "cluster c17\n";
  EXPECT_EQ(Msg(ParseNetworkSpec(spec, "k.net", "").status()),
            "k.net:100002:9: cluster 'c17' already defined on line 36");
}

TEST(Network, Detection) {
  EXPECT_TRUE(LooksLikeNetworkSpec("# comment\n\nnetwork\ncluster a\n"));
  EXPECT_FALSE(LooksLikeNetworkSpec("tleaf 1 2 3"));
  EXPECT_FALSE(LooksLikeNetworkSpec(""));
}

// Seeded mutations of valid specs: every result is a valid tree or an error
// naming the source.
TEST(Network, MutatedSpecsNeverCrash) {
  const std::string seeds[] = {
      "network\ncost cluster 50\ncluster x\n2 x core:2\ncluster y\nnode y0 "
      "tleaf 2 2 3 2 1\n",
      "network\nbandwidths 100\ncluster a\n2 x pack:2 core:2\ncluster b\n1 x "
      "core:3\n10 2\n2 20\n",
      "network\nleaf core\ncluster a\n3 x pack:1 core:2 pu:2\ncosts\n0\n"};
  const std::string alphabet = "0123456789 .-x:\n#abcnoetpuklrs";
  std::mt19937_64 rng(7);
  int ok = 0, errors = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    const std::string s =
        rankmap::testing::MutateText(seeds[iter % 3], alphabet, rng);
    auto t = ParseNetworkSpec(s, "mutant", "", {}, int64_t{1} << 12);
    if (t.ok()) {
      ASSERT_THAT(t->Validate(), IsOk()) << s;
      ++ok;
    } else {
      EXPECT_THAT(Msg(t.status()), HasSubstr("mutant")) << s;
      ++errors;
    }
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(errors, 0);
}

constexpr char kLinked[] = R"(network
link node 40GBps:0.2us
link cluster 10Gbps:2us
cluster lyon
16 x core:16
cluster nancy
link cluster 1Gbps:10us      # nancy's nodes have slower NICs
8 x core:16
links
-               1Gbps:5ms
1Gbps:5ms       -
)";

TEST(Network, LinksDeriveCostsByHand) {
  auto t = ParseNetworkSpec(kLinked, "two.net", "");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 24 * 16);
  // Two cores of one node: the loopback, 0.2 us + 65536 / 40e9 s.
  EXPECT_NEAR(t->Distance(0, 15), 1.8384, 1e-9);
  // Two lyon nodes: 2 x 2 us + 65536 / 1.25e9 s.
  EXPECT_NEAR(t->Distance(0, 16), 56.4288, 1e-9);
  // Two nancy nodes: 2 x 10 us + 65536 / 1.25e8 s.
  EXPECT_NEAR(t->Distance(256, 272), 544.288, 1e-9);
  // Lyon - nancy: 2 + 10 us + 5 ms, bottleneck 1 Gbps.
  EXPECT_NEAR(t->Distance(0, 256), 5012 + 524.288, 1e-9);
  const NodeId host = t->HostOf(0);
  ASSERT_GE(host, 0);
  EXPECT_EQ(t->kind(host), "Machine+NUMANode");
  EXPECT_EQ(t->host(0), "lyon-0");
  EXPECT_EQ(t->host(256), "nancy-0");
  EXPECT_EQ(t->uplink(t->HostOf(256)).latency, 1e-5);
  EXPECT_TRUE(t->has_pair_links(t->root()));
}

TEST(Network, LinkErrors) {
  auto err = [](const std::string& text) {
    auto t = ParseNetworkSpec(text, "x.net", "");
    return t.ok() ? std::string("OK") : Msg(t.status());
  };
  EXPECT_THAT(err("network\nlink node 40GBps:0.2us\ncluster a\n2 x core:2\n"),
              HasSubstr("x.net:3: cluster 'a' has no 'link cluster"));
  EXPECT_THAT(
      err("network\nlink node 40GBps\n"),
      HasSubstr("x.net:2:11: link node: expected <bandwidth>:<latency>"));
  EXPECT_THAT(
      err("network\nlink switch 1Gbps:1us\n"),
      HasSubstr("x.net:2:6: link: expected 'link node|cluster|network"));
  EXPECT_THAT(
      err("network\nlink node 1GBps:0\nlink cluster 1Gbps:1us\ncost network "
          "5\ncluster a\n2 x core:2\n"),
      HasSubstr("x.net:4: costs are derived from the links (line 2)"));
  EXPECT_THAT(err("network\nlink node 1GBps:0\nlink cluster 1Gbps:1us\n"
                  "cluster a\n1 x core:2\ncluster b\n1 x core:2\nlinks\n"
                  "- 1Gbps:1ms\n1Gbps:2ms -\n"),
              HasSubstr("x.net:10:1: links: not symmetric"));
  EXPECT_THAT(err("network\nlink node 1GBps:0\nlink cluster 1Gbps:1us\n"
                  "cluster a\n1 x core:2\ncluster b\n1 x core:2\nlinks\n"
                  "1Gbps:1ms 1Gbps:1ms\n1Gbps:1ms -\n"),
              HasSubstr("x.net:9:1: links row 1: entry 1 is on the diagonal"));
  EXPECT_THAT(err("network\nlink node 1GBps:0\nlink cluster 1Gbps:1us\n"
                  "cluster a\n1 x core:2\ncluster b\n1 x core:2\nlinks\n"
                  "- 1Gbps:1ms\n"),
              HasSubstr("x.net:8: links: 1 rows for 2 clusters"));
}

}  // namespace
}  // namespace rankmap::topology
