#include "topology/simgrid_platform.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/network.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

// Same shape, leaf order, host names, capacities, links and costs.
void ExpectSameTree(const Tree& a, const Tree& b) {
  ASSERT_EQ(a.num_nodes(), b.num_nodes());
  ASSERT_EQ(a.num_leaves(), b.num_leaves());
  for (NodeId v = 0; v < a.num_nodes(); ++v) {
    ASSERT_EQ(a.parent(v), b.parent(v)) << v;
    EXPECT_EQ(a.uplink(v), b.uplink(v)) << v;
    EXPECT_EQ(a.loopback(v), b.loopback(v)) << v;
    EXPECT_EQ(a.cost(v), b.cost(v)) << v;
    ASSERT_EQ(a.has_pair_links(v), b.has_pair_links(v)) << v;
    if (a.has_pair_links(v)) {
      for (int32_t i = 0; i < a.num_children(v); ++i) {
        for (int32_t j = 0; j < a.num_children(v); ++j) {
          EXPECT_EQ(a.pair_link(v, i, j), b.pair_link(v, i, j));
          EXPECT_EQ(a.pair_cost(v, i, j), b.pair_cost(v, i, j));
        }
      }
    }
  }
  for (LeafId l = 0; l < a.num_leaves(); ++l) {
    EXPECT_EQ(a.host(l), b.host(l)) << l;
    EXPECT_EQ(a.capacity(l), b.capacity(l)) << l;
  }
}

void ExpectRoundTrip(const Tree& t) {
  auto xml = WriteSimGridPlatform(t);
  ASSERT_THAT(xml, IsOk());
  EXPECT_TRUE(LooksLikeSimGridPlatform(*xml));
  auto back = ParseSimGridPlatform(*xml, "written.xml");
  ASSERT_THAT(back, IsOk()) << back.status() << "\n" << *xml;
  ASSERT_THAT(back->Validate(), IsOk());
  ExpectSameTree(t, *back);
  // Writing the tree read back gives the same text.
  EXPECT_EQ(WriteSimGridPlatform(*back).value(), *xml);
}

TEST(SimGridPlatform, TleafRoundTrip) {
  for (const char* s :
       {"tleaf 3 4 10Gbps:2us 16 25Gbps:1us 24 40GBps:0.2us",
        "tleaf 1 8 40GBps:0s", "tleaf 2 2 1Gbps:5us 3 1GBps:1us"}) {
    auto t = ParseTleaf(s);
    ASSERT_THAT(t, IsOk());
    ExpectRoundTrip(*t);
  }
}

TEST(SimGridPlatform, WritesFloydZoneByHand) {
  auto t = ParseTleaf("tleaf 2 2 1Gbps:5us 3 1GBps:1us");
  ASSERT_THAT(t, IsOk());
  auto xml = WriteSimGridPlatform(*t);
  ASSERT_THAT(xml, IsOk());
  EXPECT_EQ(*xml, R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="rankmap" routing="Floyd">
    <router id="sw0"/>
    <host id="n0" speed="1e+09f" core="3"/>
    <host id="n1" speed="1e+09f" core="3"/>
    <link id="n0-loopback" bandwidth="1GBps" latency="1us" sharing_policy="SHARED"/>
    <link id="n0-up" bandwidth="125MBps" latency="5us" sharing_policy="SPLITDUPLEX"/>
    <link id="n1-loopback" bandwidth="1GBps" latency="1us" sharing_policy="SHARED"/>
    <link id="n1-up" bandwidth="125MBps" latency="5us" sharing_policy="SPLITDUPLEX"/>
    <route src="n0" dst="n0" symmetrical="NO"><link_ctn id="n0-loopback"/></route>
    <route src="n0" dst="sw0"><link_ctn id="n0-up" direction="UP"/></route>
    <route src="n1" dst="n1" symmetrical="NO"><link_ctn id="n1-loopback"/></route>
    <route src="n1" dst="sw0"><link_ctn id="n1-up" direction="UP"/></route>
  </zone>
</platform>
)");
}

