// The engine's one door to METIS: a subgraph in METIS's form, the attempt
// policy (how many cuts and which methods a split gets), and the call itself.
//
//   MetisGraph g = ToMetisGraph(subgraph, /*vertex_weights=*/false);
//   const MetisAttempts a = SplitAttempts(/*n_to_1=*/false, /*at_root=*/true,
//                                         g.num_vertices(), n, k, effort);
//   std::vector<int32_t> part;
//   RETURN_IF_ERROR(MetisPartition(g, sizes, 1.001, MetisMethod::kRecursive,
//                                  a.ncuts, seed, &part));
//
// Determinism: each call runs on one thread with the seed it is given (METIS
// reseeds libc's rand() per call). Two calls may run at once only when
// MetisRunsInParallel() (core/split/metis_rand.h): otherwise rand()'s state is
// process-wide and their draws would interleave.
#ifndef RANKMAP_CORE_SPLIT_METIS_SPLIT_H_
#define RANKMAP_CORE_SPLIT_METIS_SPLIT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "graphs/comm_graph.h"

namespace rankmap::core {

// A graph as METIS takes it: 32-bit CSR of the arcs with positive weight (in
// the CommGraph's order), their weights as given and as METIS integers
// (ScaleToMetisWeights), and vertex weights.
struct MetisGraph {
  std::vector<int32_t> xadj{0};
  std::vector<int32_t> adjncy;
  std::vector<double> arc_weight;
  std::vector<int32_t> metis_arc_weight;
  std::vector<double> vertex_weight;         // one per vertex
  std::vector<int32_t> metis_vertex_weight;  // empty: unit weights

  int32_t num_vertices() const { return static_cast<int32_t>(xadj.size()) - 1; }
  // Weight of the arcs between different parts (each edge counted twice).
  double Cut(std::span<const int32_t> part) const;
};

// g in METIS's form. With vertex_weights, g's vertex weights are used (and
// passed to METIS when g has any); otherwise every vertex weighs 1. O(n + m).
MetisGraph ToMetisGraph(const graphs::CommGraph& g, bool vertex_weights);

enum class MetisMethod { kRecursive, kKway };

// What one split gets: ncuts attempts per METIS call, the methods
// [first, last) in the order kRecursive, kKway.
struct MetisAttempts {
  int32_t ncuts = 1;
  int32_t first_method = 0;
  int32_t last_method = 1;
};

// The attempt policy. More attempts where cuts cost most: the root's cut
// dominates J (8 attempts; one-to-one above 2048 processes 4: measured on the
// bench, 4 instead of 8 costs 0.5% of J in the geometric mean and halves the
// time; on the n-to-1 meshes it cost 0.6%); one-to-one below the root one
// attempt (same J on the bench families, up to 1.4x faster), n-to-1 two.
// metis_effort multiplies the attempts; 0 asks for the least: one recursive
// bisection per split, two at the root. One-to-one runs recursive bisection
// only (k-way was within 1% at twice the time); n-to-1 and metis_effort >= 2
// run both. Subgraphs above 200,000 vertices, and every split of a graph above
// 500,000, get one attempt and one method (k-way above 8 parts) so the
// million-process case stays within its time budget.
MetisAttempts SplitAttempts(bool n_to_1, bool at_root, int32_t subgraph_size,
                            int32_t graph_size, int32_t parts,
                            int32_t metis_effort);

// Partitions g into targets.size() parts whose weights are in proportion to
// targets (any positive scale), within tolerance ub (1.001: as tight as METIS
// goes). part receives a part in [0, parts) per vertex. g must have at least
// one arc. Errors: METIS's return code, with the sizes.
absl::Status MetisPartition(const MetisGraph& g,
                            std::span<const double> targets, double ub,
                            MetisMethod method, int32_t ncuts, uint64_t seed,
                            std::vector<int32_t>* part);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_SPLIT_METIS_SPLIT_H_
