#include "topology/hwloc_import.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

// Number of nodes whose joined kind names ("Package+L3Cache") include `name`.
int CountKind(const Tree& t, const std::string& name) {
  int n = 0;
  for (NodeId v = 0; v < t.num_nodes(); ++v) {
    for (absl::string_view part : absl::StrSplit(t.kind(v), '+'))
      n += part == name;
  }
  return n;
}

void ExpectSameTree(const Tree& a, const Tree& b) {
  ASSERT_EQ(a.num_nodes(), b.num_nodes());
  ASSERT_EQ(a.num_leaves(), b.num_leaves());
  for (NodeId v = 0; v < a.num_nodes(); ++v) {
    EXPECT_EQ(a.parent(v), b.parent(v)) << v;
    EXPECT_EQ(a.kind(v), b.kind(v)) << v;
    EXPECT_EQ(a.cost(v), b.cost(v)) << v;
  }
  for (LeafId l = 0; l < a.num_leaves(); ++l)
    EXPECT_EQ(a.os_index(l), b.os_index(l)) << l;
}

TEST(Synthetic, PackCorePuByHand) {
  auto t = TreeFromSynthetic("pack:2 core:4 pu:2");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 16);
  EXPECT_EQ(t->height(), 3);
  EXPECT_EQ(t->depth(0), 3);
  EXPECT_EQ(t->depth(t->Lca(0, 2)), 1);
  EXPECT_EQ(t->depth(t->Lca(0, 8)), 0);
  EXPECT_EQ(t->depth(t->Lca(0, 1)), 2);
  EXPECT_THAT(t->Arities(), ElementsAre(2, 4, 2));
  // Default costs: 1 (core), 11 (package), 111 (machine).
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(0, 2), 11.0);
  EXPECT_EQ(t->Distance(0, 7), 11.0);
  EXPECT_EQ(t->Distance(0, 8), 111.0);
  EXPECT_EQ(t->Distance(15, 8), 11.0);
  EXPECT_EQ(t->kind(t->Lca(0, 1)), "Core");
  EXPECT_EQ(t->kind(t->Lca(0, 2)), "Package");
  // hwloc attaches the synthetic machine's memory to the root.
  EXPECT_EQ(t->kind(t->root()), "Machine+NUMANode");
  EXPECT_EQ(t->kind(0), "PU");
  for (LeafId l = 0; l < 16; ++l) EXPECT_EQ(t->os_index(l), l);
}

TEST(Synthetic, CoreLeavesFoldHyperthreads) {
  HwlocImportOptions o;
  o.leaf = LeafKind::kCore;
  auto t = TreeFromSynthetic("pack:2 core:4 pu:2", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 8);
  EXPECT_THAT(t->Arities(), ElementsAre(2, 4));
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(0, 4), 11.0);
  EXPECT_EQ(t->kind(3), "Core");
  // os_index of a core leaf is its first PU's.
  EXPECT_EQ(t->os_index(1), 2);
  EXPECT_EQ(t->os_index(7), 14);
}

TEST(Synthetic, NumaBecomesALevelAndCostsCanBeOverridden) {
  auto t = TreeFromSynthetic("pack:2 numa:2 core:4 pu:2");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 32);
  EXPECT_THAT(t->Arities(), ElementsAre(2, 2, 4, 2));
  EXPECT_EQ(CountKind(*t, "NUMANode"), 4);
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(0, 2), 11.0);
  EXPECT_EQ(t->Distance(0, 8), 111.0);
  EXPECT_EQ(t->Distance(0, 16), 1111.0);
  HwlocImportOptions o;
  o.level_costs = "numa=100,pack=50";
  auto u = TreeFromSynthetic("pack:2 numa:2 core:4 pu:2", o);
  ASSERT_THAT(u, IsOk());
  EXPECT_EQ(u->Distance(0, 1), 1.0);
  EXPECT_EQ(u->Distance(0, 2), 100.0);    // same NUMA node, different cores
  EXPECT_EQ(u->Distance(0, 8), 50.0);     // same package, different NUMA nodes
  EXPECT_EQ(u->Distance(0, 16), 1111.0);  // machine keeps its default
  o.level_costs = "socket=50,machine=7";
  auto w = TreeFromSynthetic("pack:2 numa:2 core:4 pu:2", o);
  ASSERT_THAT(w, IsOk());
  EXPECT_EQ(w->Distance(0, 8), 50.0);
  EXPECT_EQ(w->Distance(0, 31), 7.0);
}

