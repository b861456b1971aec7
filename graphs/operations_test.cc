#include "graphs/operations.h"

#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "graphs/test_graphs.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<VertexId> RandomPerm(VertexId n, uint64_t seed) {
  std::vector<VertexId> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  return p;
}

// The result must pass the full invariant check of CommGraph::FromCsr.
void ExpectValid(const CommGraph& g) {
  auto copy = CommGraph::FromCsr({g.xadj().begin(), g.xadj().end()},
                                 {g.adjncy().begin(), g.adjncy().end()},
                                 {g.adjwgt().begin(), g.adjwgt().end()},
                                 {g.vwgt().begin(), g.vwgt().end()});
  EXPECT_THAT(copy, IsOk());
}

TEST(ContractTest, TreeMatchPaperFigure2) {
  // Seed 002 (TreeMatch), Section 4: grouping (0,1)(2,3)(4,5)(6,7) of the Fig.
  // 1(a) matrix gives Fig. 2(a); r counts one direction of the symmetric
  // matrix, w both, so w = 2r.
  const CommGraph g = testing::TreeMatchExampleGraph();
  const std::vector<VertexId> pairs = {0, 0, 1, 1, 2, 2, 3, 3};
  auto depth2 = ContractGraph(g, pairs, 4);
  ASSERT_THAT(depth2, IsOk());
  const double fig2a[4][4] = {{0, 1012, 202, 4},
                              {1012, 0, 4, 202},
                              {202, 4, 0, 1012},
                              {4, 202, 1012, 0}};
  for (VertexId i = 0; i < 4; ++i) {
    EXPECT_EQ(depth2->vertex_weight(i), 2.0);
    for (VertexId j = 0; j < 4; ++j) {
      if (i != j) {
        EXPECT_EQ(depth2->EdgeWeight(i, j), 2 * fig2a[i][j]) << i << "," << j;
      }
    }
  }
  // Fig. 2(b): extend with two zero-traffic virtual processes (empty groups 4
  // and 5).
  GraphContractor contractor;
  auto extended =
      contractor.Contract(*depth2, std::vector<VertexId>{0, 1, 2, 3}, 6);
  ASSERT_THAT(extended, IsOk());
  EXPECT_EQ(extended->num_vertices(), 6);
  EXPECT_EQ(extended->degree(4), 0);
  EXPECT_EQ(extended->vertex_weight(5), 0.0);
  // Fig. 2(c): groups (0,1,4)(2,3,5) leave 412 between the two halves.
  auto depth1 = contractor.Contract(*extended,
                                    std::vector<VertexId>{0, 0, 1, 1, 0, 1}, 2);
  ASSERT_THAT(depth1, IsOk());
  EXPECT_EQ(depth1->EdgeWeight(0, 1), 2 * 412.0);
  EXPECT_EQ(depth1->vertex_weight(0), 4.0);
  EXPECT_EQ(depth1->vertex_weight(1), 4.0);
  ExpectValid(*depth1);
}

TEST(ContractTest, MatchesDenseOracleOnRandomGraphs) {
  GraphContractor contractor;  // reused across all cases
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const VertexId n = static_cast<VertexId>(5 + seed * 13 % 90);
    const bool integer = seed % 2 == 0;
    const CommGraph g =
        testing::RandomGraph(n, 4, seed, integer, seed % 3 == 0);
    std::mt19937_64 rng(seed * 77);
    const VertexId k = static_cast<VertexId>(1 + rng() % n);
    std::vector<VertexId> group(n);
    for (VertexId& x : group) x = static_cast<VertexId>(rng() % k);
    auto c = contractor.Contract(g, group, k);
    ASSERT_THAT(c, IsOk());
    ExpectValid(*c);
    std::vector<double> dense(static_cast<size_t>(k) * k, 0.0), vw(k, 0.0);
    for (VertexId u = 0; u < n; ++u) {
      vw[group[u]] += g.vertex_weight(u);
      for (VertexId v = 0; v < n; ++v) {
        if (group[u] != group[v])
          dense[group[u] * k + group[v]] += g.EdgeWeight(u, v);
      }
    }
    for (VertexId a = 0; a < k; ++a) {
      EXPECT_DOUBLE_EQ(c->vertex_weight(a), vw[a]);
      for (VertexId b = 0; b < k; ++b) {
        if (a == b) continue;
        if (integer) {
          EXPECT_EQ(c->EdgeWeight(a, b), dense[a * k + b]);
        } else {
          EXPECT_NEAR(c->EdgeWeight(a, b), dense[a * k + b],
                      1e-9 * (1 + dense[a * k + b]));
        }
        // An edge exists exactly when some traffic crosses between the groups.
        bool crosses = false;
        for (VertexId u = 0; u < n && !crosses; ++u) {
          if (group[u] != a) continue;
          for (VertexId v : g.neighbors(u)) crosses = crosses || group[v] == b;
        }
        EXPECT_EQ(c->EdgeWeight(a, b) > 0 || dense[a * k + b] > 0, crosses);
      }
    }
    // Total volume minus the traffic inside groups.
    double inside = 0;
    for (VertexId u = 0; u < n; ++u) {
      for (VertexId v : g.neighbors(u))
        inside += group[u] == group[v] ? g.EdgeWeight(u, v) : 0;
    }
    EXPECT_NEAR(c->TotalVolume(), g.TotalVolume() - inside / 2,
                1e-6 * g.TotalVolume());
  }
}