TEST(SimGridPlatform, NetworkSpecRoundTrips) {
  // Pair links at the root, a cluster uplink on one cluster, nodes with
  // inner hwloc levels flattened to cores by the writer.
  constexpr char kSpec[] = R"(network
leaf core
link node 40GBps:0.2us
link cluster 10Gbps:2us
cluster a
link network 100Gbps:1us
3 x core:4
cluster b
2 x core:2
cluster c
1 x core:8
links
-           1Gbps:5ms   2Gbps:1ms
1Gbps:5ms   -           1Gbps:10ms
2Gbps:1ms   1Gbps:10ms  -
)";
  auto t = ParseNetworkSpec(kSpec, "three.net", "");
  ASSERT_THAT(t, IsOk());
  auto xml = WriteSimGridPlatform(*t);
  ASSERT_THAT(xml, IsOk());
  EXPECT_THAT(*xml, HasSubstr("<zone id=\"rankmap\" routing=\"Full\">"));
  EXPECT_THAT(*xml,
              HasSubstr("<zoneRoute src=\"z0\" dst=\"z1\" gw_src=\"z0-gw\" "
                        "gw_dst=\"sw1\">"));
  auto back = ParseSimGridPlatform(*xml, "three.xml");
  ASSERT_THAT(back, IsOk());
  // The hosts are flat in the platform, so compare distances leaf by leaf.
  ASSERT_EQ(back->num_leaves(), t->num_leaves());
  for (LeafId x = 0; x < t->num_leaves(); ++x) {
    for (LeafId y = 0; y < t->num_leaves(); ++y)
      ASSERT_DOUBLE_EQ(back->Distance(x, y), t->Distance(x, y))
          << x << " " << y;
    EXPECT_EQ(back->host(x), t->host(x));
  }
  ExpectRoundTrip(*back);
}

TEST(SimGridPlatform, FlatClusterByHand) {
  constexpr char kXml[] = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- 4 hosts of 12 cores -->
  <cluster id="c" prefix="node-" radical="0-1,5,7" suffix=".lan" speed="1Gf"
           core="12" bw="1.25GBps" lat="10us" bb_bw="2.5GBps" bb_lat="4us"
           loopback_bw="40GBps" loopback_lat="0.5us"/>
</platform>
)";
  auto t = ParseSimGridPlatform(kXml, "c.xml");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 48);
  EXPECT_EQ(t->host(0), "node-0.lan");
  EXPECT_EQ(t->host(24), "node-5.lan");
  EXPECT_EQ(t->host(47), "node-7.lan");
  EXPECT_EQ(t->kind(t->root()), "cluster");
  // One host: 0.5 us + 65536 / 40e9 s. Two hosts: 10 + 4 + 10 us and 1.25
  // GB/s.
  EXPECT_NEAR(t->Distance(0, 11), 0.5 + 1.6384, 1e-9);
  EXPECT_NEAR(t->Distance(0, 12), 24 + 52.4288, 1e-9);
}

TEST(SimGridPlatform, ClusterWithoutLoopbackGoesThroughItsLink) {
  auto t = ParseSimGridPlatform(
      R"(<platform version="4.1"><cluster id="c" prefix="h" suffix=""
          radical="0-1" speed="1Gf" core="2" bw="1GBps" lat="5us"/></platform>)",
      "c.xml");
  ASSERT_THAT(t, IsOk());
  // Up and down the host's link: 10 us + 65536 / 1e9 s.
  EXPECT_NEAR(t->Distance(0, 1), 10 + 65.536, 1e-9);
  EXPECT_NEAR(t->Distance(0, 2), 10 + 65.536, 1e-9);
}

TEST(SimGridPlatform, FatTreeLevels) {
  // 2 levels: 4 level-1 switches of 4 nodes, 2 parents each.
  auto t = ParseSimGridPlatform(
      R"(<platform version="4.1"><cluster id="ft" prefix="n" suffix=""
          radical="0-15" speed="1Gf" core="1" bw="1GBps" lat="1us"
          topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"/></platform>)",
      "ft.xml");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 16);
  EXPECT_EQ(t->num_children(t->root()), 4);
  // Same level-1 switch: 2 links; else 4 links of 1 us; 65.536 us transfer.
  EXPECT_NEAR(t->Distance(0, 3), 2 + 65.536, 1e-9);
  EXPECT_NEAR(t->Distance(0, 4), 4 + 65.536, 1e-9);
  EXPECT_NEAR(t->Distance(3, 15), 4 + 65.536, 1e-9);
}

