#include "graphs/graphs.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "graphs/otf2_test_trace.h"
#include "graphs/test_graphs.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

std::string TempPath(const std::string& file) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + file;
}

TEST(ParseGraphFormatTest, Names) {
  EXPECT_EQ(*ParseGraphFormat("auto"), GraphFormat::kAuto);
  EXPECT_EQ(*ParseGraphFormat("mat"), GraphFormat::kMat);
  EXPECT_EQ(*ParseGraphFormat("grf"), GraphFormat::kScotch);
  EXPECT_EQ(*ParseGraphFormat("scotch"), GraphFormat::kScotch);
  EXPECT_EQ(*ParseGraphFormat("metis"), GraphFormat::kMetis);
  EXPECT_EQ(*ParseGraphFormat("graph"), GraphFormat::kMetis);
  EXPECT_EQ(*ParseGraphFormat("mtx"), GraphFormat::kMatrixMarket);
  EXPECT_EQ(*ParseGraphFormat("MatrixMarket"), GraphFormat::kMatrixMarket);
  EXPECT_EQ(*ParseGraphFormat("edges"), GraphFormat::kEdgeList);
  EXPECT_EQ(*ParseGraphFormat("otf2"), GraphFormat::kOtf2);
  EXPECT_THAT(std::string(ParseGraphFormat("csv").status().message()),
              HasSubstr("unknown format 'csv'"));
}

TEST(DetectionTest, FromContentWithoutExtension) {
  // Same triangle (w = 5, 7, 3) in every format, under a name without
  // extension.
  const std::string texts[] = {
      "0 2.5 3.5\n2.5 0 1.5\n3.5 1.5 0\n",
      "0\n3 6\n0 010\n2 5 1 7 2\n2 5 0 3 2\n2 7 0 3 1\n",
      "3 3 1\n2 5 3 7\n1 5 3 3\n1 7 2 3\n",
      "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 5\n1 3 7\n2 3 "
      "3\n",
      "0 1 5\n0 2 7\n1 2 3\n2 2 0\n",
      "# edges\n0 1 5\n0 2 7\n1 2 3\n",
      "% metis\n3 3 1\n2 5 3 7\n1 5 3 3\n1 7 2 3\n",
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    auto g = ReadGraphString(text, "input");
    ASSERT_THAT(g, IsOk());
    EXPECT_EQ(g->num_vertices(), 3);
    EXPECT_EQ(g->EdgeWeight(0, 1), 5.0);
    EXPECT_EQ(g->EdgeWeight(0, 2), 7.0);
    EXPECT_EQ(g->EdgeWeight(1, 2), 3.0);
  }
}

TEST(DetectionTest, MetisWithUniformLinesIsNotAnEdgeList) {
  // An unweighted METIS ring: every line has two tokens, like an edge list; the
  // header's vertex count matching the number of lines decides. Trailing
  // isolated vertices too.
  auto ring = ReadGraphString("4 4\n2 4\n1 3\n2 4\n1 3\n", "ring");
  ASSERT_THAT(ring, IsOk());
  EXPECT_EQ(ring->num_vertices(), 4);
  EXPECT_EQ(ring->num_edges(), 4);
  auto tail = ReadGraphString("5 1\n2\n1\n\n\n\n", "tail");
  ASSERT_THAT(tail, IsOk());
  EXPECT_EQ(tail->num_vertices(), 5);
  // An edge list whose first id does not match its line count stays an edge
  // list.
  auto edges = ReadGraphString("0 1\n1 2\n2 3\n3 0\n", "edges");
  ASSERT_THAT(edges, IsOk());
  EXPECT_EQ(edges->num_vertices(), 4);
  EXPECT_EQ(edges->EdgeWeight(3, 0), 1.0);
}

TEST(DetectionTest, ExtensionIsAHintAndExplicitFormatOverrides) {
  // Three lines of three tokens: a square .mat by content, an edge list by
  // extension.
  const std::string text = "0 1 5\n0 2 7\n1 2 3\n";
  auto as_mat = ReadGraphString(text, "x");
  ASSERT_THAT(as_mat, IsOk());
  EXPECT_EQ(as_mat->EdgeWeight(0, 1), 1.0);  // A[0][1] + A[1][0] = 1 + 0
  auto as_edges = ReadGraphString(text, "dir/x.edges");
  ASSERT_THAT(as_edges, IsOk());
  EXPECT_EQ(as_edges->EdgeWeight(0, 1), 5.0);
  auto forced = ReadGraphString(text, "x.mat", GraphFormat::kEdgeList);
  ASSERT_THAT(forced, IsOk());
  EXPECT_EQ(forced->EdgeWeight(0, 2), 7.0);
  EXPECT_THAT(std::string(ReadGraphString("", "empty").status().message()),
              HasSubstr("empty: no data"));
}

