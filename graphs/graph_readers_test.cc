#include "graphs/graph_readers.h"

#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Message(const absl::StatusOr<CommGraph>& g) {
  return g.ok() ? std::string("OK") : std::string(g.status().message());
}

// The TreeMatch paper's 8 x 8 example (Fig. 1(a), reconstructed in
// test_graphs.cc), as TopoMatch writes it.
constexpr char kTreeMatchMat[] =
    "0 1000 10 1 100 1 1 1\n"
    "1000 0 1000 1 1 100 1 1\n"
    "10 1000 0 1000 1 1 100 1\n"
    "1 1 1000 0 1 1 1 100\n"
    "100 1 1 1 0 1000 10 1\n"
    "1 100 1 1 1000 0 1000 1\n"
    "1 1 100 1 10 1000 0 1000\n"
    "1 1 1 100 1 1 1000 0\n";

TEST(ReadMatTest, TreeMatchExample) {
  auto g = ReadMat(kTreeMatchMat, "tm.mat");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_vertices(), 8);
  EXPECT_EQ(g->num_edges(), 28);  // every pair exchanges something
  EXPECT_EQ(g->EdgeWeight(0, 1), 2000.0);
  EXPECT_EQ(g->EdgeWeight(4, 6), 20.0);
  // The paper: process 0 sends 1114 and process 1 sends 2104 in total (both
  // directions: x2).
  EXPECT_EQ(g->VertexVolume(0), 2 * 1114.0);
  EXPECT_EQ(g->VertexVolume(1), 2 * 2104.0);
}

TEST(ReadMatTest, RealsSignsExponentsAsymmetry) {
  auto g = ReadMat("# comment\n0 +1.5e2 3\n\n150 0 .5\n3.0 0.5E0 7\n", "a.mat");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_vertices(), 3);
  EXPECT_EQ(g->EdgeWeight(0, 1), 300.0);
  EXPECT_EQ(g->EdgeWeight(0, 2), 6.0);
  EXPECT_EQ(g->EdgeWeight(1, 2), 1.0);
  EXPECT_EQ(g->num_edges(), 3);             // the diagonal 7 is ignored
  auto h = ReadMat("0 5\n0 0\n", "b.mat");  // one direction only: still an edge
  ASSERT_THAT(h, IsOk());
  EXPECT_EQ(h->EdgeWeight(1, 0), 5.0);
}

TEST(ReadMatTest, Errors) {
  EXPECT_EQ(Message(ReadMat("0 1\n1\n", "r.mat")),
            "r.mat:2: expected 2 values in row 2, found 1");
  EXPECT_EQ(Message(ReadMat("0 1\n1 0 4\n", "r.mat")),
            "r.mat:2: expected 2 values in row 2, found more: '4'");
  EXPECT_THAT(Message(ReadMat("0 1 2\n1 0 2\n", "t.mat")),
              HasSubstr("t.mat:2: expected 3 rows (one per value of the first "
                        "row), found 2"));
  EXPECT_THAT(Message(ReadMat("0 1\n1 0\n1 1\n", "x.mat")),
              HasSubstr("x.mat:3: expected end of file after 2 rows"));
  EXPECT_THAT(Message(ReadMat("0 -1\n1 0\n", "n.mat")),
              HasSubstr("n.mat:1: expected a matrix entry (finite and "
                        "non-negative), found '-1'"));
  EXPECT_THAT(Message(ReadMat("0 1\nnan 0\n", "n.mat")),
              HasSubstr("n.mat:2: expected"));
  EXPECT_THAT(Message(ReadMat("0 1\ninf 0\n", "n.mat")),
              HasSubstr("found 'inf'"));
  EXPECT_THAT(
      Message(ReadMat("0 1\nabc 0\n", "n.mat")),
      HasSubstr("n.mat:2: expected a matrix entry (a number), found 'abc'"));
  EXPECT_THAT(Message(ReadMat("", "e.mat")),
              HasSubstr("e.mat:1: expected a matrix row"));
}

