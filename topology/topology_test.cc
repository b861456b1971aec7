#include "topology/topology.h"

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

namespace rankmap::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream f(path);
  f << text;
  return path;
}

TEST(LoadTopology, SyntheticString) {
  auto t = LoadTopology("pack:2 core:4 pu:2");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_leaves(), 16);
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(0, 2), 11.0);
  EXPECT_EQ(t->Distance(0, 8), 111.0);
  LoadOptions o;
  o.leaf = LeafKind::kCore;
  o.level_costs = "pack=40";
  o.capacity = 2;
  auto c = LoadTopology("  pack:2 core:4 pu:2 ", o);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->num_leaves(), 8);
  EXPECT_EQ(c->Distance(0, 1), 40.0);
  EXPECT_EQ(c->Capacity(c->root()), 16);
  o = {};
  o.allowed_pus = "8-15";
  auto r = LoadTopology("pack:2 core:4 pu:2", o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->num_leaves(), 8);
  EXPECT_EQ(r->os_index(0), 8);
}

TEST(LoadTopology, InlineAndFileTleaf) {
  auto t = LoadTopology("tleaf 3 2 100 4 10 8 1");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_leaves(), 64);
  const std::string path = WriteTemp("m.tgt", "tleaf\n2 4 20 2 1\n");
  auto f = LoadTopology(path);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*WriteTleaf(*f), "tleaf 2 4 20 2 1");
  // For non-hwloc inputs the allowed list names logical leaves.
  LoadOptions o;
  o.allowed_pus = "0,2-3";
  auto r = LoadTopology(path, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->num_leaves(), 3);
  EXPECT_EQ(r->Distance(0, 1), 21.0);
  EXPECT_EQ(r->Distance(1, 2), 1.0);
  // Repeated and overlapping ranges name each leaf once.
  o.allowed_pus = "2-3,0,3,2-3,0";
  auto again = LoadTopology(path, o);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->num_leaves(), 3);
  o.allowed_pus = "0,9";
  auto bad = LoadTopology(path, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(Msg(bad.status()), HasSubstr("bad leaf range '9' at column 3"));
  LoadOptions lc;
  lc.level_costs = "numa=3";
  auto e = LoadTopology("tleaf 1 2 1", lc);
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(Msg(e.status()), HasSubstr("hwloc inputs only"));
  auto m = LoadTopology("tleaf 2 2 1 0 1");
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(Msg(m.status()), HasSubstr("topology/tleaf:1:13: field 'a2'"));
}

TEST(LoadTopology, XmlFileByContent) {
  auto t = LoadTopology("tests/data/hwloc-xml/24em64t-2n6c2t-pci.xml");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_leaves(), 24);
  LoadOptions o;
  o.leaf = LeafKind::kCore;
  auto c = LoadTopology("tests/data/hwloc-xml/24em64t-2n6c2t-pci.xml", o);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->num_leaves(), 12);
  EXPECT_THAT(c->Arities(), ElementsAre(2, 6));
}

TEST(LoadTopology, NetworkSpecFile) {
  const std::string path =
      WriteTemp("two.net",
                "network\ncost network 1000\ncluster a\n2 x core:4\ncluster b\n"
                "node b0 tleaf 1 8 1\n");
  auto t = LoadTopology(path);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->num_leaves(), 16);
  EXPECT_EQ(t->Distance(0, 15), 1000.0);
  EXPECT_EQ(t->host(15), "b0");
  LoadOptions o;
  o.capacity = 3;
  o.allowed_pus = "0-3,8";
  auto r = LoadTopology(path, o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->num_leaves(), 5);
  EXPECT_EQ(r->Capacity(r->root()), 15);
  EXPECT_EQ(r->host(4), "b0");
}

TEST(LoadTopology, BalancedHwlocTreesExportToTleafAndDraw) {
  auto t = LoadTopology("pack:2 core:4 pu:2");
  ASSERT_TRUE(t.ok()) << t.status();
  auto line = WriteTleaf(*t);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(*line, "tleaf 3 2 100 4 10 2 1");
  auto back = LoadTopology(*line);
  ASSERT_TRUE(back.ok());
  for (LeafId a = 0; a < 16; ++a) {
    for (LeafId b = 0; b < 16; ++b)
      EXPECT_EQ(back->Distance(a, b), t->Distance(a, b));
  }
  const std::string path = WriteTemp(
      "draw.net",
      "network\ncluster a\n2 x core:4\ncluster b\nnode big pack:2 core:2\n");
  auto n = LoadTopology(path);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(
      DrawTree(*n),
      "network  cost 1100  leaves [0, 12)  2 children\n"
      "  cluster  cost 110  leaves [0, 8)  2 children\n"
      "    Machine+NUMANode  cost 1  leaves [0, 4)  4 x Core+PU  host a-0\n"
      "    ... 1 more like this, leaves [4, 8)\n"
      "  cluster  cost 110  leaves [8, 12)  1 children\n"
      "    Machine+NUMANode  cost 11  leaves [8, 12)  2 children\n"
      "      Package  cost 1  leaves [8, 10)  2 x Core+PU  host big\n"
      "      ... 1 more like this, leaves [10, 12)\n");
}

TEST(LoadTopology, Errors) {
  auto missing = LoadTopology("nodes/none.xml");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(Msg(missing.status()),
              HasSubstr("nodes/none.xml: no such topology file"));
  const std::string junk = WriteTemp("junk.txt", "hello world\n");
  auto j = LoadTopology(junk);
  ASSERT_FALSE(j.ok());
  EXPECT_THAT(Msg(j.status()), HasSubstr("junk.txt:1: not an hwloc XML file"));
  auto s = LoadTopology("pack:2 foo:3");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(Msg(s.status()), HasSubstr("unknown level 'foo' at column 8"));
  EXPECT_FALSE(LoadTopology("").ok());
  LoadOptions o;
  o.capacity = 0;
  EXPECT_THAT(Msg(LoadTopology("pack:2", o).status()), HasSubstr("capacity"));
  const std::string bad_xml =
      WriteTemp("bad.xml", "<topology><object type=\"x\"/></topology>");
  auto x = LoadTopology(bad_xml);
  ASSERT_FALSE(x.ok());
  EXPECT_THAT(Msg(x.status()), HasSubstr("bad.xml: hwloc refuses"));
  const std::string open_xml =
      WriteTemp("open.xml", "<topology><object type=\"x\">");
  EXPECT_THAT(Msg(LoadTopology(open_xml).status()),
              HasSubstr("open.xml:1: an <object> is not closed"));
}

}  // namespace
}  // namespace rankmap::topology