TEST(SimGridPlatform, DragonflyLevels) {
  auto t = ParseSimGridPlatform(
      R"(<platform version="4.1"><cluster id="df" prefix="n" suffix=""
          radical="0-71" speed="1Gf" bw="1GBps" lat="1us"
          topology="DRAGONFLY" topo_parameters="3,1;2,1;3,1;4"/></platform>)",
      "df.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 72);
  EXPECT_EQ(t->num_children(t->root()), 3);
  EXPECT_NEAR(t->Distance(0, 3), 2 + 65.536, 1e-9);   // one router
  EXPECT_NEAR(t->Distance(0, 4), 4 + 65.536, 1e-9);   // one chassis
  EXPECT_NEAR(t->Distance(0, 12), 6 + 65.536, 1e-9);  // one group
  EXPECT_NEAR(t->Distance(0, 24), 8 + 65.536, 1e-9);  // two groups
}

// Three clusters of a grid in one Full zone, joined by zone routes over a
// shared backbone and per-site links.
constexpr char kGrid[] = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="grid" routing="Full">
    <cluster id="edel" prefix="edel-" radical="0-3" suffix="" speed="2Gf"
             core="8" bw="1.25GBps" lat="10us" loopback_bw="20GBps"
             loopback_lat="0.1us" router_id="edel-gw"/>
    <cluster id="taurus" prefix="taurus-" radical="0-4" suffix="" speed="3Gf"
             core="12" bw="1.25GBps" lat="10us" loopback_bw="20GBps"
             loopback_lat="0.1us" router_id="taurus-gw"/>
    <cluster id="sol" prefix="sol-" radical="0-2" suffix="" speed="1Gf"
             bw="125MBps" lat="50us" router_id="sol-gw"/>
    <link id="backbone" bandwidth="1.25GBps" latency="2ms"/>
    <link id="sol-wan" bandwidth="62.5MBps" latency="1ms"/>
    <zoneRoute src="edel" dst="taurus" gw_src="edel-gw" gw_dst="taurus-gw">
      <link_ctn id="backbone"/>
    </zoneRoute>
    <zoneRoute src="edel" dst="sol" gw_src="edel-gw" gw_dst="sol-gw">
      <link_ctn id="backbone"/><link_ctn id="sol-wan"/>
    </zoneRoute>
    <zoneRoute src="taurus" dst="sol" gw_src="taurus-gw" gw_dst="sol-gw">
      <link_ctn id="backbone"/><link_ctn id="sol-wan"/>
    </zoneRoute>
  </zone>
</platform>
)";

TEST(SimGridPlatform, ZonesOfClustersByHand) {
  auto t = ParseSimGridPlatform(kGrid, "grid.xml");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 4 * 8 + 5 * 12 + 3);
  EXPECT_TRUE(t->has_pair_links(t->root()));
  const LeafId edel = 0, taurus = 32, sol = 92;
  EXPECT_EQ(t->host(taurus), "taurus-0");
  EXPECT_EQ(t->host(sol + 2), "sol-2");
  // edel - taurus: 10 + 2000 + 10 us, 1.25 GB/s.
  EXPECT_NEAR(t->Distance(edel, taurus), 2020 + 52.4288, 1e-9);
  // edel - sol: 10 + 2000 + 1000 + 50 us, 62.5 MB/s.
  EXPECT_NEAR(t->Distance(edel, sol), 3060 + 1048.576, 1e-9);
  // Inside taurus: its loopback; between two taurus hosts: 20 us.
  EXPECT_NEAR(t->Distance(taurus, taurus + 1), 0.1 + 3.2768, 1e-9);
  EXPECT_NEAR(t->Distance(taurus, taurus + 12), 20 + 52.4288, 1e-9);
  // Written back (as per-pair links) and read again, nothing changes.
  ExpectRoundTrip(*t);
}

