#include "core/coarsen/hierarchy.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/model/mapping.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core::multilevel {
namespace {

using graphs::CommGraph;
using graphs::VertexId;

// Sums recomputed from the CSR arrays, not CommGraph's helpers.
double ArcWeightSum(const CommGraph& g) {
  double s = 0.0;
  for (double w : g.adjwgt()) s += w;
  return s;
}
double VertexWeightSum(const CommGraph& g) {
  double s = 0.0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) s += g.vertex_weight(v);
  return s;
}
// Weight of the arcs of g inside the groups of `up` (each edge twice).
double InsideWeight(const CommGraph& g, std::span<const VertexId> up) {
  double s = 0.0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) {
    auto nbrs = g.neighbors(v);
    auto wgts = g.weights(v);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (up[v] == up[nbrs[e]]) s += wgts[e];
    }
  }
  return s;
}

Hierarchy Build(const CommGraph& g, int32_t threads, int64_t stop_at) {
  CoarseningOptions o;
  o.stop_at = stop_at;
  o.seed = 5;
  o.threads = threads;
  return BuildHierarchy(g, o);
}

TEST(HierarchyTest, LevelsKeepTheWeightsTheyShould) {
  const CommGraph g = testing::Permute(testing::MakeGrid2D(50, 60),
                                       testing::RandomPermutation(3000, 9));
  const Hierarchy h = Build(g, 1, 100);
  ASSERT_GE(h.num_levels(), 3);
  const double total = VertexWeightSum(g);
  for (int32_t l = 0; l + 1 < h.num_levels(); ++l) {
    const CommGraph& fine = h.graph(l);
    const CommGraph& coarse = h.graph(l + 1);
    SCOPED_TRACE("level " + std::to_string(l));
    EXPECT_LT(coarse.num_vertices(), fine.num_vertices());
    // Vertex weight: the same total on every level, and each coarse vertex
    // weighs what its members weigh.
    EXPECT_NEAR(VertexWeightSum(coarse), total, 1e-9 * total);
    std::vector<double> members(coarse.num_vertices(), 0.0);
    std::span<const VertexId> up = h.up(l);
    for (VertexId v = 0; v < fine.num_vertices(); ++v) {
      ASSERT_GE(up[v], 0);
      ASSERT_LT(up[v], coarse.num_vertices());
      members[up[v]] += fine.vertex_weight(v);
    }
    double heaviest = 0.0;
    for (VertexId c = 0; c < coarse.num_vertices(); ++c) {
      EXPECT_DOUBLE_EQ(members[c], coarse.vertex_weight(c));
      heaviest = std::max(heaviest, members[c]);
    }
    EXPECT_EQ(h.max_vertex_weight(l + 1), heaviest);
    // Arc weight: what the clusters do not hide.
    const double kept = ArcWeightSum(fine) - InsideWeight(fine, up);
    EXPECT_NEAR(ArcWeightSum(coarse), kept, 1e-9 * ArcWeightSum(fine));
  }
  EXPECT_LE(h.graph(h.num_levels() - 1).num_vertices(), 100);
}

TEST(HierarchyTest, AProjectedMappingKeepsItsJ) {
  // A mapping of the coarsest level, projected down without refinement, has
  // the same J on every level: arcs inside a cluster share a leaf.
  const topology::Tree tree = testing::MakeTleaf("3 4 100 4 10 4 1");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(40, 40),
                                       testing::RandomPermutation(1600, 2));
  const Hierarchy h = Build(g, 1, 64);
  const int32_t top = h.num_levels() - 1;
  std::mt19937_64 rng(4);
  Mapping m(h.graph(top).num_vertices());
  for (auto& leaf : m) leaf = static_cast<LeafId>(rng() % tree.num_leaves());
  const double j = ComputeJ(tree, h.graph(top), m);
  ASSERT_GT(j, 0.0);
  for (int32_t l = top - 1; l >= 0; --l) {
    Mapping fine(h.graph(l).num_vertices());
    for (VertexId v = 0; v < h.graph(l).num_vertices(); ++v)
      fine[v] = m[h.up(l)[v]];
    m = std::move(fine);
    EXPECT_NEAR(ComputeJ(tree, h.graph(l), m), j, 1e-12 * j) << l;
  }
}

TEST(HierarchyTest, SameSeedSameHierarchyOnAnyThreadCount) {
  const CommGraph g = testing::Permute(testing::MakeGrid3D(40, 30, 30),
                                       testing::RandomPermutation(36000, 8));
  const Hierarchy one = Build(g, 1, 500);
  for (int32_t threads : {2, 3}) {
    const Hierarchy many = Build(g, threads, 500);
    ASSERT_EQ(many.num_levels(), one.num_levels());
    for (int32_t l = 1; l < one.num_levels(); ++l) {
      EXPECT_EQ(many.graph(l), one.graph(l)) << l;
      EXPECT_TRUE(std::equal(many.up(l - 1).begin(), many.up(l - 1).end(),
                             one.up(l - 1).begin()));
    }
  }
}

TEST(HierarchyTest, RespectsTheWeightCapAndStops) {
  const CommGraph g = testing::MakeGrid2D(20, 20);
  CoarseningOptions o;
  o.max_weight = 3.0;
  const Hierarchy h = BuildHierarchy(g, o);
  for (int32_t l = 0; l < h.num_levels(); ++l)
    EXPECT_LE(h.max_vertex_weight(l), 3.0) << l;
  // Small graphs, or already at the goal: level 0 only.
  o.stop_at = 400;
  EXPECT_EQ(BuildHierarchy(g, o).num_levels(), 1);
  EXPECT_EQ(BuildHierarchy(CommGraph(), CoarseningOptions{}).num_levels(), 1);
}

}  // namespace
}  // namespace rankmap::core::multilevel