constexpr char kTriangleGrf[] =
    "0\n"
    "3 6\n"
    "0 010\n"
    "2 5 1 7 2\n"
    "2 5 0 3 2\n"
    "2 7 0 3 1\n";

TEST(ReadScotchTest, EdgeLoads) {
  auto g = ReadScotch(kTriangleGrf, "t.grf");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_vertices(), 3);
  EXPECT_EQ(g->EdgeWeight(0, 1), 5.0);
  EXPECT_EQ(g->EdgeWeight(0, 2), 7.0);
  EXPECT_EQ(g->EdgeWeight(1, 2), 3.0);
  EXPECT_FALSE(g->has_vertex_weights());
}

TEST(ReadScotchTest, BaseOneVertexLoadsUnsortedRows) {
  // Base 1, vertex loads, no edge loads; rows in arbitrary order, tokens across
  // lines.
  auto g = ReadScotch("0\n3 4\n1 001\n4 1 2\n9 2 3\n1\n7 1 2\n", "b.grf");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_edges(), 2);
  EXPECT_EQ(g->EdgeWeight(0, 1), 1.0);
  EXPECT_EQ(g->EdgeWeight(1, 2), 1.0);
  EXPECT_EQ(g->vertex_weight(0), 4.0);
  EXPECT_EQ(g->vertex_weight(1), 9.0);
  EXPECT_EQ(g->vertex_weight(2), 7.0);
}

TEST(ReadScotchTest, Labels) {
  // Labels 30, 10, 20 name a path 10 - 20 - 30 (vertices 1 - 2 - 0).
  auto g = ReadScotch("0\n3 4\n0 100\n30 1 20\n10 1 20\n20 2 30 10\n", "l.grf");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_edges(), 2);
  EXPECT_EQ(g->EdgeWeight(1, 2), 1.0);
  EXPECT_EQ(g->EdgeWeight(2, 0), 1.0);
  EXPECT_EQ(g->EdgeWeight(0, 1), 0.0);
  EXPECT_THAT(Message(ReadScotch("0\n2 2\n0 100\n5 1 6\n5 1 5\n", "d.grf")),
              HasSubstr("d.grf:5: expected distinct vertex labels, found label "
                        "5 used twice"));
  EXPECT_THAT(
      Message(ReadScotch("0\n2 2\n0 100\n5 1 6\n6 1 7\n", "u.grf")),
      HasSubstr("u.grf:5: expected a neighbour label that names a vertex"));
}