TEST(SimGridPlatform, FullZoneOfHostsIsPairwise) {
  auto t = ParseSimGridPlatform(R"(<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="a" speed="1Gf" core="2"/><host id="b" speed="1Gf"/>
    <host id="c" speed="1Gf"/>
    <link id="ab" bandwidth="1GBps" latency="1ms"/>
    <link id="ac" bandwidth="1GBps" latency="2ms"/>
    <link id="bc" bandwidth="1GBps" latency="3ms"/>
    <route src="a" dst="b"><link_ctn id="ab"/></route>
    <route src="a" dst="c"><link_ctn id="ac"/></route>
    <route src="b" dst="c"><link_ctn id="bc"/></route>
  </zone></platform>)",
                                "full.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 4);
  EXPECT_NEAR(t->Distance(0, 2), 1000 + 65.536, 1e-9);
  EXPECT_NEAR(t->Distance(2, 3), 3000 + 65.536, 1e-9);
  // No loopback route: SimGrid's default, 10 GBps and no latency.
  EXPECT_NEAR(t->Distance(0, 1), 6.5536, 1e-9);
}

TEST(SimGridPlatform, RoutedTreeRootedAtItsCentre) {
  // Routes written parent -> child (not child -> parent): the root is the
  // tree's centre, the router in the middle.
  auto t = ParseSimGridPlatform(R"(<platform version="4.1">
  <zone id="z" routing="Dijkstra">
    <router id="top"/><router id="s0"/><router id="s1"/>
    <host id="h0" speed="1Gf"/><host id="h1" speed="1Gf"/>
    <host id="h2" speed="1Gf"/><host id="h3" speed="1Gf"/>
    <link id="l" bandwidth="1GBps" latency="1us"/>
    <route src="top" dst="s0"><link_ctn id="l"/></route>
    <route src="top" dst="s1"><link_ctn id="l"/></route>
    <route src="s0" dst="h0"><link_ctn id="l"/></route>
    <route src="s0" dst="h1"><link_ctn id="l"/></route>
    <route src="s1" dst="h2"><link_ctn id="l"/></route>
    <route src="s1" dst="h3"><link_ctn id="l"/></route>
  </zone></platform>)",
                                "tree.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->height(), 3);
  EXPECT_NEAR(t->Distance(0, 1), 2 + 65.536, 1e-9);
  EXPECT_NEAR(t->Distance(0, 2), 4 + 65.536, 1e-9);
}

