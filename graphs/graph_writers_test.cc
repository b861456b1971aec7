#include "graphs/graph_writers.h"

#include <cmath>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "graphs/graph_readers.h"
#include "graphs/test_graphs.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

using Writer = absl::Status (*)(const CommGraph&, TextSink&,
                                const WriteOptions&);
using Reader = absl::StatusOr<CommGraph> (*)(std::string_view, std::string_view,
                                             const ReadOptions&);

std::string WriteOrDie(Writer write, const CommGraph& g,
                       const WriteOptions& options = {}) {
  std::string text;
  TextSink sink(&text);
  absl::Status s = write(g, sink, options);
  EXPECT_THAT(s, IsOk());
  EXPECT_THAT(sink.Finish(), IsOk());
  return text;
}

CommGraph RoundTrip(Writer write, Reader read, const CommGraph& g) {
  const std::string text = WriteOrDie(write, g);
  auto back = read(text, "roundtrip", ReadOptions{});
  EXPECT_THAT(back, IsOk()) << back.status().message() << "\n"
                            << text.substr(0, 400);
  return back.ok() ? *std::move(back) : CommGraph();
}

TEST(WriteMatTest, TreeMatchExampleWritesThePaperMatrix) {
  // Fig. 1(a) of the TreeMatch paper: the .mat writer halves w(i, j) into
  // A[i][j] = A[j][i], which gives back exactly the symmetric matrix of the
  // paper.
  const CommGraph g = testing::TreeMatchExampleGraph();
  const std::string text = WriteOrDie(WriteMat, g);
  EXPECT_EQ(text.substr(0, text.find('\n')), "0 1000 10 1 100 1 1 1");
  auto back = ReadMat(text, "tm.mat");
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, g);
}

TEST(WriteMatTest, RefusesLargeGraphs) {
  WriteOptions o;
  o.max_mat_vertices = 10;
  std::string text;
  TextSink sink(&text);
  EXPECT_THAT(
      std::string(WriteMat(testing::RandomGraph(11, 2, 1), sink, o).message()),
      HasSubstr("11 vertices are too many"));
}

struct FormatCase {
  const char* name;
  Writer write;
  Reader read;
  bool keeps_vertex_weights;
  bool keeps_zero_edges;
  bool integer_weights;
};

const FormatCase kFormats[] = {
    {"mat", WriteMat, ReadMat, false, false, false},
    {"grf", WriteScotch, ReadScotch, true, true, true},
    {"metis", WriteMetis, ReadMetis, true, true, true},
    {"mtx", WriteMatrixMarket, ReadMatrixMarket, false, true, false},
    {"edges", WriteEdgeList, ReadEdgeList, false, true, false},
};

TEST(RoundTripTest, TreeMatchExampleEveryFormat) {
  const CommGraph g = testing::TreeMatchExampleGraph();
  for (const FormatCase& f : kFormats) {
    SCOPED_TRACE(f.name);
    EXPECT_EQ(RoundTrip(f.write, f.read, g), g);
  }
}

TEST(RoundTripTest, RandomIntegerGraphsEveryFormat) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const int32_t n = static_cast<int32_t>(1 + seed * 7 % 60);
    for (const FormatCase& f : kFormats) {
      SCOPED_TRACE(std::string(f.name) + " seed " + std::to_string(seed));
      const CommGraph g =
          testing::RandomGraph(n, 3, seed, true, f.keeps_vertex_weights);
      EXPECT_EQ(RoundTrip(f.write, f.read, g), g);
    }
  }
}

