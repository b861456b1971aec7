// Seeded heterogeneous-cluster instances, the seeds' own platform (Malik's
// interconnected Grid'5000 clusters): clusters with different node counts and
// core counts, a bandwidth per cluster pair, and communication graphs of as
// many processes as cores, shuffled the way a launcher that knows nothing of
// the application numbers ranks. For the engine's tests and bench/engine_bench.
//
//   HeteroInstance in = MakeHeteroInstance(/*seed=*/3,
//   HeteroGraph::kStencil2D);
//   // in.tree: network -> clusters -> nodes -> cores; in.graph: shuffled;
//   // in.unshuffled: grid cells in order, packed onto the clusters in order.
#ifndef RANKMAP_TESTS_HETERO_CLUSTERS_H_
#define RANKMAP_TESTS_HETERO_CLUSTERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::testing {

// The platform: 3 to 6 clusters; each has 2 to 5 nodes of 4, 8, 12, 16 or 24
// cores (one core count per cluster). Bandwidths in MB/s: inside a cluster 4000
// to 10000, between clusters 300 to 1500. Costs as a network spec's
// `bandwidths 100000` gives them: 100000 / b (12.5 to 25 inside a cluster, 67
// to 333 between clusters); 1 between the cores of a node.
struct HeteroPlatform {
  topology::Tree tree;
  std::vector<int32_t> nodes;     // per cluster
  std::vector<int32_t> cores;     // per node of each cluster
  std::vector<double> bandwidth;  // K x K, row-major
  std::string spec;               // the same platform as a network spec
};
HeteroPlatform MakeHeteroPlatform(uint64_t seed);

enum class HeteroGraph {
  kStencil2D,  // 5-point grid, r x c with c the largest divisor of n <= sqrt(n)
  kRandom,     // 4 random partners per process
  kClustered,  // heavy inside hidden groups of 8, medium inside 32, light noise
};

struct HeteroInstance {
  std::string name;
  HeteroPlatform platform;
  graphs::CommGraph graph;  // shuffled
  // The placement a user gets by numbering processes in the application's
  // natural order and packing them onto the clusters in file order (process
  // perm[u] on slot u).
  std::vector<int32_t> unshuffled;
};
// Weights are bytes: 32 KiB per stencil edge; 1..100 KiB random; 64 KiB, 4 KiB
// and 256 bytes for the clustered levels.
HeteroInstance MakeHeteroInstance(uint64_t seed, HeteroGraph kind);

}  // namespace rankmap::testing

#endif  // RANKMAP_TESTS_HETERO_CLUSTERS_H_