TEST(GraphFileTest, WriteThenReadEveryExtension) {
  const CommGraph g = testing::RandomGraph(50, 3, 7);
  for (const char* ext : {"mat", "grf", "graph", "mtx", "edges"}) {
    SCOPED_TRACE(ext);
    const std::string path = TempPath(std::string("g.") + ext);
    ASSERT_THAT(WriteGraphFile(g, path), IsOk());
    auto back = ReadGraphFile(path);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, g);
  }
}

TEST(FormatGraphTest, EveryFormatReadsBackAndAutoIsEdgeList) {
  const CommGraph g = testing::RandomGraph(20, 3, 5);
  for (GraphFormat f :
       {GraphFormat::kMat, GraphFormat::kScotch, GraphFormat::kMetis,
        GraphFormat::kMatrixMarket, GraphFormat::kEdgeList}) {
    auto text = FormatGraph(g, f);
    ASSERT_THAT(text, IsOk());
    auto back = ReadGraphString(*text, "text", f);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, g);
  }
  EXPECT_EQ(*FormatGraph(g), *FormatGraph(g, GraphFormat::kEdgeList));
}

TEST(GraphFileTest, TreeMatchExampleMatFile) {
  // Seed 002, Fig. 1(a): written as .mat, read back with detection, same CSR.
  const CommGraph g = testing::TreeMatchExampleGraph();
  const std::string path = TempPath("treematch.mat");
  ASSERT_THAT(WriteGraphFile(g, path), IsOk());
  auto back = ReadGraphFile(path);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, g);
  // Total volume = sum of all entries of A: row sums 1114, 2104, 2113, 1105
  // twice.
  EXPECT_EQ(back->TotalVolume(), 2 * (1114.0 + 2104.0 + 2113.0 + 1105.0));
}

TEST(GraphFileTest, Errors) {
  EXPECT_THAT(
      std::string(ReadGraphFile(TempPath("missing.grf")).status().message()),
      HasSubstr("missing.grf: cannot open"));
  const char* dir = std::getenv("TEST_TMPDIR");
  if (dir != nullptr) {
    EXPECT_THAT(std::string(ReadGraphFile(dir).status().message()),
                HasSubstr("not a regular file"));
  }
  EXPECT_THAT(
      std::string(WriteGraphFile(CommGraph(), TempPath("g.xyz")).message()),
      HasSubstr("cannot choose a format"));
  const std::string bad = TempPath("bad.graph");
  std::ofstream(bad) << "3 3 1\n2 5 3 7\n";
  EXPECT_THAT(
      std::string(ReadGraphFile(bad).status().message()),
      HasSubstr(
          "bad.graph:2: expected 3 vertex lines as declared in the header"));
  // A writer error leaves no partial file behind.
  const std::string big = TempPath("big.mat");
  EXPECT_THAT(WriteGraphFile(testing::RandomGraph(20000, 1, 1), big),
              Not(IsOk()));
  EXPECT_FALSE(std::ifstream(big).good());
}

// An OTF2 trace is read through its anchor file: found by extension, or by
// content under another name, or when named.
TEST(GraphFileTest, Otf2TraceByExtensionContentOrName) {
  testing::TestTrace t;
  t.num_ranks = 3;
  t.comms = {{0, 1, 2}};
  t.sends = {{0, 0, 1, 100, false}, {1, 0, 0, 20, true}, {2, 0, 1, 5, false}};
  const std::string dir = TempPath("trace");
  ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
  absl::StatusOr<CommGraph> g = ReadGraphFile(dir + "/traces.otf2");
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 3);
  EXPECT_EQ(g->TotalVolume(), 125);
  const std::string junk = TempPath("junk.otf2");
  std::ofstream(junk) << "0 1 5\n";
  EXPECT_THAT(std::string(ReadGraphFile(junk).status().message()),
              HasSubstr("junk.otf2:1: not an OTF2 archive"));
  const std::string edges = TempPath("plain.edges");
  std::ofstream(edges) << "0 1 5\n";
  EXPECT_THAT(
      std::string(ReadGraphFile(edges, GraphFormat::kOtf2).status().message()),
      HasSubstr("plain.edges:1: not an OTF2 archive"));
  EXPECT_THAT(ReadGraphString("x", "x.otf2", GraphFormat::kOtf2), Not(IsOk()));
  EXPECT_THAT(std::string(WriteGraphFile(*g, TempPath("g.otf2")).message()),
              HasSubstr("not written as OTF2"));
}

}  // namespace
}  // namespace rankmap::graphs
