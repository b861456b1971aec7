// Local steps on n-to-1 mappings (more processes than slots, vertex weights,
// a load bound per leaf): repair of over-full leaves and greedy gain-driven
// vertex moves. The multilevel FM refinement is in core/refine/fm_refine.h.
//
//   const std::vector<double> bound = PartitionLoadBounds(tree, g, 0.03);
//   RepairLeafLoads(tree, g, bound, &m);            // every leaf within bound
//   RefinePartition(tree, g, bound, /*sweeps=*/8, &m);
#ifndef RANKMAP_CORE_REFINE_PARTITION_REFINE_H_
#define RANKMAP_CORE_REFINE_PARTITION_REFINE_H_

#include <cstdint>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Moves vertices off leaves above their bound, each time the vertex whose move
// to a leaf with room loses least (neighbours' leaves first, else the nearest
// leaf with room in the tree). Stops when no leaf is over its bound, or when a
// vertex fits nowhere (infeasible: ValidatePartitionMapping reports it).
// Malformed input (as for RefinePartition) leaves the mapping as it is.
void RepairLeafLoads(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const std::vector<double>& bound, Mapping* mapping);

// Gain-driven vertex moves: moves a vertex to a neighbour's leaf when that
// lowers J strictly and keeps the target leaf's load within bound[leaf]. At
// most `sweeps` sweeps in vertex order (deterministic). Returns the J decrease.
// O(sweeps * sum deg^2 * height). A mapping or bound vector of the wrong size,
// or a leaf id out of range, leaves the mapping as it is (returns 0).
double RefinePartition(const topology::Tree& tree,
                       const graphs::CommGraph& graph,
                       const std::vector<double>& bound, int32_t sweeps,
                       Mapping* mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_PARTITION_REFINE_H_