TEST(Synthetic, SingleChildLevelsAreCollapsed) {
  auto t = TreeFromSynthetic("pack:2 l3:1 core:4 pu:2");
  ASSERT_THAT(t, IsOk());
  EXPECT_THAT(t->Arities(), ElementsAre(2, 4, 2));
  EXPECT_EQ(t->kind(t->Lca(0, 2)), "Package+L3Cache");
  HwlocImportOptions o;
  o.level_costs = "l3=5";
  auto u = TreeFromSynthetic("pack:2 l3:1 core:4 pu:2", o);
  ASSERT_THAT(u, IsOk());
  EXPECT_EQ(u->Distance(0, 2), 5.0);
  // A last level other than PU gets one PU per object; 1 package collapses into
  // the machine.
  auto v = TreeFromSynthetic("pack:1 core:8");
  ASSERT_THAT(v, IsOk());
  EXPECT_THAT(v->Arities(), ElementsAre(8));
  EXPECT_EQ(CountKind(*v, "Package"), 1);
  EXPECT_EQ(CountKind(*v, "Machine"), 1);
  EXPECT_EQ(v->kind(v->root()).rfind("Machine+", 0), 0u);
  EXPECT_EQ(v->Distance(0, 7), 1.0);
}

TEST(Synthetic, RoundTripThroughHwlocXml) {
  for (const char* s : {"pack:2 core:4 pu:2", "pack:2 numa:2 core:3 pu:2",
                        "pack:3 l3:2 core:2 pu:1"}) {
    auto xml = SyntheticToXml(s);
    ASSERT_THAT(xml, IsOk());
    EXPECT_THAT(*xml, HasSubstr("<topology"));
    for (LeafKind leaf : {LeafKind::kPu, LeafKind::kCore}) {
      HwlocImportOptions o;
      o.leaf = leaf;
      auto a = TreeFromSynthetic(s, o);
      auto b = TreeFromXmlBuffer(*xml, "exported.xml", o);
      ASSERT_THAT(a, IsOk());
      ASSERT_THAT(b, IsOk());
      ExpectSameTree(*a, *b);
    }
  }
}

TEST(Synthetic, MalformedInputNamesColumnAndField) {
  auto a = TreeFromSynthetic("pack:2 foo:2 core:4 pu:2");
  ASSERT_THAT(a, Not(IsOk()));
  EXPECT_THAT(Msg(a.status()), HasSubstr("unknown level 'foo' at column 8"));
  auto b = TreeFromSynthetic("pack:2 core:0 pu:2");
  ASSERT_THAT(b, Not(IsOk()));
  EXPECT_THAT(Msg(b.status()), HasSubstr("column 8"));
  EXPECT_THAT(Msg(b.status()), HasSubstr("count '0'"));
  auto c = TreeFromSynthetic("pack:-2 pu:2");
  ASSERT_THAT(c, Not(IsOk()));
  EXPECT_THAT(Msg(c.status()), HasSubstr("column 1"));
  EXPECT_THAT(Msg(c.status()), HasSubstr("count '-2'"));
  auto d = TreeFromSynthetic("   ");
  EXPECT_THAT(d, Not(IsOk()));
  auto e = TreeFromSynthetic("pack:4096 core:4096 pu:4");
  ASSERT_THAT(e, Not(IsOk()));
  EXPECT_THAT(Msg(e.status()), HasSubstr("PUs at column"));
  HwlocImportOptions small;
  small.max_synthetic_pus = 64;
  auto budget = TreeFromSynthetic("pack:4 core:8 pu:4", small);
  ASSERT_THAT(budget, Not(IsOk()));
  EXPECT_THAT(Msg(budget.status()), HasSubstr("more than 64 PUs at column 15"));
  HwlocImportOptions o;
  o.level_costs = "numa=100,foo=3";
  auto f = TreeFromSynthetic("pack:2 pu:2", o);
  ASSERT_THAT(f, Not(IsOk()));
  EXPECT_THAT(Msg(f.status()), HasSubstr("unknown level 'foo' at column 10"));
  o.level_costs = "numa=-1";
  auto g = TreeFromSynthetic("pack:2 pu:2", o);
  ASSERT_THAT(g, Not(IsOk()));
  EXPECT_THAT(Msg(g.status()), HasSubstr("level 'numa' at column 6"));
}

