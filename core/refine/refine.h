// Refinement of one-to-one mappings: gain-driven local search accepting only
// moves that strictly lower J = sum over edges of w(u, v) * Distance(leaf(u),
// leaf(v)).
//
// Coarse to fine: on trees whose leaves have equal capacity, the contents of
// whole subtrees are swapped first (processes contracted to their ancestor at
// each depth, the quotient refined on the cut tree); then single processes.
// Moves: swap the leaves of two processes, or move a process to a leaf with
// free capacity. Candidate leaves for a process u are the leaves near its
// heaviest neighbours (the neighbour's leaf and its siblings under the same
// parent), so a round costs O(sum over u of candidates(u) * degree * depth).
// Gains are evaluated exactly in O((deg u + deg v) * depth). Visiting order
// and tie breaks are fixed, so results depend only on the inputs (no clock, no
// threads).
//
//   Mapping m = ...;                       // any valid mapping
//   RefineMapping(tree, graph, options.refine.swap_rounds, &m);
//   // ComputeJ(tree, graph, m) <= the J before; ValidateMapping still OK.
#ifndef RANKMAP_CORE_REFINE_REFINE_H_
#define RANKMAP_CORE_REFINE_REFINE_H_

#include <cstdint>

#include "core/model/mapping.h"
#include "core/model/progress.h"
#include "core/model/slot_classes.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Improves *mapping in place with at most swap_rounds rounds of swaps/moves on
// each level (at most 2 above 2^18 processes; above 2^22, swap_rounds / 16
// rounds of single-process swaps); a level stops early when a round finds no
// improving move. Never raises J. Requires a valid mapping for
// (tree, graph). Time O(rounds * n * candidates * degree * depth); memory O(n +
// leaves).
// With classes (core/model/slot_classes.h), only swaps and moves that keep
// every process on a leaf of its class are made, and subtree swaps are skipped.
// Each level done is reported to `progress` as "refinement".
// With a message_tree (the time objective, core/objective/time_objective.h:
// `tree` is then the inverse-bandwidth tree and message_tree the latency tree,
// and the graph carries message counts), every gain is a gain in T instead of
// J.
void RefineMapping(const topology::Tree& tree, const graphs::CommGraph& graph,
                   int32_t swap_rounds, Mapping* mapping,
                   const SlotClasses* classes = nullptr,
                   ProgressSink* progress = nullptr,
                   const topology::Tree* message_tree = nullptr);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_REFINE_H_
