#include "core/coarsen/clustering.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core::multilevel {
namespace {

using graphs::CommGraph;
using graphs::CommGraphBuilder;
using graphs::VertexId;

// The clustering's invariants, recomputed: ids in range and numbered by
// their lowest vertex, no cluster of two or more above max_weight.
void ExpectValid(const CommGraph& g, const Clustering& c, double max_weight) {
  ASSERT_EQ(c.cluster.size(), static_cast<size_t>(g.num_vertices()));
  std::vector<double> weight(c.num_clusters, 0.0);
  std::vector<int32_t> size(c.num_clusters, 0);
  VertexId next = 0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) {
    const VertexId k = c.cluster[v];
    ASSERT_GE(k, 0);
    ASSERT_LT(k, c.num_clusters);
    if (size[k] == 0) {
      ASSERT_EQ(k, next) << "cluster ids not in order of their lowest vertex";
      ++next;
    }
    weight[k] += g.vertex_weight(v);
    ++size[k];
  }
  EXPECT_EQ(next, c.num_clusters);
  for (VertexId k = 0; k < c.num_clusters; ++k) {
    if (size[k] > 1) {
      EXPECT_LE(weight[k], max_weight + 1e-9) << k;
    }
  }
}

TEST(ClusteringTest, GridClustersStayWithinTheirWeight) {
  const CommGraph g = testing::MakeGrid2D(30, 30);
  ClusteringOptions o;
  o.max_weight = 4.0;
  const Clustering c = ClusterVertices(g, o);
  ExpectValid(g, c, 4.0);
  // Label propagation on a grid with clusters of up to 4 shrinks it at least
  // twofold.
  EXPECT_LE(c.num_clusters, g.num_vertices() / 2);
}

TEST(ClusteringTest, HeavyEdgesJoinFirst) {
  // Two heavy pairs joined by a light edge; clusters of at most 2.
  CommGraphBuilder b(4);
  ASSERT_TRUE(b.AddEdge(0, 1, 100).ok());
  ASSERT_TRUE(b.AddEdge(2, 3, 100).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 1).ok());
  const CommGraph g = std::move(b).Build().value();
  ClusteringOptions o;
  o.max_weight = 2.0;
  const Clustering c = ClusterVertices(g, o);
  EXPECT_EQ(c.num_clusters, 2);
  EXPECT_EQ(c.cluster, (std::vector<VertexId>{0, 0, 1, 1}));
}

TEST(ClusteringTest, LeavesOfAStarPairUpAndIsolatedVerticesGroup) {
  // Vertex 0 is the centre of 20 leaves; 21..29 are isolated. Clusters of at
  // most 2: the centre takes one leaf, the other leaves pair with each other
  // (they all favour the centre's cluster), the isolated ones go in pairs.
  const int32_t n = 30;
  CommGraphBuilder b(n);
  for (int32_t l = 1; l <= 20; ++l) ASSERT_TRUE(b.AddEdge(0, l, 1).ok());
  const CommGraph g = std::move(b).Build().value();
  ClusteringOptions o;
  o.max_weight = 2.0;
  const Clustering c = ClusterVertices(g, o);
  ExpectValid(g, c, 2.0);
  // 1 centre pair + 19 leaves (9 pairs, 1 alone) + 9 isolated (4 pairs, 1).
  EXPECT_EQ(c.num_clusters, 1 + 10 + 5);
}

TEST(ClusteringTest, SameSeedSameClustersOnAnyThreadCount) {
  // Large enough for several sub-rounds and several workers per sub-round.
  const CommGraph g = testing::Permute(testing::MakeGrid2D(200, 200),
                                       testing::RandomPermutation(40000, 3));
  ClusteringOptions o;
  o.max_weight = 6.0;
  o.seed = 11;
  const Clustering one = ClusterVertices(g, o);
  ExpectValid(g, one, 6.0);
  for (int32_t threads : {2, 3}) {
    o.threads = threads;
    const Clustering many = ClusterVertices(g, o);
    EXPECT_EQ(many.num_clusters, one.num_clusters) << threads;
    EXPECT_EQ(many.cluster, one.cluster) << threads;
  }
  o.threads = 1;
  o.seed = 12;
  EXPECT_NE(ClusterVertices(g, o).cluster, one.cluster);
}

TEST(ClusteringTest, HeavierVerticesStayAlone) {
  // Vertex weights 5 with a cap of 4: nobody can join anybody.
  CommGraphBuilder b(3);
  for (int32_t v = 0; v < 3; ++v) ASSERT_TRUE(b.SetVertexWeight(v, 5).ok());
  ASSERT_TRUE(b.AddEdge(0, 1, 1).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 1).ok());
  const CommGraph g = std::move(b).Build().value();
  ClusteringOptions o;
  o.max_weight = 4.0;
  const Clustering c = ClusterVertices(g, o);
  EXPECT_EQ(c.num_clusters, 3);
}

}  // namespace
}  // namespace rankmap::core::multilevel
