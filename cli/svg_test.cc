#include "cli/svg.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::cli {
namespace {

// Minimal XML well-formedness check: tags nest and close, attributes are
// quoted, and the text has no stray '<' or '&'. Returns the number of elements,
// or -1 when malformed.
int CountElementsIfWellFormed(const std::string& xml) {
  std::vector<std::string> open;
  int elements = 0;
  size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const size_t semi = xml.find(';', i);
      if (semi == std::string::npos || semi - i > 6) return -1;
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) return -1;
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return -1;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return -1;
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    const std::string name = tag.substr(0, tag.find(' '));
    // Attributes: every '=' must be followed by a quote, and quotes must pair
    // up.
    int quotes = 0;
    for (size_t k = 0; k < tag.size(); ++k) {
      if (tag[k] == '"') ++quotes;
      if (tag[k] == '=' && (k + 1 >= tag.size() || tag[k + 1] != '"'))
        return -1;
      if (tag[k] == '<') return -1;
    }
    if (quotes % 2 != 0) return -1;
    ++elements;
    if (!self_closing) open.push_back(name);
  }
  return open.empty() ? elements : -1;
}

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(Svg, HeatmapIsWellFormedAndHasOneCellPerNonZeroEntry) {
  // 3x3 grid: 12 undirected edges = 24 non-zero matrix entries, drawn twice
  // (before, after).
  graphs::CommGraph g = testing::MakeGrid2D(3, 3, 2.0);
  core::Mapping m = {8, 7, 6, 5, 4, 3, 2, 1, 0};
  const std::string svg = MatrixHeatmapSvg(g, m);
  EXPECT_GT(CountElementsIfWellFormed(svg), 0) << svg.substr(0, 400);
  EXPECT_EQ(Count(svg, "class=\"cell\""), 2 * 24);
  EXPECT_NE(svg.find("data-processes=\"9\""), std::string::npos);
}

TEST(Svg, HeatmapBinsLargeMatrices) {
  graphs::CommGraph g = testing::MakeGrid2D(20, 20);  // 400 processes
  core::Mapping m(400);
  for (int i = 0; i < 400; ++i) m[i] = i;
  const std::string svg = MatrixHeatmapSvg(g, m, 10);
  EXPECT_GT(CountElementsIfWellFormed(svg), 0);
  EXPECT_NE(svg.find("data-cells=\"10\""), std::string::npos);
  // Binned 10x10: each half shows at most 100 cells; a grid's bands leave some
  // empty.
  const int cells = Count(svg, "class=\"cell\"");
  EXPECT_GT(cells, 2 * 10);
  EXPECT_LE(cells, 2 * 100);
}

TEST(Svg, TreeShowsEveryProcessAndNode) {
  topology::Tree t = testing::MakeTleaf("2 2 10 2 1");  // 7 nodes
  core::Mapping m = {3, 0, 2};
  const std::string svg = TreeSvg(t, m, 1);
  EXPECT_GT(CountElementsIfWellFormed(svg), 0);
  EXPECT_EQ(Count(svg, "class=\"node\""), 7);
  EXPECT_EQ(Count(svg, "class=\"process\""), 3);
  EXPECT_EQ(Count(svg, "line x1"), 6);  // one edge per non-root node
}

TEST(Svg, LargeTreeIsSummarised) {
  topology::Tree t =
      testing::MakeTleaf("2 4 10 100 1");  // 400 leaves, 4 internal + root
  core::Mapping m = {0, 150, 399};
  const std::string svg = TreeSvg(t, m, 1, 64);
  EXPECT_GT(CountElementsIfWellFormed(svg), 0);
  EXPECT_EQ(Count(svg, "class=\"node\""), 5);  // root + 4 drawn at depth 1
  EXPECT_EQ(Count(svg, "class=\"process\""), 3);
}

TEST(Svg, CheckerRejectsMalformedXml) {
  EXPECT_EQ(CountElementsIfWellFormed("<a><b></a></b>"), -1);
  EXPECT_EQ(CountElementsIfWellFormed("<a x=1/>"), -1);
  EXPECT_EQ(CountElementsIfWellFormed("<a>"), -1);
  EXPECT_EQ(CountElementsIfWellFormed("<a><b/></a>"), 2);
}

}  // namespace
}  // namespace rankmap::cli
