// A split of a set of processes (a MetisGraph) into parts of fixed sizes
// (one-to-one) or of weights within bounds (n-to-1): METIS proposes, a repair
// makes every part fit. The multisection splits each tree node's processes
// over its children this way.
//
//   PartTargets t;
//   t.size = {12, 20};                 // exactly 12 and 20 processes
//   RETURN_IF_ERROR(SplitParts(g, t, attempts, seed, &part));
#ifndef RANKMAP_CORE_SPLIT_PART_SPLIT_H_
#define RANKMAP_CORE_SPLIT_PART_SPLIT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "core/split/metis_split.h"

namespace rankmap::core {

// What each part receives. One-to-one (exact): `size` holds the exact number
// of processes per part. n-to-1: `weight` the target vertex weight per part
// and `bound` the most it may carry; `ub` is METIS's tolerance (one for all
// parts: the tightest bound / weight ratio).
struct PartTargets {
  std::vector<int64_t> size;
  std::vector<double> weight;
  std::vector<double> bound;
  double ub = 1.5;

  bool exact() const { return !size.empty(); }
  int32_t num_parts() const {
    return static_cast<int32_t>(exact() ? size.size() : weight.size());
  }
  // What part p may carry: its size or its bound.
  double Capacity(int32_t p) const {
    return exact() ? static_cast<double>(size[p]) : bound[p];
  }
  // What part p aims at: its size or its share of the weight.
  double Aim(int32_t p) const {
    return exact() ? static_cast<double>(size[p]) : weight[p];
  }
  // A vertex's load: 1 when sizes count processes, else its weight.
  double Load(const MetisGraph& g, int32_t i) const {
    return exact() ? 1.0 : g.vertex_weight[i];
  }
};

// Splits g into t.num_parts() parts: METIS with the attempts and methods of
// `attempts` (the smallest cut after repair kept; ties: recursive bisection),
// each result repaired (RepairParts). Without arcs any split is as good:
// parts are filled in vertex order. part receives a part per vertex. Errors:
// METIS's.
absl::Status SplitParts(const MetisGraph& g, const PartTargets& t,
                        const MetisAttempts& attempts, uint64_t seed,
                        std::vector<int32_t>* part);

// Moves vertices out of parts above their capacity into parts with room,
// always taking the move that loses the least cut weight first (to the
// emptiest part when no neighbouring part has room). Stops when every part
// fits or no vertex fits anywhere (a vertex heavier than every free room).
// Subgraphs of more than 200,000 vertices are repaired lazily (below).
void RepairParts(const MetisGraph& g, const PartTargets& t,
                 std::vector<int32_t>* part);

namespace internal {

// In passes: every pass collects the best move of each vertex of an over part
// (its best neighbouring part with room, else the part of most room), sorts
// them by gain and applies those still valid. O(passes * (arcs + moves log
// moves)).
void RepairPartsInPasses(const MetisGraph& g, const PartTargets& t,
                         std::vector<int32_t>* part);

// With one priority queue: the same first moves, taken best gain first (lower
// vertex on ties) and re-examined when taken: dropped when their part is no
// longer over, recomputed with the current loads when their target has
// filled. Each pass above fills about one part with room: at the root of an
// 8M-process tree with 512 children that was 60 passes of a million moves.
void RepairPartsLazily(const MetisGraph& g, const PartTargets& t,
                       std::vector<int32_t>* part);

}  // namespace internal

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_SPLIT_PART_SPLIT_H_