TEST(ReadScotchTest, Errors) {
  EXPECT_EQ(Message(ReadScotch("1\n", "v.grf")),
            "v.grf:1: expected the Scotch graph version '0', found '1'");
  EXPECT_THAT(Message(ReadScotch(
                  "0\n3 6\n0 010\n2 5 1 7 2\n2 5 0 3 2\n2 7 0 3\n", "t.grf")),
              HasSubstr("t.grf:6: expected a neighbour, found end of file"));
  EXPECT_THAT(
      Message(ReadScotch("0\n3 6\n0 010\n2 5 1 7 2\n2 5 0 3 2\n2 7 0 3 1 9\n",
                         "x.grf")),
      HasSubstr("x.grf:6: expected end of file after 3 vertices, found '9'"));
  EXPECT_THAT(
      Message(ReadScotch("0\n3 8\n0 010\n2 5 1 7 2\n2 5 0 3 2\n2 7 0 3 1\n",
                         "c.grf")),
      HasSubstr("c.grf:6: expected 8 arcs as declared in the header, found 6"));
  EXPECT_THAT(Message(ReadScotch(
                  "0\n3 6\n0 010\n2 5 1 7 2\n2 5 0 3 2\n2 7 0 3 3\n", "r.grf")),
              HasSubstr("r.grf:6: expected a neighbour in [0, 2], found '3'"));
  EXPECT_THAT(Message(ReadScotch(
                  "0\n3 6\n0 010\n2 5 1 7 2\n2 5 0 3 2\n2 8 0 3 1\n", "w.grf")),
              HasSubstr("w.grf:4: expected edge (0, 2) to weigh 7 in both "
                        "directions, found 8 "
                        "on line 6"));
  EXPECT_THAT(Message(ReadScotch("0\n3 4\n0 000\n2 1 2\n1 2\n1 0\n", "s.grf")),
              HasSubstr("s.grf:4: expected vertex 1 (line 5) to list vertex 0 "
                        "as a neighbour too"));
  EXPECT_THAT(Message(ReadScotch("0\n2 4\n0 000\n2 1 1\n2 0 0\n", "d.grf")),
              HasSubstr("d.grf:4: expected each neighbour once in the list of "
                        "vertex 0, found "
                        "neighbour 1 twice"));
  EXPECT_THAT(Message(ReadScotch("0\n3 6\n0 012\n", "f.grf")),
              HasSubstr("f.grf:3: expected a flag word"));
  EXPECT_THAT(Message(ReadScotch("0\n3 6\n0 010\n2 -5 1 7 2\n", "n.grf")),
              HasSubstr("n.grf:4: expected an edge load (finite and "
                        "non-negative), found '-5'"));
  // A header far larger than the file is rejected before anything is allocated.
  EXPECT_THAT(
      Message(ReadScotch("0\n2000000000 6\n0 000\n", "h.grf")),
      HasSubstr(
          "h.grf:2: expected a vertex count in [0, 11], found '2000000000'"));
  EXPECT_THAT(Message(ReadScotch("0\n3 4\n0 000\n9 1 2\n", "g.grf")),
              HasSubstr("g.grf:4: expected the degree of vertex 0 (at most 4 "
                        "of the 4 declared "
                        "arcs are left), found '9'"));
}

constexpr char kTriangleMetis[] =
    "% a weighted triangle\n"
    "3 3 1\n"
    "2 5 3 7\n"
    "% comment between vertex lines\n"
    "1 5 3 3\n"
    "1 7 2 3\n";

TEST(ReadMetisTest, EdgeWeights) {
  auto g = ReadMetis(kTriangleMetis, "t.graph");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_vertices(), 3);
  EXPECT_EQ(g->EdgeWeight(0, 1), 5.0);
  EXPECT_EQ(g->EdgeWeight(0, 2), 7.0);
  EXPECT_EQ(g->EdgeWeight(1, 2), 3.0);
}

TEST(ReadMetisTest, UnweightedWithIsolatedVertexAndVertexWeights) {
  auto g = ReadMetis("4 2\n2\n1 3\n2\n\n", "u.graph");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_vertices(), 4);
  EXPECT_EQ(g->num_edges(), 2);
  EXPECT_EQ(g->degree(3), 0);
  // fmt 111 with 2 constraints: size, w1, w2, then (neighbour weight) pairs.
  auto h = ReadMetis("2 1 111 2\n9 4 5 2 6\n9 8 1 1 6\n", "w.graph");
  ASSERT_THAT(h, IsOk()) << Message(h);
  EXPECT_EQ(h->vertex_weight(0), 4.0);
  EXPECT_EQ(h->vertex_weight(1), 8.0);
  EXPECT_EQ(h->EdgeWeight(0, 1), 6.0);
}

