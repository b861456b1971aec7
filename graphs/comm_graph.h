// CommGraph: who sends how many bytes to whom, as an immutable symmetric CSR
// graph.
//
// Invariants (checked by the builder, relied upon everywhere else):
//   * vertices are [0, num_vertices()), ids are int32; arc offsets are int64;
//   * symmetric: arc (u, v) with weight w exists iff arc (v, u) with weight w
//   exists;
//     w(u, v) is the total volume exchanged in both directions;
//   * no self loops, no duplicate arcs; each adjacency row is sorted by
//   neighbour id;
//   * weights are finite and >= 0 (zero-weight arcs are kept: they carry
//   structure);
//   * vertex weights are finite and >= 0 (1 each when none were given);
//   * message counts, when known, are one per arc, finite, >= 0 and symmetric
//     like the weights: m(u, v) is the number of messages of both directions.
//     An arc may carry messages and no bytes (zero-byte messages, such as a
//     barrier's, cost latency). Operations that build new graphs (graphs/
//     operations.h) drop them unless they say otherwise.
//
// Usage:
//   CommGraphBuilder b(4);
//   RETURN_IF_ERROR(b.AddEdge(0, 1, 5.0));   // 0 sends 5 bytes to 1
//   RETURN_IF_ERROR(b.AddEdge(1, 0, 3.0));   // and 1 sends 3 back: w(0, 1) = 8
//   ASSIGN_OR_RETURN(CommGraph g, std::move(b).Build());
#ifndef RANKMAP_GRAPHS_COMM_GRAPH_H_
#define RANKMAP_GRAPHS_COMM_GRAPH_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rankmap::graphs {

namespace internal {
struct CsrAccess;  // graphs/csr_access.h: trusted construction for producers
                   // inside graphs/.
}  // namespace internal

using VertexId = int32_t;
using ArcIndex = int64_t;

class CommGraph {
 public:
  CommGraph() : xadj_(1, 0) {}

  VertexId num_vertices() const {
    return static_cast<VertexId>(xadj_.size() - 1);
  }
  // Number of arcs (each undirected edge counts twice).
  ArcIndex num_arcs() const { return xadj_.back(); }
  // Number of undirected edges.
  ArcIndex num_edges() const { return xadj_.back() / 2; }

  // Raw CSR arrays: xadj has n+1 entries; adjncy and adjwgt have num_arcs()
  // entries.
  std::span<const ArcIndex> xadj() const { return xadj_; }
  std::span<const VertexId> adjncy() const { return adjncy_; }
  std::span<const double> adjwgt() const { return adjwgt_; }
  // Empty when the graph has no vertex weights (every vertex weighs 1).
  std::span<const double> vwgt() const { return vwgt_; }
  bool has_vertex_weights() const { return !vwgt_.empty(); }
  // Messages per arc (both directions summed), parallel to adjwgt; empty when
  // the counts are not known.
  std::span<const double> adjmsg() const { return adjmsg_; }
  bool has_messages() const { return !adjmsg_.empty(); }

  VertexId degree(VertexId v) const {
    return static_cast<VertexId>(xadj_[v + 1] - xadj_[v]);
  }
  std::span<const VertexId> neighbors(VertexId v) const {
    return {adjncy_.data() + xadj_[v],
            static_cast<size_t>(xadj_[v + 1] - xadj_[v])};
  }
  std::span<const double> weights(VertexId v) const {
    return {adjwgt_.data() + xadj_[v],
            static_cast<size_t>(xadj_[v + 1] - xadj_[v])};
  }
  double vertex_weight(VertexId v) const {
    return vwgt_.empty() ? 1.0 : vwgt_[v];
  }
  // Messages on v's arcs; requires has_messages().
  std::span<const double> messages(VertexId v) const {
    return {adjmsg_.data() + xadj_[v],
            static_cast<size_t>(xadj_[v + 1] - xadj_[v])};
  }

  // w(u, v), 0 when there is no edge. O(log degree(u)).
  double EdgeWeight(VertexId u, VertexId v) const;

  // Sum of w over undirected edges (accumulated in long double: infinite only
  // when the sum itself exceeds DBL_MAX).
  double TotalVolume() const;
  // Sum of w over the edges of v (likewise).
  double VertexVolume(VertexId v) const;
  double TotalVertexWeight() const;
  // Sum of messages over undirected edges (0 when not known).
  double TotalMessages() const;

  // Builds a graph from CSR arrays that already satisfy every invariant above
  // (for internal producers such as contraction). Checks them in O(n + m log
  // deg) and returns an error naming the first offending vertex. `adjmsg`:
  // empty, or one message count per arc.
  static absl::StatusOr<CommGraph> FromCsr(std::vector<ArcIndex> xadj,
                                           std::vector<VertexId> adjncy,
                                           std::vector<double> adjwgt,
                                           std::vector<double> vwgt = {},
                                           std::vector<double> adjmsg = {});

  // The same graph with message counts replaced by `adjmsg` (one per arc,
  // finite, >= 0, symmetric; empty: none). Errors name the first bad arc.
  // O(m log deg).
  absl::StatusOr<CommGraph> WithMessages(std::vector<double> adjmsg) const;

  friend bool operator==(const CommGraph& a, const CommGraph& b) = default;

 private:
  friend class CommGraphBuilder;
  friend struct internal::CsrAccess;
  std::vector<ArcIndex> xadj_;
  std::vector<VertexId> adjncy_;
  std::vector<double> adjwgt_;
  std::vector<double> vwgt_;
  std::vector<double> adjmsg_;
};

// Collects directed traffic and produces a CommGraph. AddEdge(u, v, w) means "u
// sends w to v"; both directions of a pair are summed, duplicates are merged
// and self loops dropped. AddTraffic(u, v, w, m) adds m messages as well; once
// any call gave messages the graph carries them (0 for pairs given by AddEdge).
// Memory: 16 bytes per call until Build() (24 with messages); Build() needs
// the CSR size on top.
class CommGraphBuilder {
 public:
  explicit CommGraphBuilder(int64_t num_vertices);

  // Errors: vertex id outside [0, n), negative, NaN or infinite weight. Self
  // loops are accepted and ignored (a process talking to itself costs nothing
  // to map).
  absl::Status AddEdge(int64_t u, int64_t v, double w);
  // u sends `messages` messages of `w` bytes in all to v. Errors: AddEdge's,
  // and a negative, NaN or infinite message count.
  absl::Status AddTraffic(int64_t u, int64_t v, double w, double messages);
  // Errors: id out of range, negative/NaN/inf weight.
  absl::Status SetVertexWeight(int64_t v, double w);
  void Reserve(int64_t num_edges) {
    edges_.reserve(static_cast<size_t>(num_edges));
  }

  int64_t num_vertices() const { return n_; }

  // Errors: a vertex count that does not fit int32, or the first error seen by
  // AddEdge.
  absl::StatusOr<CommGraph> Build() &&;

 private:
  struct Edge {
    VertexId u, v;  // u < v
    double w;
  };
  // Build with row entries of type Entry (comm_graph.cc).
  template <typename Entry>
  absl::StatusOr<CommGraph> BuildRows(VertexId n);
  int64_t n_;
  std::vector<Edge> edges_;
  // Parallel to edges_ once a call gave messages (zeros before it).
  std::vector<double> messages_;
  std::vector<double> vwgt_;
};

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_COMM_GRAPH_H_
