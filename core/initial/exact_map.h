// Exact one-to-one mapping of tiny inputs by branch and bound: processes are
// placed one at a time (heaviest first) on leaves with a free slot, a branch
// is cut as soon as its partial J reaches the best known, and empty sibling
// leaves under a node without a pair-cost matrix are interchangeable (only the
// first is tried). Started from a known mapping, it never returns a worse one.
//
//   Mapping m = ...;  double j = ComputeJ(tree, graph, m);
//   ExactMap(tree, graph, /*node_budget=*/1 << 21, &m, &j);  // j can only drop
#ifndef RANKMAP_CORE_INITIAL_EXACT_MAP_H_
#define RANKMAP_CORE_INITIAL_EXACT_MAP_H_

#include <cstdint>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Processes up to which the portfolio runs ExactMap (9! = 362,880 complete
// placements at most before pruning and symmetry).
inline constexpr int32_t kExactMapLimit = 9;

// Replaces *best (a valid mapping of J *best_j) by an optimal one when the
// search finishes within node_budget search nodes (and 64 x node_budget leaf
// examinations, which only trees of more than 64 leaves reach), else by the
// best found.
// Returns true when the result is proven optimal. Deterministic. Requires n <=
// the tree's capacity.
bool ExactMap(const topology::Tree& tree, const graphs::CommGraph& graph,
              int64_t node_budget, Mapping* best, double* best_j);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_INITIAL_EXACT_MAP_H_