TEST(ReadMetisTest, Errors) {
  EXPECT_THAT(
      Message(ReadMetis("3 4 1\n2 5 3 7\n1 5 3 3\n1 7 2 3\n", "c.graph")),
      HasSubstr("c.graph:4: expected 4 edges as declared in the header, found "
                "6 arcs"));
  EXPECT_THAT(
      Message(ReadMetis("3 2 1\n2 5 3 7\n1 5 3 3\n1 7 2 3\n", "c.graph")),
      HasSubstr("c.graph:4: expected 4 arcs (2 edges as declared in the "
                "header), found "
                "more at vertex 3"));
  EXPECT_THAT(Message(ReadMetis("3 3 1\n2 5 3 7\n1 5 3 3\n", "t.graph")),
              HasSubstr("t.graph:3: expected 3 vertex lines as declared in the "
                        "header, found 2"));
  EXPECT_THAT(
      Message(ReadMetis("3 3 1\n2 5 4 7\n", "r.graph")),
      HasSubstr("r.graph:2: expected a neighbour in [1, 3], found '4'"));
  EXPECT_THAT(
      Message(ReadMetis("3 3 1\n2 5 3\n", "w.graph")),
      HasSubstr(
          "w.graph:2: expected an edge weight (a number), found end of line"));
  EXPECT_THAT(
      Message(ReadMetis("2 1 1\n2 x\n1 1\n", "x.graph")),
      HasSubstr("x.graph:2: expected an edge weight (a number), found 'x'"));
  EXPECT_THAT(Message(ReadMetis("3 1\n2\n\n1\n", "s.graph")),
              HasSubstr("s.graph:2: expected vertex 2 (line 3) to list vertex "
                        "1 as a neighbour"));
  EXPECT_THAT(
      Message(ReadMetis("2 1 2\n2\n1\n", "f.graph")),
      HasSubstr("f.graph:1: expected a format of at most three 0/1 digits"));
  EXPECT_THAT(Message(ReadMetis("2 1 1 3\n", "n.graph")),
              HasSubstr("n.graph:1: expected no constraint count"));
  EXPECT_THAT(
      Message(ReadMetis("2 1\n2\n1\n7\n", "e.graph")),
      HasSubstr(
          "e.graph:4: expected end of file after 2 vertex lines, found '7'"));
  EXPECT_THAT(
      Message(ReadMetis("99999999 1\n2\n1\n", "h.graph")),
      HasSubstr(
          "h.graph:1: expected a vertex count in [0, 16], found '99999999'"));
}

TEST(ReadMatrixMarketTest, GeneralSymmetricPattern) {
  auto g = ReadMatrixMarket(
      "%%MatrixMarket matrix coordinate real general\n% c\n3 3 3\n1 2 4.5\n2 1 "
      "0.5\n3 1 2\n",
      "g.mtx");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->EdgeWeight(0, 1), 5.0);
  EXPECT_EQ(g->EdgeWeight(0, 2), 2.0);
  auto s = ReadMatrixMarket(
      "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 4\n3 2 "
      "1\n3 3 9\n",
      "s.mtx");
  ASSERT_THAT(s, IsOk()) << Message(s);
  EXPECT_EQ(s->EdgeWeight(0, 1), 8.0);  // A[0][1] = A[1][0] = 4
  EXPECT_EQ(s->EdgeWeight(1, 2), 2.0);
  EXPECT_EQ(s->num_edges(), 2);
  auto p = ReadMatrixMarket(
      "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n",
      "p.mtx");
  ASSERT_THAT(p, IsOk()) << Message(p);
  EXPECT_EQ(p->EdgeWeight(0, 1), 1.0);
}

TEST(ReadMatrixMarketTest, Errors) {
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_THAT(Message(ReadMatrixMarket(banner + "3 4 0\n", "q.mtx")),
              HasSubstr("q.mtx:2: expected a square matrix, found 3 x 4"));
  EXPECT_THAT(
      Message(ReadMatrixMarket(
          "%%MatrixMarket matrix coordinate complex general\n", "c.mtx")),
      HasSubstr(
          "c.mtx:1: expected 'real', 'integer' or 'pattern', found 'complex'"));
  EXPECT_THAT(
      Message(ReadMatrixMarket(banner + "3 3 2\n1 2 1\n", "t.mtx")),
      HasSubstr(
          "t.mtx:3: expected 2 entries as declared in the size line, found 1"));
  EXPECT_THAT(Message(ReadMatrixMarket(banner + "3 3 1\n0 2 1\n", "z.mtx")),
              HasSubstr("z.mtx:3: expected a row index in [1, 3], found '0'"));
  EXPECT_THAT(
      Message(ReadMatrixMarket(banner + "3 3 1\n1 2 -1\n", "n.mtx")),
      HasSubstr(
          "n.mtx:3: expected a value (finite and non-negative), found '-1'"));
  EXPECT_THAT(
      Message(ReadMatrixMarket(banner + "3 3 1\n1 2 1\n2 3 1\n", "x.mtx")),
      HasSubstr("x.mtx:4: expected end of file after 1 entries, found '2'"));
  ReadOptions small;
  small.max_memory_bytes = 1 << 20;
  EXPECT_THAT(
      Message(
          ReadMatrixMarket(banner + "100000000 100000000 0\n", "b.mtx", small)),
      HasSubstr(
          "b.mtx:2: a graph of 100000000 vertices and 0 arcs needs about"));
}