TEST(Synthetic, RestrictionToAllowedPus) {
  HwlocImportOptions o;
  o.allowed_pus = "0-3,8";
  auto t = TreeFromSynthetic("pack:2 core:4 pu:2", o);
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  ASSERT_EQ(t->num_leaves(), 5);
  std::vector<int32_t> os;
  for (LeafId l = 0; l < 5; ++l) os.push_back(t->os_index(l));
  EXPECT_THAT(os, ElementsAre(0, 1, 2, 3, 8));
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(0, 2), 11.0);
  EXPECT_EQ(t->Distance(0, 4), 111.0);
  EXPECT_FALSE(t->Balanced());
  o.allowed_pus = "0,99";
  auto u = TreeFromSynthetic("pack:2 core:4 pu:2", o);
  ASSERT_THAT(u, Not(IsOk()));
  EXPECT_THAT(Msg(u.status()), HasSubstr("PU os index 99"));
  o.allowed_pus = "0-x";
  auto v = TreeFromSynthetic("pack:2 core:4 pu:2", o);
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(Msg(v.status()), HasSubstr("column 3"));
  o.allowed_pus = "3-1";
  auto w = TreeFromSynthetic("pack:2 core:4 pu:2", o);
  ASSERT_THAT(w, Not(IsOk()));
  EXPECT_THAT(Msg(w.status()), HasSubstr("bad range '3-1' at column 1"));
}

struct XmlCase {
  const char* file;
  int packages, numa, cores, pus;
};

// Expected counts from tests/data/hwloc-xml/README.md (hwloc-calc with default
// flags).
const XmlCase kXmlCases[] = {
    {"16em64t-4s2c2t.xml", 4, 1, 8, 16},
    {"16em64t-4s2c2t-offlines.xml", 4, 1, 6, 7},  // asymmetric: offline CPUs
    {"16amd64-8n2c-cpusets.xml", 6, 3, 10,
     10},  // asymmetric: cpuset-restricted
    {"64intel64-3g2n+2n-irregulargroups+pci.xml", 2, 2, 16,
     16},                                    // disallowed part kept in file
    {"8ia64-2n2s2c+1n.v1.xml", 4, 2, 8, 8},  // hwloc 1.x, CPU-less NUMA node
    {"28intel64-2p2g7c-CoDgroups.v1.xml", 2, 4, 28, 28},  // hwloc 1.x
    {"192em64t-12gr2n8c2t.xml", 24, 24, 192, 384},        // large
    {"AMD-19h-Zen4-2xEpyc-9654.xml", 2, 2, 192, 384},     // large
    {"AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370.xml", 1, 1, 12,
     24},                                                 // asymmetric L3s
    {"Intel-RaptorLake-Corei7-1370P.xml", 1, 1, 14, 20},  // hybrid P/E cores
    {"memorysidecaches.xml", 2, 4, 40, 80},
    {"16-2gr2gr2n2c+misc.xml", 0, 8, 16, 16},
    {"power8gpudistances.xml", 2, 2, 8, 16},
    {"nvidia-dgx-gb10.xml", 1, 1, 20, 20},
};

TEST(Xml, RealExportsMatchHwlocCounts) {
  for (const XmlCase& c : kXmlCases) {
    SCOPED_TRACE(c.file);
    const std::string path = std::string("tests/data/hwloc-xml/") + c.file;
    auto pu = TreeFromXmlFile(path);
    ASSERT_THAT(pu, IsOk());
    ASSERT_THAT(pu->Validate(), IsOk());
    EXPECT_EQ(pu->num_leaves(), c.pus);
    EXPECT_EQ(CountKind(*pu, "Package"), c.packages);
    EXPECT_EQ(CountKind(*pu, "NUMANode"), c.numa);
    HwlocImportOptions o;
    o.leaf = LeafKind::kCore;
    auto core = TreeFromXmlFile(path, o);
    ASSERT_THAT(core, IsOk());
    ASSERT_THAT(core->Validate(), IsOk());
    EXPECT_EQ(core->num_leaves(), c.cores);
    // Distances never grow when going down: cost(parent) >= cost(child) by
    // default.
    for (NodeId v = 0; v + 1 < pu->num_nodes(); ++v) {
      if (!pu->is_leaf(v)) {
        EXPECT_GE(pu->cost(pu->parent(v)), pu->cost(v));
      }
    }
  }
}

