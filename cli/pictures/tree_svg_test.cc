#include "cli/pictures/tree_svg.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "base/status_matchers.h"
#include "cli/pictures/mini_xml.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::cli::pictures {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;

core::Mapping Identity(int32_t n) {
  core::Mapping m(n);
  std::iota(m.begin(), m.end(), 0);
  return m;
}

XmlElement Parse(const std::string& svg) {
  auto doc = ParseXml(svg);
  EXPECT_THAT(doc, IsOk());
  return doc.ok() ? *doc : XmlElement{};
}

// The boxes without children cover every leaf once and hold every process.
void ExpectEveryProcessOnce(const XmlElement& svg, int32_t leaves,
                            int64_t processes) {
  std::vector<std::pair<int, int>> ranges;
  int64_t sum = 0;
  for (const XmlElement* g : svg.FindAll("g", "box")) {
    const std::string cls = g->Attr("class");
    if (cls == "box inner") continue;
    const std::vector<std::string> be =
        absl::StrSplit(g->Attr("data-leaves"), ',');
    ranges.push_back({std::stoi(be[0]), std::stoi(be[1])});
    sum += static_cast<int64_t>(g->Number("data-processes"));
  }
  std::sort(ranges.begin(), ranges.end());
  ASSERT_FALSE(ranges.empty());
  EXPECT_EQ(ranges.front().first, 0);
  for (size_t i = 1; i < ranges.size(); ++i)
    EXPECT_EQ(ranges[i].first, ranges[i - 1].second) << i;
  EXPECT_EQ(ranges.back().second, leaves);
  EXPECT_EQ(sum, processes);
}

TEST(TreeSvg, SmallTreeDrawnWholeWithLabels) {
  // tleaf 3 2 10 2 5 2 1: root cost 16, 2 x (cost 6), 4 pairs (cost 1).
  const topology::Tree t = testing::MakeTleaf("3 2 10 2 5 2 1");
  const XmlElement svg = Parse(TreeSvg(t, {7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(svg.FindAll("g", "folded").size(), 0u);
  EXPECT_EQ(svg.FindAll("g", "inner").size(), 3u);
  const auto bottom = svg.FindAll("g", "bottom");
  ASSERT_EQ(bottom.size(), 4u);
  const auto inner = svg.FindAll("g", "inner");
  EXPECT_THAT(inner[0]->AllText(), HasSubstr("level0"));
  EXPECT_THAT(inner[0]->AllText(), HasSubstr("cost 16"));
  EXPECT_THAT(inner[1]->AllText(), HasSubstr("cost 6"));
  // Leaves 0 and 1 hold processes 7 and 6.
  EXPECT_EQ(bottom[0]->Attr("data-leaves"), "0,2");
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("2 x leaf"));
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("leaves [0, 2)"));
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("6-7"));
  ExpectEveryProcessOnce(svg, 8, 8);
}

TEST(TreeSvg, RepeatedSubtreesFoldWithACount) {
  // 4 nodes x 4 sockets x 2 dies x 16 cores: 32 dies would not fit in 8
  // columns, nor would node 0's 8 with a box for the other nodes: node 0 and
  // its socket 0 are drawn, socket 0's two dies as bottom boxes, and the 3
  // other sockets and the 3 other nodes fold into one box each.
  const topology::Tree t = testing::MakeTleaf("4 4 1000 4 100 2 10 16 1");
  const XmlElement svg = Parse(TreeSvg(t, Identity(512)));
  const auto folded = svg.FindAll("g", "folded");
  ASSERT_EQ(folded.size(), 2u);
  const XmlElement* nodes =
      folded[0]->Attr("data-leaves") == "128,512" ? folded[0] : folded[1];
  const XmlElement* sockets = nodes == folded[0] ? folded[1] : folded[0];
  EXPECT_EQ(nodes->Attr("data-count"), "3");
  EXPECT_THAT(nodes->AllText(), HasSubstr("x 3 more like this"));
  EXPECT_THAT(nodes->AllText(), HasSubstr("384 processes"));
  EXPECT_THAT(nodes->AllText(), HasSubstr("128-511"));
  EXPECT_EQ(sockets->Attr("data-leaves"), "32,128");
  EXPECT_EQ(sockets->Attr("data-count"), "3");
  const auto bottom = svg.FindAll("g", "bottom");
  ASSERT_EQ(bottom.size(), 2u);
  EXPECT_EQ(bottom[1]->Attr("data-leaves"), "16,32");
  EXPECT_THAT(bottom[1]->AllText(), HasSubstr("16 x leaf"));
  EXPECT_THAT(bottom[1]->AllText(), HasSubstr("leaves [16, 32)"));
  EXPECT_LE(svg.Number("width"), 8 * 170 + 32);
  ExpectEveryProcessOnce(svg, 512, 512);
}

