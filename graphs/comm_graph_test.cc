#include "graphs/comm_graph.h"

#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(CommGraphBuilder, SymmetrisesMergesAndDropsSelfLoops) {
  CommGraphBuilder b(4);
  ASSERT_THAT(b.AddEdge(0, 1, 5.0), IsOk());
  ASSERT_THAT(b.AddEdge(1, 0, 3.0), IsOk());  // other direction: summed
  ASSERT_THAT(b.AddEdge(2, 3, 1.5), IsOk());
  ASSERT_THAT(b.AddEdge(2, 3, 0.5), IsOk());    // duplicate: summed
  ASSERT_THAT(b.AddEdge(2, 2, 100.0), IsOk());  // self loop: dropped
  ASSERT_THAT(b.AddEdge(3, 0, 0.0), IsOk());    // zero weight: kept
  auto g = std::move(b).Build();
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 4);
  EXPECT_EQ(g->num_edges(), 3);
  EXPECT_THAT(g->xadj(), ElementsAre(0, 2, 3, 4, 6));
  EXPECT_THAT(g->adjncy(), ElementsAre(1, 3, 0, 3, 0, 2));
  EXPECT_THAT(g->adjwgt(), ElementsAre(8.0, 0.0, 8.0, 2.0, 0.0, 2.0));
  EXPECT_EQ(g->EdgeWeight(1, 0), 8.0);
  EXPECT_EQ(g->EdgeWeight(1, 2), 0.0);
  EXPECT_EQ(g->TotalVolume(), 10.0);
  EXPECT_EQ(g->VertexVolume(3), 2.0);
  EXPECT_FALSE(g->has_vertex_weights());
  EXPECT_EQ(g->TotalVertexWeight(), 4.0);
}

TEST(CommGraphBuilder, RejectsBadInputNamingTheVertex) {
  CommGraphBuilder b(3);
  auto s = b.AddEdge(0, 3, 1.0);
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(s.message(), HasSubstr("(0, 3)"));
  EXPECT_THAT(b.AddEdge(-1, 0, 1.0), Not(IsOk()));
  s = b.AddEdge(1, 2, -1.0);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("(1, 2)"));
  EXPECT_THAT(b.AddEdge(1, 2, std::nan("")), Not(IsOk()));
  EXPECT_THAT(b.AddEdge(1, 2, std::numeric_limits<double>::infinity()),
              Not(IsOk()));
  EXPECT_THAT(b.SetVertexWeight(5, 1.0), Not(IsOk()));
  EXPECT_THAT(b.SetVertexWeight(1, -2.0).message(), HasSubstr("vertex 1"));
  EXPECT_THAT(b.SetVertexWeight(1, 2.0), IsOk());
  auto g = std::move(b).Build();
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_edges(), 0);
  EXPECT_EQ(g->TotalVertexWeight(), 4.0);
}

TEST(CommGraphBuilder, RejectsSumsThatOverflow) {
  CommGraphBuilder b(2);
  ASSERT_THAT(b.AddEdge(0, 1, 1e308), IsOk());
  ASSERT_THAT(b.AddEdge(1, 0, 1e308), IsOk());  // finite each, infinite summed
  auto g = std::move(b).Build();
  ASSERT_THAT(g, Not(IsOk()));
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("(0, 1)"));
}

TEST(CommGraph, VolumesDoNotOverflowOnTheWay) {
  // Both arcs of the edge sum to 2e308 (past DBL_MAX); the volume is 1e308.
  CommGraphBuilder b(2);
  ASSERT_THAT(b.AddEdge(0, 1, 1e308), IsOk());
  const CommGraph g = std::move(b).Build().value();
  EXPECT_EQ(g.TotalVolume(), 1e308);
  EXPECT_EQ(g.VertexVolume(0), 1e308);
}

TEST(CommGraphBuilder, RejectsImpossibleVertexCounts) {
  EXPECT_THAT(CommGraphBuilder(-1).Build(), Not(IsOk()));
  EXPECT_THAT(CommGraphBuilder(int64_t{1} << 40).Build(), Not(IsOk()));
  auto empty = CommGraphBuilder(0).Build();
  ASSERT_THAT(empty, IsOk());
  EXPECT_EQ(empty->num_vertices(), 0);
}

// Property: the builder agrees with a map-based oracle on random multigraphs.
TEST(CommGraphBuilder, MatchesOracleOnRandomInput) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 30);
    const int m = static_cast<int>(rng() % 200);
    CommGraphBuilder b(n);
    std::map<std::pair<int, int>, double> oracle;
    for (int e = 0; e < m; ++e) {
      int u = static_cast<int>(rng() % n), v = static_cast<int>(rng() % n);
      double w = static_cast<double>(rng() % 100);
      ASSERT_THAT(b.AddEdge(u, v, w), IsOk());
      if (u != v) oracle[{std::min(u, v), std::max(u, v)}] += w;
    }
    auto g = std::move(b).Build();
    ASSERT_THAT(g, IsOk());
    EXPECT_EQ(g->num_edges(), static_cast<int64_t>(oracle.size()));
    for (auto [uv, w] : oracle) {
      EXPECT_EQ(g->EdgeWeight(uv.first, uv.second), w);
      EXPECT_EQ(g->EdgeWeight(uv.second, uv.first), w);
    }
    // Rows sorted and consistent with FromCsr's checks.
    auto copy = CommGraph::FromCsr({g->xadj().begin(), g->xadj().end()},
                                   {g->adjncy().begin(), g->adjncy().end()},
                                   {g->adjwgt().begin(), g->adjwgt().end()});
    ASSERT_THAT(copy, IsOk());
    EXPECT_EQ(*copy, *g);
  }
}

