#include "graphs/bgl.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <limits>
#include <vector>

#include "base/status_matchers.h"
#include "graphs/test_graphs.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

using WeightedList =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                          boost::no_property,
                          boost::property<boost::edge_weight_t, double>>;

struct Traffic {
  double bytes = 0;
};
using DirectedCsr =
    boost::compressed_sparse_row_graph<boost::directedS, boost::no_property,
                                       Traffic>;

BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<CommGraph>));
BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<CommGraph>));
BOOST_CONCEPT_ASSERT(
    (boost::ReadablePropertyMapConcept<bgl::ArcWeightMap, bgl::Arc>));

TEST(FromBoostGraphTest, AdjacencyListSumsParallelEdges) {
  WeightedList list(5);
  boost::add_edge(0, 1, 2.5, list);
  boost::add_edge(1, 0, 0.5, list);  // parallel to 0-1: summed
  boost::add_edge(1, 2, 4.0, list);
  boost::add_edge(3, 3, 9.0, list);  // self loop: dropped
  auto g = FromBoostGraph(list);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 5);
  EXPECT_EQ(g->num_edges(), 2);
  EXPECT_EQ(g->EdgeWeight(0, 1), 3.0);
  EXPECT_EQ(g->EdgeWeight(2, 1), 4.0);
  EXPECT_EQ(g->degree(4), 0);
}

TEST(FromBoostGraphTest, ListStorageWithAnExplicitIndexMap) {
  // listS vertices have no implicit index: the caller's vertex_index property
  // numbers them (here in reverse insertion order) and an integer edge property
  // carries the volume.
  using Listy =
      boost::adjacency_list<boost::listS, boost::listS, boost::undirectedS,
                            boost::property<boost::vertex_index_t, int>,
                            boost::property<boost::edge_weight_t, int64_t>>;
  Listy g;
  std::vector<Listy::vertex_descriptor> v;
  for (int i = 0; i < 3; ++i) v.push_back(boost::add_vertex(2 - i, g));
  boost::add_edge(v[0], v[1], int64_t{10}, g);  // indices 2 - 1
  boost::add_edge(v[1], v[2], int64_t{20}, g);  // indices 1 - 0
  auto c = FromBoostGraph(g, get(boost::edge_weight, g),
                          get(boost::vertex_index, g));
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->EdgeWeight(2, 1), 10.0);
  EXPECT_EQ(c->EdgeWeight(1, 0), 20.0);
  EXPECT_EQ(c->EdgeWeight(2, 0), 0.0);
}

TEST(FromBoostGraphTest, AdjacencyListRejectsNegativeWeights) {
  WeightedList list(2);
  boost::add_edge(0, 1, -1.0, list);
  EXPECT_THAT(FromBoostGraph(list), Not(IsOk()));
}

TEST(FromBoostGraphTest, CompressedSparseRowGraphWithBundledWeights) {
  // Directed traffic: 0 -> 1 sends 3, 1 -> 0 sends 4, 2 -> 3 sends 1.5.
  std::vector<std::pair<int, int>> arcs = {{1, 0}, {0, 1}, {2, 3}};
  std::vector<Traffic> volumes = {{4}, {3}, {1.5}};
  DirectedCsr csr(boost::edges_are_unsorted_multi_pass, arcs.begin(),
                  arcs.end(), volumes.begin(), 4);
  auto g = FromBoostGraph(csr, get(&Traffic::bytes, csr));
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 4);
  EXPECT_EQ(g->EdgeWeight(0, 1), 7.0);
  EXPECT_EQ(g->EdgeWeight(3, 2), 1.5);
  EXPECT_EQ(g->num_edges(), 2);
}

TEST(FromBoostGraphTest, RoundTripThroughTheView) {
  // CommGraph -> (view) -> adjacency_list -> CommGraph gives the same CSR.
  const CommGraph g = testing::RandomGraph(80, 3, 11, false);
  WeightedList list(g.num_vertices());
  auto [vb, ve] = vertices(g);
  for (auto v = vb; v != ve; ++v) {
    auto [eb, ee] = out_edges(*v, g);
    for (auto e = eb; e != ee; ++e) {
      if (source(*e, g) < target(*e, g)) {
        boost::add_edge(source(*e, g), target(*e, g),
                        get(get(boost::edge_weight, g), *e), list);
      }
    }
  }
  auto back = FromBoostGraph(list);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, g);
}

TEST(ViewTest, ConnectedComponents) {
  // Two triangles and an isolated vertex.
  CommGraphBuilder b(7);
  for (auto [u, v] :
       {std::pair{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}}) {
    ASSERT_THAT(b.AddEdge(u, v, 1.0), IsOk());
  }
  const CommGraph g = testing::BuildOrDie(std::move(b));
  std::vector<int> component(7);
  const int count = boost::connected_components(g, component.data());
  EXPECT_EQ(count, 3);
  EXPECT_EQ(component[0], component[2]);
  EXPECT_EQ(component[3], component[5]);
  EXPECT_NE(component[0], component[3]);
  EXPECT_NE(component[6], component[0]);
  EXPECT_NE(component[6], component[3]);
}

TEST(ViewTest, DijkstraMatchesBellmanFord) {
  const CommGraph g = testing::RandomGraph(60, 2, 5, false);
  const VertexId n = g.num_vertices();
  std::vector<double> dist(n);
  boost::dijkstra_shortest_paths(
      g, 0,
      boost::distance_map(boost::make_iterator_property_map(
          dist.begin(), get(boost::vertex_index, g))));
  // Oracle: Bellman-Ford over the CSR arrays.
  const double inf = std::numeric_limits<double>::max();
  std::vector<double> oracle(n, inf);
  oracle[0] = 0;
  for (VertexId round = 0; round < n; ++round) {
    for (VertexId u = 0; u < n; ++u) {
      if (oracle[u] == inf) continue;
      auto row = g.neighbors(u);
      auto w = g.weights(u);
      for (size_t k = 0; k < row.size(); ++k) {
        oracle[row[k]] = std::min(oracle[row[k]], oracle[u] + w[k]);
      }
    }
  }
  for (VertexId v = 0; v < n; ++v) EXPECT_DOUBLE_EQ(dist[v], oracle[v]) << v;
}

TEST(ViewTest, BreadthFirstSearchHopsOnAStencil) {
  // 4 x 4 x 4 grid: BFS hop count from the corner is the Manhattan distance.
  const CommGraph g = testing::Stencil3D(4, 4, 4);
  std::vector<int> hops(g.num_vertices(), 0);
  boost::breadth_first_search(
      g, 0,
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(
          boost::make_iterator_property_map(hops.begin(),
                                            get(boost::vertex_index, g)),
          boost::on_tree_edge()))));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(hops[(i * 4 + j) * 4 + k], i + j + k);
    }
  }
}

}  // namespace
}  // namespace rankmap::graphs