TEST(Xml, OfflineCpusKeepLogicalOrderAndOsIndex) {
  auto t = TreeFromXmlFile("tests/data/hwloc-xml/16em64t-4s2c2t-offlines.xml");
  ASSERT_THAT(t, IsOk());
  std::vector<int32_t> os;
  for (LeafId l = 0; l < t->num_leaves(); ++l) os.push_back(t->os_index(l));
  EXPECT_THAT(os, ElementsAre(0, 4, 12, 1, 6, 3, 15));
  EXPECT_FALSE(t->Balanced());
  // PUs 4 and 12 share a core; 0 and 4 share a package; 0 and 1 (os 0, os 1)
  // only the machine.
  EXPECT_LT(t->Distance(1, 2), t->Distance(0, 1));
  EXPECT_LT(t->Distance(0, 1), t->Distance(0, 3));
  EXPECT_EQ(t->Distance(0, 3), t->cost(t->root()));
}

TEST(Xml, FakeKnlPairsTwoNumaNodesPerCluster) {
  // Each SNC cluster has a DRAM and an MCDRAM node with the same cpuset: one
  // NUMA level of 4.
  auto t =
      TreeFromXmlFile("tests/data/hwloc-xml/64intel64-fakeKNL-SNC4-hybrid.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 64);
  EXPECT_EQ(CountKind(*t, "NUMANode"), 4);
}

// An XML that attaches two NUMA nodes, each claiming half of the cores, to one
// package: hwloc gives memory children their parent's cpuset, so both name
// the package and no level is invented.
constexpr char kNumaSubsets[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE topology SYSTEM "hwloc2.dtd">
<topology version="2.0">
  <object type="Machine" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" allowed_cpuset="0x0000000f" nodeset="0x00000003" complete_nodeset="0x00000003" allowed_nodeset="0x00000003" gp_index="1">
    <object type="Package" os_index="0" cpuset="0x0000000f" complete_cpuset="0x0000000f" nodeset="0x00000003" complete_nodeset="0x00000003" gp_index="2">
      <object type="NUMANode" os_index="0" cpuset="0x00000003" complete_cpuset="0x00000003" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="3" local_memory="1073741824"/>
      <object type="NUMANode" os_index="1" cpuset="0x0000000c" complete_cpuset="0x0000000c" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="4" local_memory="1073741824"/>
      <object type="Core" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="5">
        <object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="6"/>
      </object>
      <object type="Core" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="7">
        <object type="PU" os_index="1" cpuset="0x00000002" complete_cpuset="0x00000002" nodeset="0x00000001" complete_nodeset="0x00000001" gp_index="8"/>
      </object>
      <object type="Core" os_index="2" cpuset="0x00000004" complete_cpuset="0x00000004" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="9">
        <object type="PU" os_index="2" cpuset="0x00000004" complete_cpuset="0x00000004" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="10"/>
      </object>
      <object type="Core" os_index="3" cpuset="0x00000008" complete_cpuset="0x00000008" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="11">
        <object type="PU" os_index="3" cpuset="0x00000008" complete_cpuset="0x00000008" nodeset="0x00000002" complete_nodeset="0x00000002" gp_index="12"/>
      </object>
    </object>
  </object>
</topology>
)";

TEST(Xml, NumaNodesTakeTheirParentsCpuset) {
  auto t = TreeFromXmlBuffer(kNumaSubsets, "numa-subsets.xml");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 4);
  EXPECT_THAT(t->Arities(), ElementsAre(4));
  EXPECT_EQ(t->kind(t->root()), "Machine+Package+NUMANode");
  EXPECT_EQ(t->Distance(1, 2), 1.0);
  EXPECT_EQ(t->os_index(3), 3);
}

TEST(Xml, RestrictionOnARealMachine) {
  HwlocImportOptions o;
  o.allowed_pus = "0-3";
  auto t = TreeFromXmlFile("tests/data/hwloc-xml/16em64t-4s2c2t.xml", o);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 4);
  ASSERT_THAT(t->Validate(), IsOk());
}

// 4 packages x 2 cores x 2 threads; core 1 holds P#4 and P#12 (logical PUs 2
// and 3). The export has no HostName info.
TEST(Xml, CoreLeavesKeepEveryThreadAndLogicalIndexes) {
  HwlocImportOptions o;
  o.leaf = LeafKind::kCore;
  auto t = TreeFromXmlFile("tests/data/hwloc-xml/16em64t-4s2c2t.xml", o);
  ASSERT_THAT(t, IsOk());
  ASSERT_EQ(t->num_leaves(), 8);
  EXPECT_EQ(t->os_index(1), 4);
  EXPECT_THAT(t->pus(1), ElementsAre(4, 12));
  EXPECT_EQ(t->logical_index(1), 1);
  EXPECT_EQ(t->host(1), "");
  auto pus = TreeFromXmlFile("tests/data/hwloc-xml/16em64t-4s2c2t.xml");
  ASSERT_THAT(pus, IsOk());
  EXPECT_THAT(pus->pus(3), ElementsAre(12));
  EXPECT_EQ(pus->logical_index(3), 3);
}

