// TreeMatch: bottom-up grouping of processes by communication affinity, level
// by level of a topology tree (Jeannot & Mercier, "Near-optimal placement of
// MPI processes on hierarchical NUMA architectures", seed 002), with the
// extensions switched by TreeMatchOptions (core/model/options.h).
//
// Algorithm, for a balanced tree with per-depth arities a_0..a_{L-1} (top-down)
// and the same capacity c on every leaf:
//   units = processes; for each level from the leaves up (a capacity level of
//   arity c first when c > 1, then a_{L-1}, ..., a_0):
//     when all units fit in one group of k, they form it as they are (no
//     padding: O(units), whatever the arity or capacity);
//     else pad units with zero-traffic virtual units to a multiple of the
//     arity k;
//     group the units into groups of k (below), each group becoming a unit of
//     the next level; aggregate: contract the CSR graph by the grouping (O(m),
//     one reused scratch array).
//   The group hierarchy is then walked top-down: the position of a unit inside
//   its group is the child rank it gets, so a process's slot is the mixed-radix
//   number of its positions.
// Grouping of p units into groups of k (value of a group = traffic leaving it):
//   * paper (always available): candidate groups and the minimum-weight
//     maximal independent set of their incompatibility graph, built by the
//     paper's three greedy orders (smallest value first; largest value last,
//     i.e. the shortest prefix of the value order that still holds a full
//     grouping; largest weighted degree first), the best kept. Levels of at
//     most 256 units with C(p, k) <= 20,000 enumerate every k-subset; larger
//     levels take sparse candidates (every edge for arity 2, one group grown
//     from each unit above) and complete what they cannot cover by greedy
//     growth (core/initial/grouping.h); levels too wide for sparse candidates
//     (p x k beyond 2^24 entries or p x k^2 beyond 2^31 steps) are grouped by
//     greedy growth alone.
//   * extensions (any of the switches below on): greedy growth of whole
//     groups is also tried at every level and the grouping that leaves less
//     traffic kept.
//   * exact_pairing (k = 2): heavy-edge matching followed by 2-opt re-pairing
//     passes (a, b)(c, d) -> (a, c)(b, d); for p <= kExactPairLimit also a
//     branch-and-bound perfect matching seeded with that result (optimal
//     unless its 200,000-node budget runs out, never worse).
//   * exhaustive_limit >= k: branch-and-bound over all groupings for p <=
//     kExhaustiveUnits, seeded with the heuristic result, so it is never
//     worse.
//   * split_arities: a composite arity k is also tried as consecutive virtual
//     levels of its prime factors (12 -> 2, 2, 3 bottom-up; children of one
//     node are equidistant, so this costs nothing); the variant that leaves
//     less traffic for the upper levels is kept.
// Other trees (unbalanced, leaves with different capacities, restricted
// leaves, child-pair cost matrices) use the greedy top-down split of
// core/initial/greedy_split.h. The grouping methods themselves are in
// core/initial/grouping.h.
//
// Memory is O(n + m) (never an n x n array; the paper's candidate list is used
// only on levels small enough to enumerate). Deterministic and
// single-threaded (the portfolio may run it beside the multisection).
//
//   Mapping m = TreeMatchMap(tree, graph, TreeMatchOptions{});
#ifndef RANKMAP_CORE_INITIAL_TREEMATCH_H_
#define RANKMAP_CORE_INITIAL_TREEMATCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// One bottom-up grouping step, for inspection and tests.
struct GroupingStep {
  int32_t arity = 0;
  // Units at this step, including zero-traffic padding units (numbered last).
  int32_t num_units = 0;
  // members[g * arity + i] is the unit at position i of group g.
  std::vector<int32_t> members;
  // The graph between the groups (units of the next step).
  graphs::CommGraph aggregated;
};

// Maps the processes of graph onto tree as described above (unrefined: Map
// refines). Requires n <= tree.Capacity(root) (Map checks; debug builds
// assert). When trace is not null and the tree is balanced with uniform
// capacity, it receives the grouping steps (a level whose units all fit in
// one group records them unpadded: members.size() < arity). Time: paper
// grouping O(C(p,k) log) on small levels, sparse candidates O(p k^2 log) on
// larger ones, greedy O(p + m log m) on wide ones; aggregation O(m) per level.
// Memory O(n + m), whatever the arities.
Mapping TreeMatchMap(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const TreeMatchOptions& options,
                     std::vector<GroupingStep>* trace = nullptr);

// Groups the vertices of g (num_vertices a multiple of arity, padding included
// by the caller) into groups of `arity` with the method options select (see
// above, without split_arities). Returns members as in GroupingStep. Errors:
// arity < 1 or not dividing num_vertices.
absl::StatusOr<std::vector<int32_t>> GroupUnits(
    const graphs::CommGraph& g, int32_t arity, const TreeMatchOptions& options);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_INITIAL_TREEMATCH_H_
