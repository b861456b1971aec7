// Size-constrained label propagation: the clustering step of the multilevel
// engine's coarsening (KaMinPar's approach). Every vertex starts alone; in
// rounds, each vertex joins the neighbouring cluster it is most heavily
// connected to, as long as that cluster stays within max_weight. Vertices left
// alone afterwards are paired with other lone vertices that prefer the same
// cluster (two-hop), and isolated vertices are grouped together, so that
// graphs label propagation cannot shrink (stars, sparse random graphs) still
// coarsen.
//
// Determinism: a round visits the vertices in a seeded order, in sub-rounds of
// fixed size; within a sub-round every vertex chooses against the state at
// the sub-round's start (so the choices may be computed on several threads)
// and the moves are then applied one by one in visiting order, each checked
// against the weights as they are. The result depends on the graph, the
// options and the seed only, not on the thread count.
//
// Invariants of the result: cluster ids are [0, num_clusters), numbered in the
// order of their lowest vertex; every cluster is non-empty; a cluster's weight
// exceeds max_weight only when it is a single vertex heavier than that.
//
//   ClusteringOptions o;
//   o.max_weight = 4.0;
//   Clustering c = ClusterVertices(graph, o);
//   // c.cluster[v] in [0, c.num_clusters)
#ifndef RANKMAP_CORE_COARSEN_CLUSTERING_H_
#define RANKMAP_CORE_COARSEN_CLUSTERING_H_

#include <cstdint>
#include <vector>

#include "graphs/comm_graph.h"

namespace rankmap::core::multilevel {

struct ClusteringOptions {
  // No cluster of two or more vertices weighs more than this.
  double max_weight = 2.0;
  // Label propagation rounds (a round visits every vertex once); stops early
  // when a round moves under 1% of the vertices.
  int32_t rounds = 5;
  uint64_t seed = 1;
  // Threads choosing moves at once (the result does not depend on it).
  int32_t threads = 1;
};

struct Clustering {
  std::vector<graphs::VertexId> cluster;  // one per vertex
  graphs::VertexId num_clusters = 0;
};

// O(rounds * (n + m)) time, O(n) memory per thread.
Clustering ClusterVertices(const graphs::CommGraph& graph,
                           const ClusteringOptions& options);

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_COARSEN_CLUSTERING_H_