TEST(ReadEdgeListTest, WeightsCommentsAndIsolatedTail) {
  auto g =
      ReadEdgeList("# i j w\n0 1 2.5\n1 0 0.5\n\n2 3 1e3\n5 5 0\n", "e.edges");
  ASSERT_THAT(g, IsOk()) << Message(g);
  EXPECT_EQ(g->num_vertices(), 6);
  EXPECT_EQ(g->EdgeWeight(0, 1), 3.0);
  EXPECT_EQ(g->EdgeWeight(2, 3), 1000.0);
  EXPECT_EQ(g->num_edges(), 2);
  auto u = ReadEdgeList("0 1\n1 2\n", "u.edges");
  ASSERT_THAT(u, IsOk()) << Message(u);
  EXPECT_EQ(u->EdgeWeight(1, 2), 1.0);
  auto z = ReadEdgeList("0 1 0\n",
                        "z.edges");  // an explicit zero is a zero-weight edge
  ASSERT_THAT(z, IsOk());
  EXPECT_EQ(z->num_edges(), 1);
}

TEST(ReadEdgeListTest, StrayIdMakingMostVerticesIsolatedIsRefused) {
  // 26 bytes whose one id would make 230 million vertices.
  EXPECT_EQ(Message(ReadEdgeList("0 1 5\n2 230000000 1\n", "s.edges")),
            "s.edges:2: vertex id 230000000 implies 230000001 vertices but the "
            "file's 2 edges touch at most 4 of them; more than 15/16 would be "
            "isolated (declare them with a line '230000000 230000000 0' if "
            "intended)");
  // Declared on purpose by a self loop, or small enough: accepted.
  auto declared = ReadEdgeList("0 1\n1048576 1048576\n", "d.edges");
  ASSERT_THAT(declared, IsOk()) << Message(declared);
  EXPECT_EQ(declared->num_vertices(), 1048577);
  auto small = ReadEdgeList("0 1048575\n", "f.edges");
  ASSERT_THAT(small, IsOk()) << Message(small);
  EXPECT_EQ(small->num_vertices(), 1048576);
  EXPECT_THAT(ReadEdgeList("0 1048576\n", "g.edges"), Not(IsOk()));
}

TEST(ReadEdgeListTest, Errors) {
  EXPECT_THAT(
      Message(ReadEdgeList("0 1 2\n1 2\n", "m.edges")),
      HasSubstr("m.edges:2: expected a weight (a number), found end of line"));
  EXPECT_THAT(
      Message(ReadEdgeList("0 1\n1 2 3\n", "m.edges")),
      HasSubstr(
          "m.edges:2: expected end of line after 'i j' (as on the first line), "
          "found '3'"));
  EXPECT_THAT(Message(ReadEdgeList("0 -1 2\n", "n.edges")),
              HasSubstr("n.edges:1: expected a target vertex id in [0, "));
  EXPECT_THAT(Message(ReadEdgeList("0 1 NaN\n", "n.edges")),
              HasSubstr("n.edges:1: expected a weight (finite and "
                        "non-negative), found 'NaN'"));
  ReadOptions small;
  small.max_memory_bytes = 1 << 20;
  EXPECT_THAT(
      Message(ReadEdgeList("0 1 1\n1 2000000 1\n", "b.edges", small)),
      HasSubstr(
          "b.edges:2: vertex id 2000000 implies more vertices than the memory "
          "budget allows (ids up to 21843)"));
  EXPECT_THAT(
      Message(ReadEdgeList("0 3000000000 1\n", "i.edges")),
      HasSubstr(
          "i.edges:1: expected a target vertex id in [0, 2147483645], found "
          "'3000000000'"));
}

