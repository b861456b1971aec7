#include "core/coarsen/hierarchy.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/coarsen/clustering.h"
#include "graphs/operations.h"

namespace rankmap::core::multilevel {

using graphs::CommGraph;
using graphs::VertexId;

namespace {

double MaxVertexWeight(const CommGraph& g) {
  double w = 0.0;
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    w = std::max(w, g.vertex_weight(v));
  return w;
}

}  // namespace

Hierarchy::Hierarchy(const CommGraph& finest)
    : finest_(&finest), max_weight_{MaxVertexWeight(finest)} {}

void Hierarchy::Push(std::vector<VertexId> up, CommGraph coarser) {
  max_weight_.push_back(MaxVertexWeight(coarser));
  up_.push_back(std::move(up));
  coarse_.push_back(std::move(coarser));
}

Hierarchy BuildHierarchy(const CommGraph& graph,
                         const CoarseningOptions& options,
                         const ProgressPhase& progress) {
  Hierarchy h(graph);
  graphs::GraphContractor contractor;
  const double total = graph.TotalVertexWeight();
  const double n0 = graph.num_vertices();
  const double goal = std::max<double>(1.0, options.stop_at);
  progress.Report(0.0);
  while (h.num_levels() <= options.max_levels) {
    const CommGraph& g = h.graph(h.num_levels() - 1);
    const VertexId n = g.num_vertices();
    if (n <= options.stop_at || n < 2) break;
    ClusteringOptions c;
    // cap_growth times the mean weight, and room for the heaviest vertex to
    // take one more of mean weight (integral weights would stall otherwise).
    const double mean = total / n;
    const double heaviest = h.max_vertex_weight(h.num_levels() - 1);
    c.max_weight =
        std::min(options.max_weight,
                 std::max(options.cap_growth * mean, heaviest + mean));
    c.max_weight = std::max(c.max_weight, heaviest);
    c.rounds = options.rounds;
    c.seed = options.seed * 1000003ull + static_cast<uint64_t>(h.num_levels());
    c.threads = options.threads;
    Clustering clusters = ClusterVertices(g, c);
    if (clusters.num_clusters > options.max_keep * n) break;
    absl::StatusOr<CommGraph> coarse =
        contractor.Contract(g, clusters.cluster, clusters.num_clusters);
    if (!coarse.ok()) break;  // cannot happen: the ids are in range
    h.Push(std::move(clusters.cluster), *std::move(coarse));
    const double left = h.graph(h.num_levels() - 1).num_vertices();
    progress.Report(
        std::clamp((n0 - left) / std::max(1.0, n0 - goal), 0.0, 1.0));
  }
  progress.Report(1.0);
  return h;
}

}  // namespace rankmap::core::multilevel