TEST(CommGraph, FromCsrRejectsBrokenArrays) {
  EXPECT_THAT(CommGraph::FromCsr({}, {}, {}), Not(IsOk()));
  EXPECT_THAT(CommGraph::FromCsr({0, 1}, {0}, {1.0}),
              Not(IsOk()));  // self loop
  EXPECT_THAT(CommGraph::FromCsr({0, 1, 1}, {1}, {1.0}),
              Not(IsOk()));  // asymmetric
  EXPECT_THAT(CommGraph::FromCsr({0, 1, 2}, {1, 0}, {1.0, 2.0}),
              Not(IsOk()));  // weights differ
  EXPECT_THAT(CommGraph::FromCsr({0, 1, 2}, {1, 0}, {-1.0, -1.0}),
              Not(IsOk()));  // negative
  EXPECT_THAT(CommGraph::FromCsr({0, 1, 2}, {1, 5}, {1.0, 1.0}),
              Not(IsOk()));  // out of range
  EXPECT_THAT(CommGraph::FromCsr({0, 1, 2}, {1, 0}, {1.0, 1.0}, {1.0}),
              Not(IsOk()));
  auto ok = CommGraph::FromCsr({0, 1, 2}, {1, 0}, {3.0, 3.0}, {2.0, 1.0});
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->vertex_weight(0), 2.0);
}

TEST(CommGraph, MessagesTravelWithTheBytes) {
  CommGraphBuilder b(4);
  ASSERT_THAT(b.AddEdge(0, 1, 100.0), IsOk());         // before any count: 0
  ASSERT_THAT(b.AddTraffic(1, 0, 50.0, 3.0), IsOk());  // merged with (0, 1)
  ASSERT_THAT(b.AddTraffic(2, 3, 0.0, 7.0), IsOk());   // zero-byte messages
  ASSERT_THAT(b.AddTraffic(3, 2, 8.0, 1.0), IsOk());
  ASSERT_THAT(b.AddTraffic(2, 2, 9.0, 9.0), IsOk());  // self loop: dropped
  ASSERT_THAT(b.AddTraffic(0, 3, 4.0, 2.0), IsOk());
  auto g = std::move(b).Build();
  ASSERT_THAT(g, IsOk());
  ASSERT_TRUE(g->has_messages());
  EXPECT_EQ(g->num_edges(), 3);
  // Row 0: neighbours 1, 3; row 2: neighbour 3.
  EXPECT_EQ(g->messages(0)[0], 3.0);
  EXPECT_EQ(g->weights(0)[0], 150.0);
  EXPECT_EQ(g->messages(0)[1], 2.0);
  EXPECT_EQ(g->messages(1)[0], 3.0);
  EXPECT_EQ(g->messages(2)[0], 8.0);
  EXPECT_EQ(g->weights(2)[0], 8.0);
  EXPECT_EQ(g->TotalMessages(), 13.0);
  auto copy = CommGraph::FromCsr({g->xadj().begin(), g->xadj().end()},
                                 {g->adjncy().begin(), g->adjncy().end()},
                                 {g->adjwgt().begin(), g->adjwgt().end()}, {},
                                 {g->adjmsg().begin(), g->adjmsg().end()});
  ASSERT_THAT(copy, IsOk());
  EXPECT_EQ(*copy, *g);
}

TEST(CommGraph, WithoutCountsThereAreNone) {
  CommGraphBuilder b(2);
  ASSERT_THAT(b.AddEdge(0, 1, 1.0), IsOk());
  auto g = std::move(b).Build();
  ASSERT_THAT(g, IsOk());
  EXPECT_FALSE(g->has_messages());
  EXPECT_EQ(g->TotalMessages(), 0.0);
}

TEST(CommGraph, MessageCountsAreChecked) {
  CommGraphBuilder b(2);
  EXPECT_THAT(b.AddTraffic(0, 1, 1.0, -1.0), Not(IsOk()));
  EXPECT_THAT(b.AddTraffic(0, 1, 1.0, std::nan("")), Not(IsOk()));
  auto g = CommGraph::FromCsr({0, 1, 2}, {1, 0}, {1.0, 1.0});
  ASSERT_THAT(g, IsOk());
  EXPECT_THAT(g->WithMessages({1.0}), Not(IsOk()));         // wrong length
  EXPECT_THAT(g->WithMessages({1.0, 2.0}), Not(IsOk()));    // not symmetric
  EXPECT_THAT(g->WithMessages({-1.0, -1.0}), Not(IsOk()));  // negative
  auto m = g->WithMessages({4.0, 4.0});
  ASSERT_THAT(m, IsOk());
  EXPECT_EQ(m->TotalMessages(), 4.0);
  EXPECT_FALSE(*m == *g);
  auto cleared = m->WithMessages({});
  ASSERT_THAT(cleared, IsOk());
  EXPECT_EQ(*cleared, *g);
}

}  // namespace
}  // namespace rankmap::graphs
