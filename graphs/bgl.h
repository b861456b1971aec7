// Boost.Graph adapter, both ways (header only).
//
// 1. FromBoostGraph: builds a CommGraph from any BGL graph that models
// VertexListGraph and
//    EdgeListGraph (adjacency_list, compressed_sparse_row_graph, ...), given an
//    edge weight map (default: the graph's edge_weight property) and a vertex
//    index map (default: its vertex_index). Undirected graphs list each edge
//    once: w(u, v) = sum of the weights of the (parallel) edges u-v. Directed
//    graphs list traffic per arc: both directions are summed, like the file
//    readers do for asymmetric input. Self loops are dropped.
//
// 2. A CommGraph *is* a BGL graph once this header is included: it models
// VertexListGraph
//    and IncidenceGraph (undirected, no parallel edges), with
//    get(boost::edge_weight, g) and get(boost::vertex_index, g) property maps,
//    so BGL algorithms run on it directly without copying:
//
//      std::vector<int> component(g.num_vertices());
//      int count = boost::connected_components(g, component.data());
//      std::vector<double> dist(g.num_vertices());
//      boost::dijkstra_shortest_paths(g, 0, boost::distance_map(
//          boost::make_iterator_property_map(dist.begin(),
//          get(boost::vertex_index, g))));
//
//    Vertex descriptors are VertexId; edge descriptors are bgl::Arc {source,
//    arc index}, the arc's position in the CSR arrays. Complexity is that of
//    the CSR: O(1) per step.
#ifndef RANKMAP_GRAPHS_BGL_H_
#define RANKMAP_GRAPHS_BGL_H_

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>
#include <cstdint>
#include <iterator>
#include <utility>

#include "absl/status/statusor.h"
#include "base/status_macros.h"
#include "graphs/comm_graph.h"

namespace rankmap::graphs {

// ---- BGL graph -> CommGraph
// -------------------------------------------------------------

// Errors: an index outside [0, num_vertices(g)), a negative, NaN or infinite
// weight. O(V + E log deg) (the builder's merge).
template <class Graph, class WeightMap, class IndexMap>
absl::StatusOr<CommGraph> FromBoostGraph(const Graph& g, WeightMap weight,
                                         IndexMap index) {
  const int64_t n = static_cast<int64_t>(num_vertices(g));
  CommGraphBuilder builder(n);
  builder.Reserve(static_cast<int64_t>(num_edges(g)));
  typename boost::graph_traits<Graph>::edge_iterator it, end;
  for (boost::tie(it, end) = edges(g); it != end; ++it) {
    RETURN_IF_ERROR(
        builder.AddEdge(static_cast<int64_t>(get(index, source(*it, g))),
                        static_cast<int64_t>(get(index, target(*it, g))),
                        static_cast<double>(get(weight, *it))));
  }
  return std::move(builder).Build();
}

template <class Graph, class WeightMap>
absl::StatusOr<CommGraph> FromBoostGraph(const Graph& g, WeightMap weight) {
  return FromBoostGraph(g, weight, get(boost::vertex_index, g));
}

template <class Graph>
absl::StatusOr<CommGraph> FromBoostGraph(const Graph& g) {
  return FromBoostGraph(g, get(boost::edge_weight, g),
                        get(boost::vertex_index, g));
}

// ---- CommGraph as a BGL graph
// -----------------------------------------------------------

namespace bgl {

// Edge descriptor: arc `index` of the CSR, leaving `source`.
struct Arc {
  VertexId source = -1;
  ArcIndex index = -1;
  friend bool operator==(const Arc& a, const Arc& b) {
    return a.index == b.index;
  }
  friend bool operator!=(const Arc& a, const Arc& b) {
    return a.index != b.index;
  }
};

class OutArcIterator
    : public boost::iterator_facade<OutArcIterator, Arc,
                                    std::random_access_iterator_tag, Arc,
                                    std::ptrdiff_t> {
 public:
  OutArcIterator() = default;
  OutArcIterator(VertexId source, ArcIndex index)
      : source_(source), index_(index) {}

 private:
  friend class boost::iterator_core_access;
  Arc dereference() const { return {source_, index_}; }
  bool equal(const OutArcIterator& other) const {
    return index_ == other.index_;
  }
  void increment() { ++index_; }
  void decrement() { --index_; }
  void advance(std::ptrdiff_t n) { index_ += n; }
  std::ptrdiff_t distance_to(const OutArcIterator& other) const {
    return static_cast<std::ptrdiff_t>(other.index_ - index_);
  }
  VertexId source_ = -1;
  ArcIndex index_ = 0;
};

// Readable property map: arc -> weight.
class ArcWeightMap {
 public:
  using key_type = Arc;
  using value_type = double;
  using reference = double;
  using category = boost::readable_property_map_tag;
  ArcWeightMap() = default;
  explicit ArcWeightMap(const CommGraph& g) : weights_(g.adjwgt().data()) {}
  friend double get(const ArcWeightMap& m, const Arc& e) {
    return m.weights_[e.index];
  }