TEST(OverflowTest, SumsPastTheLargestDoubleAreErrors) {
  EXPECT_THAT(
      Message(ReadMat("0 1e308\n1.7e308 0\n", "o.mat")),
      HasSubstr("o.mat:2: graphs/builder: edge (0, 1): the summed weight "
                "overflows to infinity"));
  EXPECT_THAT(Message(ReadEdgeList("0 1 1e308\n1 0 1e308\n", "o.edges")),
              HasSubstr("o.edges:2: graphs/builder: edge (0, 1)"));
  EXPECT_THAT(
      Message(ReadMatrixMarket(
          "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 1e308\n",
          "o.mtx")),
      HasSubstr("o.mtx:3: value 1e+308 of a symmetric matrix doubles past the "
                "largest double"));
}

TEST(BudgetTest, DenseMatrixCheckedAgainstItsPossibleEntries) {
  // 3 x 3 with up to 6 off-diagonal entries: 48 * 4 + 32 * 6 = 384 bytes.
  ReadOptions tight;
  tight.max_memory_bytes = 383;
  EXPECT_THAT(
      Message(ReadMat("0 1 1\n1 0 1\n1 1 0\n", "d.mat", tight)),
      HasSubstr("d.mat:1: a graph of 3 vertices and 6 arcs needs about"));
  tight.max_memory_bytes = 384;
  EXPECT_THAT(ReadMat("0 1 1\n1 0 1\n1 1 0\n", "d.mat", tight), IsOk());
}

TEST(BudgetTest, EstimateGrowsWithSize) {
  EXPECT_EQ(EstimatedGraphBytes(0, 0), 48);
  EXPECT_EQ(EstimatedGraphBytes(9, 10), 48 * 10 + 32 * 10);
  EXPECT_GT(MemoryBudget(ReadOptions{}), 0);
  ReadOptions o;
  o.max_memory_bytes = 123;
  EXPECT_EQ(MemoryBudget(o), 123);
}

// What the caller needs next counts with the graph, before anything is
// built: the 28-byte edge list whose self loop declares 230,000,001
// vertices was built (6.3 GB) and only then refused by the map.
TEST(BudgetTest, ConsumerBytesCountBeforeBuilding) {
  ReadOptions o;
  o.max_memory_bytes = int64_t{16} << 30;  // the graph alone fits (11 GB)
  int64_t asked_vertices = -1, asked_arcs = -1;
  o.consumer_bytes = [&](int64_t vertices, int64_t arcs) {
    asked_vertices = vertices;
    asked_arcs = arcs;
    return 128 * vertices + 64 * arcs;
  };
  EXPECT_THAT(Message(ReadEdgeList("0 1 1\n230000000 230000000 0\n",
                                   "declared.edges", o)),
              HasSubstr("declared.edges:2: a graph of 230000001 vertices and "
                        "2 arcs needs about 10528 MiB for the graph and "
                        "28076 MiB for what follows (the mapping), more than "
                        "the memory budget of 16384 MiB"));
  EXPECT_EQ(asked_vertices, 230000001);
  EXPECT_EQ(asked_arcs, 2);
  // A small graph passes with its consumer.
  EXPECT_THAT(ReadEdgeList("0 1 1\n1 2 1\n", "small.edges", o), IsOk());
  EXPECT_EQ(asked_vertices, 3);
}

}  // namespace
}  // namespace rankmap::graphs