TEST(SimGridPlatform, ErrorsNameFileLineAndElement) {
  auto err = [](const std::string& xml) {
    auto t = ParseSimGridPlatform(xml, "p.xml");
    return t.ok() ? std::string("OK") : Msg(t.status());
  };
  EXPECT_THAT(err("<platform version=\"4.1\">\n<cluster id=\"t\" prefix=\"n\" "
                  "suffix=\"\" radical=\"0-7\" speed=\"1Gf\" bw=\"1GBps\" "
                  "lat=\"1us\"\n topology=\"TORUS\" topo_parameters=\"2,2,2\"/>"
                  "\n</platform>"),
              HasSubstr("p.xml:3: <cluster id='t'>: topology TORUS: a torus is "
                        "not a tree"));
  EXPECT_THAT(err("<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">"
                  "\n<host id=\"a\" speed=\"1Gf\">\n</zone></platform>"),
              HasSubstr("p.xml:4: "));
  EXPECT_THAT(err("<platform version=\"3\"><zone id=\"z\" routing=\"Full\"/>"
                  "</platform>"),
              HasSubstr("p.xml:1: <platform>: version '3'"));
  EXPECT_THAT(err("<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">"
                  "\n<host id=\"a\" speed=\"1Gf\"/>\n<peer id=\"p\"/></zone>"
                  "</platform>"),
              HasSubstr("p.xml:3: <peer id='p'>: element not read by rankmap"));
  EXPECT_THAT(err("<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">"
                  "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
                  "\n<route src=\"a\" dst=\"b\"><link_ctn id=\"nope\"/></route>"
                  "</zone></platform>"),
              HasSubstr("p.xml:2: <link_ctn id='nope'>: link 'nope' is not "
                        "defined"));
  EXPECT_THAT(err("<platform version=\"4.1\"><zone id=\"z\" routing=\"Floyd\">"
                  "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
                  "<router id=\"r\"/><router id=\"s\"/>"
                  "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>"
                  "<route src=\"a\" dst=\"r\"><link_ctn id=\"l\"/></route>"
                  "<route src=\"b\" dst=\"s\"><link_ctn id=\"l\"/></route>"
                  "<route src=\"a\" dst=\"s\"><link_ctn id=\"l\"/></route>"
                  "<route src=\"r\" dst=\"s\"><link_ctn id=\"l\"/></route>"
                  "</zone></platform>"),
              HasSubstr("<zone id='z'>: its routes do not form a tree"));
  EXPECT_THAT(err("<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" "
                  "suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"fast\" "
                  "lat=\"1us\"/></platform>"),
              HasSubstr("<cluster id='c'>: attribute bw: expected a positive "
                        "bandwidth"));
  EXPECT_THAT(err("<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" "
                  "suffix=\"\" radical=\"0-9\" speed=\"1Gf\" bw=\"1GBps\" "
                  "lat=\"1us\" topology=\"FAT_TREE\" "
                  "topo_parameters=\"2;4,4;1,2;1,2\"/></platform>"),
              HasSubstr("has 16 nodes but the radical gives 10"));
  EXPECT_THAT(err("<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" "
                  "suffix=\"\" radical=\"0-99999999\" speed=\"1Gf\" "
                  "bw=\"1GBps\" lat=\"1us\"/></platform>"),
              HasSubstr("more than"));
  EXPECT_THAT(err("<topology/>"), HasSubstr("not a SimGrid platform"));
  std::string many =
      "<platform version=\"4.1\"><zone id=\"top\" routing=\"Full\">";
  for (int i = 0; i < 2049; ++i) {
    many += "<zone id=\"z" + std::to_string(i) +
            "\" routing=\"Full\"><host id=\"h" + std::to_string(i) +
            "\" speed=\"1Gf\"/></zone>";
  }
  many += "</zone></platform>";
  EXPECT_THAT(err(many), HasSubstr("more than 2048 zones joined pairwise"));
  std::string deep = "<platform version=\"4.1\">";
  for (int i = 0; i < 100; ++i)
    deep += "<zone id=\"z" + std::to_string(i) + "\" routing=\"Full\">";
  deep += "<host id=\"h\" speed=\"1Gf\"/>";
  for (int i = 0; i < 100; ++i) deep += "</zone>";
  deep += "</platform>";
  EXPECT_THAT(err(deep), HasSubstr("nested more than 64 deep"));
  EXPECT_THAT(err(""), HasSubstr("p.xml:1: "));
}

TEST(SimGridPlatform, WriterErrors) {
  auto plain = ParseTleaf("tleaf 2 2 10 4 1");
  ASSERT_THAT(plain, IsOk());
  auto xml = WriteSimGridPlatform(*plain);
  ASSERT_THAT(xml, Not(IsOk()));
  EXPECT_THAT(Msg(xml.status()), HasSubstr("has no links"));
  // Two clusters without 'link network' or 'links': the clusters have no
  // uplink to the root.
  auto t = ParseNetworkSpec(
      "network\nlink node 1GBps:0\nlink cluster 1Gbps:1us\ncluster a\n"
      "2 x core:2\ncluster b\n2 x core:2\n",
      "x.net", "");
  ASSERT_THAT(t, IsOk());
  xml = WriteSimGridPlatform(*t);
  ASSERT_THAT(xml, Not(IsOk()));
  EXPECT_THAT(Msg(xml.status()), HasSubstr("(cluster) has no uplink"));
}

// A cluster of `attrs` (the ones every cluster needs are given).
std::string Cluster(const std::string& attrs) {
  return "<platform version=\"4.1\">\n<cluster id=\"c\" speed=\"1Gf\" "
         "bw=\"1GBps\" lat=\"1us\" " +
         attrs + "/>\n</platform>\n";
}