TEST(Xml, HostNameComesFromTheExport) {
  auto t = TreeFromXmlFile("tests/data/hwloc-xml/24em64t-2n6c2t-pci.xml");
  ASSERT_THAT(t, IsOk());
  for (LeafId l = 0; l < t->num_leaves(); ++l)
    EXPECT_EQ(t->host(l), "mirage004");
  auto s = TreeFromSynthetic("core:2");
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->host(0), "");
}

// Per-speed leaf counts, slowest speed first.
std::vector<int> SpeedCounts(const Tree& t) {
  std::vector<int> count;
  for (LeafId l = 0; l < t.num_leaves(); ++l) {
    const size_t s = static_cast<size_t>(t.speed(l));
    if (count.size() < s) count.resize(s, 0);
    ++count[s - 1];
  }
  return count;
}

TEST(Xml, HybridCpuKindsGiveLeafSpeeds) {
  // Core i7-1370P: 6 P cores with 2 threads (PUs 0-11, efficiency 1) and 8
  // E cores (PUs 12-19, efficiency 0), by the <cpukind> sets of the export.
  const std::string raptor =
      "tests/data/hwloc-xml/Intel-RaptorLake-Corei7-1370P.xml";
  HwlocImportOptions cores;
  cores.leaf = LeafKind::kCore;
  auto t = TreeFromXmlFile(raptor, cores);
  ASSERT_THAT(t, IsOk());
  EXPECT_THAT(SpeedCounts(*t), ElementsAre(8, 6));
  EXPECT_TRUE(t->has_speeds());
  for (LeafId l = 0; l < t->num_leaves(); ++l)
    EXPECT_EQ(t->speed(l), t->os_index(l) < 12 ? 2.0 : 1.0) << l;
  auto pus = TreeFromXmlFile(raptor);
  ASSERT_THAT(pus, IsOk());
  EXPECT_THAT(SpeedCounts(*pus), ElementsAre(8, 12));
  // Restricting to E cores keeps their speed.
  HwlocImportOptions e_only;
  e_only.allowed_pus = "12-19";
  auto e = TreeFromXmlFile(raptor, e_only);
  ASSERT_THAT(e, IsOk());
  EXPECT_THAT(SpeedCounts(*e), ElementsAre(8));

  // Ryzen AI 9 HX 370: 4 Zen 5 cores (PUs 0-3 and 12-15) and 8 Zen 5c cores.
  auto amd = TreeFromXmlFile(
      "tests/data/hwloc-xml/AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370.xml", cores);
  ASSERT_THAT(amd, IsOk());
  EXPECT_THAT(SpeedCounts(*amd), ElementsAre(8, 4));

  // One kind (a frequency only) or none: every leaf has speed 1.
  for (const char* file : {"nvidiaDGX2.xml", "16em64t-4s2c2t.xml"}) {
    auto one = TreeFromXmlFile(std::string("tests/data/hwloc-xml/") + file);
    ASSERT_THAT(one, IsOk());
    EXPECT_FALSE(one->has_speeds()) << file;
    EXPECT_EQ(one->speed(0), 1.0) << file;
  }
}

TEST(Xml, RefusedOrMissingFilesNameThePath) {
  auto a = TreeFromXmlFile("tests/data/hwloc-xml/no-such-file.xml");
  ASSERT_THAT(a, Not(IsOk()));
  EXPECT_THAT(Msg(a.status()), HasSubstr("no-such-file.xml: cannot open"));
  const std::string bad = ::testing::TempDir() + "/bad.xml";
  {
    std::ofstream f(bad);
    f << "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n<object "
         "type=\"Banana\"";
  }
  auto b = TreeFromXmlFile(bad);
  ASSERT_THAT(b, Not(IsOk()));
  EXPECT_THAT(Msg(b.status()),
              HasSubstr("bad.xml:3: not well-formed XML: unterminated tag"));
  auto banana = TreeFromXmlBuffer(
      "<topology version=\"2.0\"><object type=\"Banana\"/></topology>",
      "banana.xml");
  ASSERT_THAT(banana, Not(IsOk()));
  EXPECT_THAT(Msg(banana.status()), HasSubstr("banana.xml: hwloc refuses"));
  auto c = TreeFromXmlBuffer("not xml at all", "inline.xml");
  ASSERT_THAT(c, Not(IsOk()));
  EXPECT_THAT(Msg(c.status()), HasSubstr("inline.xml"));
}

