// Scotch baseline: SCOTCH_graphMap on the Scotch target equivalent to a
// topology::Tree, so the engine can be compared with Scotch side by side on the
// same inputs.
//
// Target: for balanced trees with per-level costs and equal leaf capacities,
// one call on a tleaf architecture (SCOTCH_archTleaf) whose link costs are the
// differences of the Tree's level costs, c_i = cost(depth i-1) - cost(depth i),
// so Scotch's distances equal Tree::Distance; capacity k > 1 adds a bottom
// level of arity k at link cost 0. Other trees (unbalanced, unequal or zero
// capacities, child-pair cost matrices) are mapped top-down: at every internal
// node one SCOTCH_graphMap of its processes onto a weighted complete graph of
// its usable children (SCOTCH_archCmpltw, weights = capacities). Scotch's
// decomposition-defined targets were tried for these and rejected: their domain
// bipartition of a weighted tree graph cuts the cheap links, so clusters were
// split across the expensive ones.
//
// Costs and weights become Scotch integers (SCOTCH_Num is 32-bit): integral
// costs are kept, others scaled to at most 2^16; edge weights keep integers
// when the largest possible communication load (sum of weights times the
// largest distance) fits 2^30, else they are scaled down into that budget
// (every positive weight at least 1).
//
// One-to-one (ScotchMap): strict balance (imbalance 0, like `gmap -b0`), idle
// leaves padded with isolated dummy vertices (leaf capacities above n count as
// n; a padded graph beyond base::MemoryBudget() is refused with
// ResourceExhausted); Scotch may still put two
// processes on one slot, so the result is repaired (each surplus process moves
// to the nearest free slot) and the number of repairs is reported. n-to-1
// (ScotchPartitionMap): Scotch's own balance tolerance, result unrepaired.
// Determinism: every call runs in a Scotch context with the deterministic
// option, a fixed random seed derived from `seed`, and a reset generator, so
// Scotch's threads do not change the result.
//
//   ScotchReport rep;
//   ASSIGN_OR_RETURN(Mapping m, ScotchMap(tree, graph, /*seed=*/1, &rep));
//   // rep.repairs processes were moved off over-full leaves
#ifndef RANKMAP_CORE_BASELINES_SCOTCH_MAP_H_
#define RANKMAP_CORE_BASELINES_SCOTCH_MAP_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

struct ScotchReport {
  bool tleaf_target =
      false;            // false: mapped top-down over complete-graph targets
  int64_t repairs = 0;  // processes moved off over-full leaves (one-to-one)
};

// One-to-one mapping with strict balance. Requires n <= total capacity (Map
// checks; debug builds assert); the result passes ValidateMapping. Errors: more
// arcs than SCOTCH_Num holds, level costs that grow towards the leaves, any
// Scotch failure (with the call that failed).
absl::StatusOr<Mapping> ScotchMap(const topology::Tree& tree,
                                  const graphs::CommGraph& graph, uint64_t seed,
                                  ScotchReport* report = nullptr);

// n-to-1 mapping with Scotch's balance tolerance `imbalance` (e.g. 0.03 for
// `gmap -b0.03`); vertex weights are honoured. The result maps every vertex to
// a usable leaf but is not repaired: check it with ValidatePartitionMapping.
// Errors as ScotchMap (minus the process count).
absl::StatusOr<Mapping> ScotchPartitionMap(const topology::Tree& tree,
                                           const graphs::CommGraph& graph,
                                           double imbalance, uint64_t seed,
                                           ScotchReport* report = nullptr);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_BASELINES_SCOTCH_MAP_H_