TEST(RoundTripTest, RealWeightsExactInRealFormatsRoundedInIntegerFormats) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const CommGraph g =
        testing::RandomGraph(40, 4, seed, /*integer_weights=*/false);
    for (const FormatCase& f : kFormats) {
      SCOPED_TRACE(std::string(f.name) + " seed " + std::to_string(seed));
      const CommGraph back = RoundTrip(f.write, f.read, g);
      if (!f.integer_weights) {
        EXPECT_EQ(back, g);  // shortest round-trip decimal form: bit-exact
        continue;
      }
      // Same structure; each weight is the documented rounding of the original.
      ASSERT_EQ(back.num_vertices(), g.num_vertices());
      ASSERT_TRUE(std::equal(g.adjncy().begin(), g.adjncy().end(),
                             back.adjncy().begin(), back.adjncy().end()));
      for (size_t a = 0; a < g.adjwgt().size(); ++a) {
        const double w = g.adjwgt()[a];
        const double expected =
            std::max(1.0, static_cast<double>(std::llround(w)));
        EXPECT_EQ(back.adjwgt()[a], expected) << w;
      }
    }
  }
}

TEST(RoundTripTest, ZeroWeightEdgesAndIsolatedVertices) {
  CommGraphBuilder b(6);
  ASSERT_THAT(b.AddEdge(0, 1, 0.0), IsOk());
  ASSERT_THAT(b.AddEdge(1, 2, 3.0), IsOk());
  const CommGraph g =
      testing::BuildOrDie(std::move(b));  // vertices 3..5 isolated
  for (const FormatCase& f : kFormats) {
    SCOPED_TRACE(f.name);
    const CommGraph back = RoundTrip(f.write, f.read, g);
    EXPECT_EQ(back.num_vertices(), 6);
    EXPECT_EQ(back.EdgeWeight(1, 2), 3.0);
    EXPECT_EQ(back.num_edges(), f.keeps_zero_edges ? 2 : 1);
  }
}

TEST(RoundTripTest, EmptyGraph) {
  const CommGraph g;
  for (const FormatCase& f : kFormats) {
    if (std::string(f.name) == "mat")
      continue;  // a .mat needs at least one row
    SCOPED_TRACE(f.name);
    EXPECT_EQ(RoundTrip(f.write, f.read, g).num_vertices(), 0);
  }
}

TEST(IntegerWeightTest, RoundingRule) {
  int64_t x;
  ASSERT_THAT(IntegerWeight(2.5, 1.0, &x), IsOk());
  EXPECT_EQ(x, 3);
  ASSERT_THAT(IntegerWeight(2.49, 1.0, &x), IsOk());
  EXPECT_EQ(x, 2);
  ASSERT_THAT(IntegerWeight(0.1, 1.0, &x), IsOk());
  EXPECT_EQ(x, 1);  // positive weights never vanish
  ASSERT_THAT(IntegerWeight(0.0, 1.0, &x), IsOk());
  EXPECT_EQ(x, 0);
  ASSERT_THAT(IntegerWeight(0.1, 100.0, &x), IsOk());
  EXPECT_EQ(x, 10);
  EXPECT_THAT(IntegerWeight(1e17, 1.0, &x), Not(IsOk()));
  EXPECT_THAT(IntegerWeight(1.0, 0.0, &x), Not(IsOk()));
}

TEST(WriteScotchTest, ExactText) {
  CommGraphBuilder b(3);
  ASSERT_THAT(b.AddEdge(0, 1, 5), IsOk());
  ASSERT_THAT(b.AddEdge(2, 0, 7), IsOk());
  const CommGraph g = testing::BuildOrDie(std::move(b));
  EXPECT_EQ(WriteOrDie(WriteScotch, g),
            "0\n3 4\n0 010\n2\t5 1\t7 2\n1\t5 0\n1\t7 0\n");
  EXPECT_EQ(WriteOrDie(WriteMetis, g), "3 2 001\n2 5 3 7\n1 5\n1 7\n");
  EXPECT_EQ(WriteOrDie(WriteEdgeList, g),
            "# 3 vertices, 2 edges; lines 'i j w', 0-based\n0 1 5\n0 2 7\n");
  EXPECT_EQ(WriteOrDie(WriteMatrixMarket, g),
            "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 "
            "2.5\n3 1 3.5\n");
  EXPECT_EQ(WriteOrDie(WriteMat, g), "0 2.5 3.5\n2.5 0 0\n3.5 0 0\n");
}

}  // namespace
}  // namespace rankmap::graphs