TEST(ContractTest, Errors) {
  const CommGraph g = testing::RandomGraph(4, 2, 1);
  EXPECT_THAT(
      std::string(
          ContractGraph(g, std::vector<VertexId>{0, 1}, 2).status().message()),
      HasSubstr("2 group ids for 4 vertices"));
  EXPECT_THAT(std::string(ContractGraph(g, std::vector<VertexId>{0, 1, 2, 2}, 2)
                              .status()
                              .message()),
              HasSubstr("group[2] = 2 outside [0, 2)"));
}

TEST(PermuteTest, RelabelsEdgesAndVertexWeights) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const CommGraph g = testing::RandomGraph(60, 3, seed, false, true);
    const std::vector<VertexId> perm = RandomPerm(60, seed);
    auto p = PermuteVertices(g, perm);
    ASSERT_THAT(p, IsOk());
    ExpectValid(*p);
    EXPECT_EQ(p->num_edges(), g.num_edges());
    for (VertexId u = 0; u < 60; ++u) {
      EXPECT_EQ(p->vertex_weight(perm[u]), g.vertex_weight(u));
      for (VertexId v = 0; v < 60; ++v) {
        EXPECT_EQ(p->EdgeWeight(perm[u], perm[v]), g.EdgeWeight(u, v));
      }
    }
    std::vector<VertexId> inverse(60);
    for (VertexId v = 0; v < 60; ++v) inverse[perm[v]] = v;
    auto back = PermuteVertices(*p, inverse);
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, g);
  }
}

TEST(PermuteTest, Errors) {
  const CommGraph g = testing::RandomGraph(3, 2, 1);
  EXPECT_THAT(PermuteVertices(g, std::vector<VertexId>{0, 1}), Not(IsOk()));
  EXPECT_THAT(std::string(PermuteVertices(g, std::vector<VertexId>{0, 1, 1})
                              .status()
                              .message()),
              HasSubstr("perm[2] = 1 is out of range or repeated"));
  EXPECT_THAT(PermuteVertices(g, std::vector<VertexId>{0, 1, 3}), Not(IsOk()));
}

TEST(InducedSubgraphTest, KeepsInnerEdges) {
  const CommGraph g = testing::RandomGraph(50, 4, 3, true, true);
  const std::vector<VertexId> keep = {40, 3, 17, 8, 22, 49, 0};
  auto s = InducedSubgraph(g, keep);
  ASSERT_THAT(s, IsOk());
  ExpectValid(*s);
  ASSERT_EQ(s->num_vertices(), 7);
  for (VertexId i = 0; i < 7; ++i) {
    EXPECT_EQ(s->vertex_weight(i), g.vertex_weight(keep[i]));
    for (VertexId j = 0; j < 7; ++j) {
      EXPECT_EQ(s->EdgeWeight(i, j), g.EdgeWeight(keep[i], keep[j]));
    }
  }
  auto none = InducedSubgraph(g, {});
  ASSERT_THAT(none, IsOk());
  EXPECT_EQ(none->num_vertices(), 0);
  EXPECT_THAT(InducedSubgraph(g, std::vector<VertexId>{1, 1}), Not(IsOk()));
  EXPECT_THAT(InducedSubgraph(g, std::vector<VertexId>{50}), Not(IsOk()));
}

TEST(StatsTest, TreeMatchExampleAndEmpty) {
  const GraphStats s = ComputeStats(testing::TreeMatchExampleGraph());
  EXPECT_EQ(s.num_vertices, 8);
  EXPECT_EQ(s.num_edges, 28);
  EXPECT_EQ(s.min_degree, 7);
  EXPECT_EQ(s.max_degree, 7);
  EXPECT_EQ(s.mean_degree, 7.0);
  EXPECT_EQ(s.min_edge_weight, 2.0);
  EXPECT_EQ(s.max_edge_weight, 2000.0);
  EXPECT_EQ(s.total_volume, 12872.0);
  EXPECT_EQ(s.total_vertex_weight, 8.0);
  EXPECT_EQ(
      FormatStats(s),
      "n=8 m=28 degree=7..7 (mean 7) isolated=0 weight=2..2000 volume=12872");
  const GraphStats e = ComputeStats(CommGraph());
  EXPECT_EQ(e.num_vertices, 0);
  EXPECT_EQ(e.max_degree, 0);
  CommGraphBuilder b(3);
  ASSERT_THAT(b.AddEdge(0, 1, 4), IsOk());
  const GraphStats t = ComputeStats(testing::BuildOrDie(std::move(b)));
  EXPECT_EQ(t.isolated_vertices, 1);
  EXPECT_EQ(t.min_degree, 0);
  EXPECT_DOUBLE_EQ(t.mean_degree, 2.0 / 3);
}

}  // namespace
}  // namespace rankmap::graphs
