// The multilevel hierarchy of a communication graph, built once per map call
// and shared by every attempt and every level of the tree: level 0 is the
// graph itself, level l + 1 the contraction of level l by a size-constrained
// label propagation clustering (core/coarsen/clustering.h), contracted
// with graphs::GraphContractor (vertex weights are summed process weights,
// arcs between clusters summed, arcs inside a cluster dropped).
//
// Invariants: every level has the same total vertex weight, and the same total
// arc weight minus what the clusters below it hide; up(l)[v] is the vertex of
// level l + 1 that vertex v of level l belongs to; levels shrink (each keeps at
// most CoarseningOptions::max_keep of the vertices of the one below, so all
// coarse levels together hold at most max_keep / (1 - max_keep) times the
// graph's vertices: 4 times with the default).
// Deterministic for a seed, whatever the thread count.
//
//   CoarseningOptions o;
//   o.stop_at = 256;                        // coarsest level: <= 256 vertices
//   o.max_weight = 64;                      // no coarse vertex above 64
//   Hierarchy h = BuildHierarchy(graph, o);
//   const CommGraph& coarsest = h.graph(h.num_levels() - 1);
#ifndef RANKMAP_CORE_COARSEN_HIERARCHY_H_
#define RANKMAP_CORE_COARSEN_HIERARCHY_H_

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/model/progress.h"
#include "graphs/comm_graph.h"

namespace rankmap::core::multilevel {

struct CoarseningOptions {
  // Coarsening stops at the first level with at most this many vertices.
  int64_t stop_at = 0;
  // A cluster may weigh up to cap_growth times the mean vertex weight of the
  // level it is formed on...
  double cap_growth = 2.5;
  // ... and never more than this.
  double max_weight = std::numeric_limits<double>::infinity();
  // A level that keeps more than this share of the vertices below it is not
  // worth its refinement: coarsening stops without it.
  double max_keep = 0.8;
  int32_t max_levels = 40;
  int32_t rounds = 5;  // label propagation rounds per level
  uint64_t seed = 1;
  int32_t threads = 1;
};

class Hierarchy {
 public:
  // Level 0 is `finest`, which must outlive the hierarchy.
  explicit Hierarchy(const graphs::CommGraph& finest);

  int32_t num_levels() const {
    return 1 + static_cast<int32_t>(coarse_.size());
  }
  const graphs::CommGraph& graph(int32_t level) const {
    return level == 0 ? *finest_ : coarse_[level - 1];
  }
  // For level < num_levels() - 1: vertex v of `level` belongs to vertex
  // up(level)[v] of level + 1.
  std::span<const graphs::VertexId> up(int32_t level) const {
    return up_[level];
  }
  // The heaviest vertex of a level.
  double max_vertex_weight(int32_t level) const { return max_weight_[level]; }

  // Appends a level: `up` maps the current coarsest level's vertices onto
  // `coarser`'s.
  void Push(std::vector<graphs::VertexId> up, graphs::CommGraph coarser);

 private:
  const graphs::CommGraph* finest_;
  std::vector<graphs::CommGraph> coarse_;
  std::vector<std::vector<graphs::VertexId>> up_;
  std::vector<double> max_weight_;
};

// Coarsens until a level has at most options.stop_at vertices, a level would
// keep more than max_keep of the vertices, or max_levels levels exist.
// Progress: the share of the vertices removed on the way to stop_at. O((n + m)
// * rounds) per level; levels shrink geometrically.
Hierarchy BuildHierarchy(const graphs::CommGraph& graph,
                         const CoarseningOptions& options,
                         const ProgressPhase& progress = {});

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_COARSEN_HIERARCHY_H_