TEST(TreeSvg, HundredThousandLeavesStayNarrow) {
  const topology::Tree t = testing::MakeTleaf("3 100 100 100 10 10 1");
  ASSERT_EQ(t.num_leaves(), 100000);
  // Reversed: process p on leaf 99999 - p.
  core::Mapping m(100000);
  for (int32_t p = 0; p < 100000; ++p) m[p] = 99999 - p;
  const XmlElement svg = Parse(TreeSvg(t, m));
  EXPECT_LE(svg.Number("width"), 8 * 170 + 32);
  EXPECT_LE(svg.Number("height"), 800);
  ExpectEveryProcessOnce(svg, 100000, 100000);
  // The first bottom box holds leaves [0, 10): processes 99990-99999.
  const auto bottom = svg.FindAll("g", "bottom");
  ASSERT_FALSE(bottom.empty());
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("99990-99999"));
}

TEST(TreeSvg, UnlikeClustersStayWithinTheColumns) {
  // Four clusters of different shapes (3 to 5 nodes, one with two sockets):
  // each cluster gets two columns, the node with sockets stands for its
  // subtree.
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network", 1000);
  const int nodes[] = {4, 5, 3, 3}, sockets[] = {1, 2, 1, 1},
            cores[] = {8, 6, 4, 8};
  for (int c = 0; c < 4; ++c) {
    const auto cluster = b.AddChild(root, "cluster", 100);
    for (int n = 0; n < nodes[c]; ++n) {
      const auto machine = b.AddChild(cluster, "Machine", 10);
      for (int s = 0; s < sockets[c]; ++s) {
        const auto pack =
            sockets[c] > 1 ? b.AddChild(machine, "Package", 1) : machine;
        for (int k = 0; k < cores[c]; ++k) b.AddChild(pack, "PU");
      }
    }
  }
  const topology::Tree t = *std::move(b).Build();
  const XmlElement svg = Parse(TreeSvg(t, Identity(t.num_leaves())));
  EXPECT_LE(svg.Number("width"), 8 * 170 + 32);
  EXPECT_EQ(svg.FindAll("g", "folded").size(), 4u);
  ExpectEveryProcessOnce(svg, t.num_leaves(), t.num_leaves());
}

TEST(TreeSvg, NToOneAndHostsAndMergedKinds) {
  // Two hosts with one merged Machine+Package level over two PUs each; ten
  // processes on four leaves.
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network", 100);
  for (const char* host : {"n0", "n1"}) {
    const auto m = b.AddChild(root, "Machine+Package+NUMANode+L3Cache", 1);
    for (int c = 0; c < 2; ++c) b.SetHost(b.AddChild(m, "PU"), host);
  }
  const topology::Tree t = *std::move(b).Build();
  const core::Mapping m = {0, 0, 0, 1, 1, 2, 2, 3, 3, 3};
  const XmlElement svg = Parse(TreeSvg(t, m));
  const auto bottom = svg.FindAll("g", "bottom");
  ASSERT_EQ(bottom.size(), 2u);
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("host n0"));
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("Machine+Package+"));
  EXPECT_THAT(bottom[0]->AllText(), HasSubstr("5 processes"));
  EXPECT_THAT(bottom[1]->AllText(), HasSubstr("5-9"));
  EXPECT_THAT(svg.FindAll("g", "inner")[0]->AllText(),
              HasSubstr("hosts n0 .. n1 (2)"));
  ExpectEveryProcessOnce(svg, 4, 10);
}

// Trees thousands of levels deep (a Slurm or ibnetdiscover chain of
// switches) once overflowed the stack of the recursive layout. A chain of
// 20,000 single-child switches over two PUs is drawn whole, one row per
// level; a comb (a PU and the rest of the comb under every switch) folds
// below the column budget.
TEST(TreeSvg, ThousandsOfLevelsWithoutRecursion) {
  constexpr int kDepth = 20000;
  topology::TreeBuilder chain;
  auto node = chain.AddRoot("switch", kDepth + 1.0);
  for (int d = 1; d < kDepth; ++d)
    node = chain.AddChild(node, "switch", kDepth + 1.0 - d);
  for (int c = 0; c < 2; ++c) chain.SetHost(chain.AddChild(node, "PU"), "h");
  const topology::Tree t = *std::move(chain).Build();
  const XmlElement svg = Parse(TreeSvg(t, {1, 0, 1}));
  EXPECT_EQ(svg.FindAll("g", "inner").size(), kDepth - 1u);
  ASSERT_EQ(svg.FindAll("g", "bottom").size(), 1u);
  EXPECT_THAT(svg.FindAll("g", "bottom")[0]->AllText(), HasSubstr("0-2"));
  ExpectEveryProcessOnce(svg, 2, 3);

  topology::TreeBuilder comb;
  node = comb.AddRoot("switch", 1);
  for (int d = 1; d < kDepth; ++d) {
    comb.AddChild(node, "PU");
    node = comb.AddChild(node, "switch", 1);
  }
  for (int c = 0; c < 2; ++c) comb.AddChild(node, "PU");
  const topology::Tree c = *std::move(comb).Build();
  const XmlElement folded = Parse(TreeSvg(c, Identity(c.num_leaves())));
  EXPECT_LE(folded.Number("width"), 8 * 170 + 32);
  ExpectEveryProcessOnce(folded, c.num_leaves(), c.num_leaves());
}

}  // namespace
}  // namespace rankmap::cli::pictures