TEST(Xml, WhatCrashesHwlocIsRefusedFirst) {
  // hwloc 2.9 dereferences the missing complete_cpuset (SIGSEGV) and loops
  // on a PU without os_index; both are refused before hwloc sees them.
  const std::string path = "tests/data/hwloc-xml/16em64t-4s2c2t.xml";
  std::ifstream in(path);
  std::string xml((std::istreambuf_iterator<char>(in)),
                  std::istreambuf_iterator<char>());
  const std::string pu =
      R"(<object type="PU" os_index="0" cpuset="0x00000001" complete_cpuset="0x00000001")";
  const size_t at = xml.find(pu);
  ASSERT_NE(at, std::string::npos);
  std::string no_complete = xml;
  no_complete.replace(at, pu.size(),
                      R"(<object type="PU" os_index="0" cpuset="0x00000001")");
  EXPECT_THAT(Msg(TreeFromXmlBuffer(no_complete, "m.xml").status()),
              HasSubstr("m.xml:17: object PU has a cpuset but no "
                        "complete_cpuset"));
  std::string no_os = xml;
  no_os.replace(
      at, pu.size(),
      R"(<object type="PU" cpuset="0x00000001" complete_cpuset="0x00000001")");
  EXPECT_THAT(Msg(TreeFromXmlBuffer(no_os, "o.xml").status()),
              HasSubstr("o.xml:17: object PU needs an os_index"));
  // A few hundred bytes with a declared entity crashed hwloc's libxml reader,
  // referenced in element content or in an attribute (the HostName info).
  constexpr char kEntity[] = R"(<?xml version="1.0"?>
<!DOCTYPE topology [ <!ENTITY a "x"> ]>
<topology><object type="Machine" os_index="0" cpuset="0x1" complete_cpuset="0x1">&a;<object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1"/></object></topology>
)";
  EXPECT_THAT(Msg(TreeFromXmlBuffer(kEntity, "e.xml").status()),
              HasSubstr("e.xml:2: a DOCTYPE with declarations"));
  std::string in_attribute = xml;
  const std::string info = R"(<info name="HostName" value=")";
  const size_t host = in_attribute.find(info);
  if (host != std::string::npos) {
    in_attribute.insert(host + info.size(), "&a;");
    EXPECT_THAT(Msg(TreeFromXmlBuffer(in_attribute, "i.xml").status()),
                HasSubstr("entity reference '&a;'"));
  }
}

TEST(Xml, HostNameMustBeAHostName) {
  constexpr char kXml[] = R"(<?xml version="1.0"?>
<topology><object type="Machine" os_index="0" cpuset="0x1" complete_cpuset="0x1">
<info name="HostName" value="../x"/>
<object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1"/></object></topology>
)";
  EXPECT_THAT(
      Msg(TreeFromXmlBuffer(kXml, "h.xml").status()),
      HasSubstr("h.xml:3: HostName info: host name '../x': empty label"));
  std::string ok = kXml;
  ok.replace(ok.find("../x"), 4, "node-7");
  auto t = TreeFromXmlBuffer(ok, "h.xml");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->host(0), "node-7");
}

TEST(Synthetic, TooSlowOrLargeForHwlocIsRefusedFirst) {
  for (const char* s : {"pack:4096 core:4096 pu:1", "core:22100"}) {
    auto t = TreeFromSynthetic(s);
    EXPECT_EQ(t.status().code(), absl::StatusCode::kResourceExhausted) << s;
    EXPECT_THAT(Msg(t.status()),
                HasSubstr("hwloc's load time grows with objects x PUs"));
  }
  HwlocImportOptions small;
  small.max_memory_bytes = 1 << 20;
  EXPECT_THAT(Msg(TreeFromSynthetic("pack:16 core:64 pu:2", small).status()),
              HasSubstr("objects needs about"));
  EXPECT_THAT(TreeFromSynthetic("pack:16 core:64 pu:2"), IsOk());
}

// The only test that looks at the build machine.
TEST(ThisMachine, LoadsAndValidates) {
  auto t = TreeFromThisMachine();
  ASSERT_THAT(t, IsOk());
  EXPECT_THAT(t->Validate(), IsOk());
  EXPECT_GE(t->num_leaves(), 1);
}

}  // namespace
}  // namespace rankmap::topology