// Host ids end up in hostfiles, ssh command lines and --node paths: a
// character reference makes a newline that shifted ranks to other hosts.
TEST(SimGridPlatform, HostIdsAreHostNames) {
  auto err = [](const std::string& id) {
    auto t = ParseSimGridPlatform(
        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
        "<host id=\"" +
            id + "\" speed=\"1Gf\"/></zone></platform>",
        "p.xml");
    return t.ok() ? std::string("OK") : Msg(t.status());
  };
  EXPECT_EQ(err("node-1.lan"), "OK");
  EXPECT_EQ(err("a&#10;b"),
            "p.xml:2: <host id='a\\nb'>: host name 'a\\nb': character 2 is "
            "not a letter, digit, '-', '_' or '.' (the hostname grammar)");
  EXPECT_THAT(err("-oProxyCommand"), HasSubstr("a label starts or ends"));
  EXPECT_THAT(err("../x"), HasSubstr("empty label at character 1"));
  // Clusters: prefix + radical + suffix, each name checked.
  auto t = ParseSimGridPlatform(
      Cluster(R"(prefix="-n" suffix="" radical="0-3")"), "c.xml");
  EXPECT_THAT(Msg(t.status()),
              HasSubstr("c.xml:2: <cluster id='c'>: host name '-n0': a label "
                        "starts or ends with '-'"));
}