 private:
  const double* weights_ = nullptr;
};

struct TraversalCategory : boost::incidence_graph_tag,
                           boost::vertex_list_graph_tag {};

}  // namespace bgl

// Found by argument-dependent lookup from BGL algorithms.
inline std::pair<boost::counting_iterator<VertexId>,
                 boost::counting_iterator<VertexId>>
vertices(const CommGraph& g) {
  return {boost::counting_iterator<VertexId>(0),
          boost::counting_iterator<VertexId>(g.num_vertices())};
}
inline VertexId num_vertices(const CommGraph& g) { return g.num_vertices(); }
inline std::pair<bgl::OutArcIterator, bgl::OutArcIterator> out_edges(
    VertexId v, const CommGraph& g) {
  return {bgl::OutArcIterator(v, g.xadj()[v]),
          bgl::OutArcIterator(v, g.xadj()[v + 1])};
}
inline VertexId out_degree(VertexId v, const CommGraph& g) {
  return g.degree(v);
}
inline VertexId source(const bgl::Arc& e, const CommGraph&) { return e.source; }
inline VertexId target(const bgl::Arc& e, const CommGraph& g) {
  return g.adjncy()[e.index];
}
inline bgl::ArcWeightMap get(boost::edge_weight_t, const CommGraph& g) {
  return bgl::ArcWeightMap(g);
}
inline boost::typed_identity_property_map<VertexId> get(boost::vertex_index_t,
                                                        const CommGraph&) {
  return {};
}

}  // namespace rankmap::graphs

namespace boost {

template <>
struct graph_traits<rankmap::graphs::CommGraph> {
  using vertex_descriptor = rankmap::graphs::VertexId;
  using edge_descriptor = rankmap::graphs::bgl::Arc;
  using directed_category = undirected_tag;
  using edge_parallel_category = disallow_parallel_edge_tag;
  using traversal_category = rankmap::graphs::bgl::TraversalCategory;
  using vertex_iterator = counting_iterator<rankmap::graphs::VertexId>;
  using out_edge_iterator = rankmap::graphs::bgl::OutArcIterator;
  using degree_size_type = rankmap::graphs::VertexId;
  using vertices_size_type = rankmap::graphs::VertexId;
  using edges_size_type = rankmap::graphs::ArcIndex;
  // Not modelled (no EdgeListGraph / AdjacencyGraph / BidirectionalGraph).
  using edge_iterator = void;
  using adjacency_iterator = void;
  using in_edge_iterator = void;
  static vertex_descriptor null_vertex() { return -1; }
};

template <>
struct property_map<rankmap::graphs::CommGraph, edge_weight_t> {
  using type = rankmap::graphs::bgl::ArcWeightMap;
  using const_type = rankmap::graphs::bgl::ArcWeightMap;
};

template <>
struct property_map<rankmap::graphs::CommGraph, vertex_index_t> {
  using type = typed_identity_property_map<rankmap::graphs::VertexId>;
  using const_type = typed_identity_property_map<rankmap::graphs::VertexId>;
};

}  // namespace boost

#endif  // RANKMAP_GRAPHS_BGL_H_
