// The refinement of n-to-1 mappings (more processes than slots, vertex
// weights, a load bound per leaf), a use of the refinement kernel
// (core/refine/refiner.h) with the leaves of the tree as blocks:
//
//   * RepairLeafLoads: the kernel's Rebalance (vertices leave leaves above
//     their bound, least loss first);
//   * RefinePartition: label propagation sweeps, then FM, global searches
//     with moves into room, on a hierarchy of the mapping's own pairs: a
//     level pairs each vertex with its heaviest unpaired neighbour on the
//     same leaf (so the mapping projects exactly), coarsest level first, so
//     that FM moves pairs, pairs of pairs, ... between leaves before single
//     vertices; this climbs out of the local minima that single moves stop
//     in.
//
//   const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.03);
//   RepairLeafLoads(tree, g, bound, &m);            // every leaf within bound
//   RefinePartition(tree, g, bound, /*sweeps=*/8, /*passes=*/8, &m);
#ifndef RANKMAP_CORE_REFINE_PARTITION_REFINE_H_
#define RANKMAP_CORE_REFINE_PARTITION_REFINE_H_

#include <cstdint>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Moves vertices off leaves above their bound. Stops when no leaf is over its
// bound, or when a vertex fits nowhere (infeasible: ValidatePartitionMapping
// reports it). Malformed input (as for RefinePartition) leaves the mapping as
// it is.
void RepairLeafLoads(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const std::vector<double>& bound, Mapping* mapping);

// At most `sweeps` label propagation sweeps, then at most `passes` FM rounds
// per level of the pair hierarchy (a level stops after a round without gain).
// Returns the J decrease (>= 0); loads within their bound stay so, and no
// leaf goes over its bound. Deterministic. A mapping or bound vector of the
// wrong size, or a leaf id out of range, leaves the mapping as it is
// (returns 0).
double RefinePartition(const topology::Tree& tree,
                       const graphs::CommGraph& graph,
                       const std::vector<double>& bound, int32_t sweeps,
                       int32_t passes, Mapping* mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_PARTITION_REFINE_H_
