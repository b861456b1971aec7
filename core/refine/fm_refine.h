// Multilevel Fiduccia-Mattheyses refinement of n-to-1 mappings, with the tree
// distances as the objective.
//
// The graph is coarsened by pairing vertices that share a leaf (so the mapping
// projects exactly); on each level, coarsest first, passes repeatedly move the
// unlocked vertex with the best gain (possibly negative) to a leaf holding one
// of its neighbours and with room under its bound, lock it, and roll back to
// the best prefix, which climbs out of the local minima that greedy moves
// (core/refine/partition_refine.h) stop in.
//
//   const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.03);
//   FmRefinePartition(tree, g, bound, /*passes=*/8, &m);
#ifndef RANKMAP_CORE_REFINE_FM_REFINE_H_
#define RANKMAP_CORE_REFINE_FM_REFINE_H_

#include <cstdint>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// At most `passes` passes per level; a level stops after a pass without gain.
// Returns the J decrease (>= 0); loads stay within bound. Deterministic (ties:
// lower vertex, lower leaf). A mapping or bound vector of the wrong size, or a
// leaf id out of range, leaves the mapping as it is (returns 0).
double FmRefinePartition(const topology::Tree& tree,
                         const graphs::CommGraph& graph,
                         const std::vector<double>& bound, int32_t passes,
                         Mapping* mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_FM_REFINE_H_
