#include "cli/pictures/matrix_svg.h"

#include <set>
#include <string>
#include <utility>

#include "base/status_matchers.h"
#include "cli/pictures/mini_xml.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::cli::pictures {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;

graphs::CommGraph Cycle4() {
  graphs::CommGraphBuilder b(4);
  for (int i = 0; i < 4; ++i) EXPECT_THAT(b.AddEdge(i, (i + 1) % 4, 5), IsOk());
  return *std::move(b).Build();
}

TEST(MatrixSvg, HandComputedCellsAndBoundaries) {
  // Round-robin on tleaf 2 2 10 2 1: processes 0, 2, 1, 3 on leaves 0-3, so
  // positions: p0 0, p2 1, p1 2, p3 3. Leaves 1 | 2 split at the root
  // (depth 0, position 2); leaves 0 | 1 and 2 | 3 share a parent: no line.
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  auto doc = ParseXml(MatrixSvg(t, Cycle4(), {0, 2, 1, 3}));
  ASSERT_THAT(doc, IsOk());
  std::set<std::pair<int, int>> boundaries;
  for (const XmlElement* l : doc->FindAll("line", "boundary")) {
    boundaries.insert({static_cast<int>(l->Number("data-depth")),
                       static_cast<int>(l->Number("data-pos"))});
  }
  EXPECT_EQ(boundaries, (std::set<std::pair<int, int>>{{0, 2}}));
  EXPECT_EQ(doc->FindAll("line", "boundary").size(), 2u);  // both axes
  // The root boundary sits halfway along the 560 px plot that starts at 78.
  for (const XmlElement* l : doc->FindAll("line", "boundary")) {
    if (l->Attr("data-depth") == "0" && l->Attr("x1") == l->Attr("x2")) {
      EXPECT_DOUBLE_EQ(l->Number("x1"), 78 + 280);
    }
  }
  // Edges p0-p1 (positions 0, 2), p1-p2 (2, 1), p2-p3 (1, 3), p3-p0 (3, 0),
  // both ways, 5 bytes each: 8 cells in a 4 x 4 grid of 140 px.
  std::set<std::pair<int, int>> cells;
  for (const XmlElement* c : doc->FindAll("rect", "cell")) {
    EXPECT_EQ(c->Number("data-volume"), 5);
    cells.insert({static_cast<int>((c->Number("y") - 46) / 140 + 0.5),
                  static_cast<int>((c->Number("x") - 78) / 140 + 0.5)});
  }
  EXPECT_EQ(
      cells,
      (std::set<std::pair<int, int>>{
          {0, 2}, {2, 0}, {2, 1}, {1, 2}, {1, 3}, {3, 1}, {3, 0}, {0, 3}}));
  EXPECT_EQ(doc->Attr("data-processes"), "4");
  const std::string text = doc->AllText();
  EXPECT_THAT(text, HasSubstr("bytes per cell (log)"));
  EXPECT_THAT(text, HasSubstr("sending process, by mapped leaf"));
  EXPECT_THAT(text, HasSubstr("receiving process, by mapped leaf"));
  EXPECT_THAT(text, HasSubstr("level1 (2)"));
}

TEST(MatrixSvg, BinnedCellsKeepEveryByteAndFineLevelsStayOut) {
  // 4096 processes on tleaf 4 16 1000 16 100 2 10 8 1: a 64 x 64 grid mapped
  // in order; 128 x 128 cells of 32 x 32 processes.
  const topology::Tree t = testing::MakeTleaf("4 16 1000 16 100 2 10 8 1");
  const graphs::CommGraph g = testing::MakeGrid2D(64, 64, 3.0);
  core::Mapping m(4096);
  for (int32_t p = 0; p < 4096; ++p) m[p] = p;
  auto doc = ParseXml(MatrixSvg(t, g, m));
  ASSERT_THAT(doc, IsOk());
  EXPECT_EQ(doc->Attr("data-cells"), "128");
  double cells = 0, expected = 0;
  for (const XmlElement* c : doc->FindAll("rect", "cell"))
    cells += c->Number("data-volume");
  for (int32_t u = 0; u < g.num_vertices(); ++u)
    for (double w : g.weights(u)) expected += w;
  EXPECT_NEAR(cells, expected, 1e-6 * expected);
  // 16 nodes: 15 lines 35 px apart; with the 240 socket lines they would be
  // 2.2 px apart, under the 4 px limit.
  std::set<int> depths;
  for (const XmlElement* l : doc->FindAll("line", "boundary"))
    depths.insert(static_cast<int>(l->Number("data-depth")));
  EXPECT_EQ(depths, (std::set<int>{0}));
  EXPECT_EQ(doc->FindAll("line", "boundary").size(), 2u * 15);
  EXPECT_THAT(doc->AllText(), HasSubstr("level1 (16)"));
  EXPECT_THAT(doc->AllText(), HasSubstr("level2: too fine to draw"));
  EXPECT_THAT(doc->AllText(), HasSubstr("level3: too fine to draw"));
}

}  // namespace
}  // namespace rankmap::cli::pictures