// Values echoed in errors are escaped and cut: one line, whatever the file.
TEST(SimGridPlatform, EchoedValuesStayOnOneLine) {
  auto t = ParseSimGridPlatform(
      Cluster(R"(prefix="n" suffix="" radical="0-3" topology="TO&#10;RUS")"),
      "c.xml");
  EXPECT_EQ(Msg(t.status()),
            "c.xml:2: <cluster id='c'>: unknown topology 'TO\\nRUS' (FLAT, "
            "FAT_TREE, DRAGONFLY)");
  t = ParseSimGridPlatform(Cluster(R"(prefix="n" suffix="" radical="0-3" )"
                                   R"(topology=")" +
                                   std::string(5000, 'T') + "\""),
                           "c.xml");
  EXPECT_EQ(Msg(t.status()), "c.xml:2: <cluster id='c'>: unknown topology '" +
                                 std::string(64, 'T') +
                                 "...' (FLAT, FAT_TREE, DRAGONFLY)");
  t = ParseSimGridPlatform(
      Cluster(R"(prefix="n" suffix="" radical="0-3" lat="1&#10;us")"), "c.xml");
  EXPECT_THAT(Msg(t.status()), Not(HasSubstr("\n")));
  t = ParseSimGridPlatform(
      "<platform version=\"4.1\"><zone id=\"z&#9;1\" routing=\"Full\">"
      "<host id=\"a\" speed=\"1Gf\"/><route src=\"a\" dst=\"&#10;\">"
      "<link_ctn id=\"l\"/></route></zone></platform>",
      "z.xml");
  EXPECT_EQ(Msg(t.status()),
            "z.xml:1: <route>: '\\n' is not a host or router of zone "
            "'z\\t1'");
}

// Sizes are counted (cores, nodes, name bytes) before a cluster is built; a
// radical range is counted, not walked (its last number once overflowed).
TEST(SimGridPlatform, ClustersAreSizedBeforeTheyAreBuilt) {
  constexpr int64_t kBudget = int64_t{64} << 20;
  auto t = ParseSimGridPlatform(
      Cluster(R"(prefix="n" suffix="" radical="0-63" core="1048576")"), "c.xml",
      int64_t{1} << 26, kBudget);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(Msg(t.status()),
            "c.xml:2: <cluster id='c'>: platform of 67108864 leaves "
            "(67108929 nodes) needs about 16.0 GiB, above the memory budget "
            "of 64.0 MiB");
  // 20,000 one-core hosts: their 40,001 nodes take 9.8 MiB, the 40,000
  // copies of their 228-character names 8.7 MiB more: above 12 MiB, where the
  // same cluster with short names fits.
  const std::string prefix = std::string(60, 'p') + "." + std::string(60, 'q') +
                             "." + std::string(60, 'r') + "." +
                             std::string(40, 's');
  t = ParseSimGridPlatform(
      Cluster("prefix=\"" + prefix + "\" suffix=\"\" radical=\"0-19999\""),
      "c.xml", int64_t{1} << 26, int64_t{12} << 20);
  EXPECT_EQ(Msg(t.status()),
            "c.xml:2: <cluster id='c'>: platform of 20000 leaves (40001 "
            "nodes) needs about 18.5 MiB, above the memory budget of 12.0 MiB");
  EXPECT_THAT(
      ParseSimGridPlatform(Cluster("prefix=\"n\" suffix=\"\" "
                                   "radical=\"0-19999\""),
                           "c.xml", int64_t{1} << 26, int64_t{12} << 20),
      IsOk());
  t = ParseSimGridPlatform(Cluster(R"(prefix=")" + std::string(4000, 'p') +
                                   R"(" suffix="" radical="0-99999")"),
                           "c.xml");
  EXPECT_EQ(Msg(t.status()),
            "c.xml:2: <cluster id='c'>: host names prefix + radical + suffix "
            "of up to 4005 characters: a host name has at most 253");
  t = ParseSimGridPlatform(
      Cluster(R"(prefix="n" suffix="" radical="0-9223372036854775807")"),
      "c.xml");
  EXPECT_EQ(Msg(t.status()),
            "c.xml:2: <cluster id='c'>: attribute radical: more than 67108864 "
            "hosts");
  t = ParseSimGridPlatform(
      Cluster(
          R"(prefix="n" suffix="" radical="9223372036854775806-9223372036854775807")"),
      "c.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 2);
  EXPECT_EQ(t->host(1), "n9223372036854775807");
}

// FAT_TREE levels nest PNodes (and their destructor) one level each: 300,000
// levels overflowed the stack; more than 256 are refused.
TEST(SimGridPlatform, FatTreesOfMoreThan256LevelsAreRefused) {
  auto fat_tree = [](int levels) {
    std::string ones;
    for (int i = 0; i < levels; ++i) ones += i ? ",1" : "1";
    return Cluster(absl::StrCat(
        R"(prefix="n" suffix="" radical="0" topology="FAT_TREE" )",
        R"(topo_parameters=")", levels, ";", ones, ";", ones, ";", ones, "\""));
  };
  auto t = ParseSimGridPlatform(fat_tree(256), "f.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->height(), 257);  // 255 switches, the host, its core
  t = ParseSimGridPlatform(fat_tree(300000), "f.xml");
  EXPECT_EQ(Msg(t.status()),
            "f.xml:2: <cluster id='c'>: attribute topo_parameters: a fat tree "
            "of 300000 levels; rankmap reads at most 256");
}

// Content detection looks past comments, processing instructions and a
// DOCTYPE of any length (a long leading comment made a platform hwloc XML).
TEST(SimGridPlatform, RootElementPastLongPrologues) {
  const std::string comment = "<!-- " + std::string(10000, 'x') + " -->\n";
  EXPECT_TRUE(LooksLikeSimGridPlatform(comment + "<platform version=\"4.1\">"));
  EXPECT_TRUE(LooksLikeSimGridPlatform(
      "\xEF\xBB\xBF<?xml version='1.0'?>\n<?pi x?>\n<!DOCTYPE platform [\n"
      "<!ENTITY e \"<zone>\">\n]>\n" +
      comment + "<platform>"));
  EXPECT_EQ(XmlRootElement(std::string(5000, ' ') + "<topology version=\"2\">"),
            "topology");
  EXPECT_EQ(XmlRootElement("<!-- never closed"), "");
  EXPECT_EQ(XmlRootElement("text <platform>"), "");
  EXPECT_FALSE(LooksLikeSimGridPlatform(comment + "<platformx>"));
}

TEST(SimGridPlatform, Detection) {
  EXPECT_TRUE(LooksLikeSimGridPlatform(
      "<?xml version='1.0'?>\n<!-- x -->\n<!DOCTYPE platform SYSTEM "
      "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">"));
  EXPECT_FALSE(LooksLikeSimGridPlatform(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
      "<topology version=\"2.0\">"));
  EXPECT_FALSE(LooksLikeSimGridPlatform("tleaf 1 2 3"));
}

}  // namespace
}  // namespace rankmap::topology
