// Operations on communication graphs: renumbering, induced subgraphs,
// contraction by a grouping (the engine's aggregation step) and summary
// statistics.
//
// Every function returns a new CommGraph satisfying all invariants of
// comm_graph.h; rows of the results come out sorted by construction (a
// counting-sort transposition), so each operation runs in O(n + m) without any
// comparison sort or hash map.
//
// Usage:
//   // Merge vertices {0,1} and {2,3}: the aggregated matrix of TreeMatch's
//   Fig. 2(a). std::vector<VertexId> group = {0, 0, 1, 1};
//   ASSIGN_OR_RETURN(CommGraph coarse, ContractGraph(g, group, 2));
//
//   GraphContractor contractor;                // reuse scratch across levels
//   for (...) ASSIGN_OR_RETURN(g, contractor.Contract(g, group, k));
#ifndef RANKMAP_GRAPHS_OPERATIONS_H_
#define RANKMAP_GRAPHS_OPERATIONS_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::graphs {

// Relabels vertices: vertex v of `graph` becomes perm[v] (so rank renumbering
// applies a mapping old -> new). Vertex weights and message counts move with
// their vertex and edge (so do they in InducedSubgraph and the extractor;
// contraction drops message counts).
// perm.size() == n. Errors: wrong length, an id outside [0, n) or repeated. O(n
// + m).
absl::StatusOr<CommGraph> PermuteVertices(const CommGraph& graph,
                                          std::span<const VertexId> perm);

// The subgraph induced by `vertices` (distinct ids, any order): vertices[i]
// becomes vertex i; edges with both ends kept keep their weight. Errors: an id
// out of range or repeated. O(n + m) (an n-sized scratch map).
absl::StatusOr<CommGraph> InducedSubgraph(const CommGraph& graph,
                                          std::span<const VertexId> vertices);

// InducedSubgraph for many subsets of one graph (a top-down split extracts one
// per tree node): the n-sized id map lives in the extractor and only the
// entries of `vertices` are touched per call, so a call costs O(|vertices| +
// their degrees), not O(n). Same result and errors as InducedSubgraph.
class SubgraphExtractor {
 public:
  absl::StatusOr<CommGraph> Extract(const CommGraph& graph,
                                    std::span<const VertexId> vertices);

 private:
  std::vector<VertexId> new_id_;  // -1 outside a call
};

// Contraction by a grouping. group[v] in [0, num_groups) names v's group; the
// result has num_groups vertices, w(g, h) = sum of w(u, v) over u in g, v in h
// (g != h; traffic inside a group disappears), and vertex weight of g = sum of
// its members' vertex weights (0 for an empty group: TreeMatch's zero-traffic
// virtual processes). The result always carries vertex weights. Weights are
// summed in double, in a fixed order, and each edge's sum is computed once and
// mirrored, so the result is exactly symmetric. Scratch arrays live in the
// contractor and are reused by later calls.
class GraphContractor {
 public:
  // Errors: group.size() != n, num_groups < 0, a group id outside [0,
  // num_groups). O(n + m + num_groups).
  absl::StatusOr<CommGraph> Contract(const CommGraph& graph,
                                     std::span<const VertexId> group,
                                     VertexId num_groups);

 private:
  std::vector<ArcIndex> member_start_;
  std::vector<VertexId> members_;
  std::vector<ArcIndex> slot_;
  std::vector<ArcIndex> upper_start_;
  std::vector<VertexId> upper_adj_;
  std::vector<double> upper_wgt_;
  std::vector<ArcIndex> fill_;
};

// One-shot GraphContractor().Contract(...).
absl::StatusOr<CommGraph> ContractGraph(const CommGraph& graph,
                                        std::span<const VertexId> group,
                                        VertexId num_groups);

// Summary statistics. Degree and weight fields are 0 for graphs without
// vertices / edges.
struct GraphStats {
  int64_t num_vertices = 0;
  int64_t num_edges = 0;
  int64_t min_degree = 0;
  int64_t max_degree = 0;
  double mean_degree = 0.0;
  int64_t isolated_vertices = 0;
  double min_edge_weight = 0.0;
  double max_edge_weight = 0.0;
  double total_volume = 0.0;         // sum of w over edges
  double total_vertex_weight = 0.0;  // n when the graph has no vertex weights
};

// O(n + m).
GraphStats ComputeStats(const CommGraph& graph);
// One line, e.g. "n=8 m=28 degree=7..7 (mean 7) isolated=0 weight=2..2000
// volume=12872".
std::string FormatStats(const GraphStats& stats);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_OPERATIONS_H_
