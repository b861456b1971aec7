// Congestion: J is a sum, but a real network also slows down on its most
// loaded link. With the link model of the cost report (core/model/mapping.h:
// the link from every tree node to its parent carries the volume of the edges
// with exactly one end below the node), CongestionRefine lowers
//   F = J + weight * (largest volume on a link above an internal node)
// by swaps and moves of processes whose edges cross the most loaded link. The
// links counted are those above internal nodes: a leaf's own link carries its
// processes' volume wherever they sit.
//
//   const double f = CongestionRefine(tree, graph, /*weight=*/10.0, 8, &m);
#ifndef RANKMAP_CORE_REFINE_CONGESTION_H_
#define RANKMAP_CORE_REFINE_CONGESTION_H_

#include <cstdint>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Volume on every node's link to its parent (0 for the root). O(m * depth).
std::vector<double> LinkVolumes(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const Mapping& mapping);

// Improves a valid one-to-one mapping for F (above): for at most rounds * 64
// steps, takes the most loaded link, tries for up to 256 of the processes with
// the most volume across it the swaps and moves onto leaves near their
// neighbours on the other side, and applies the one that lowers F most;
// stops when none does. Returns the decrease of F (>= 0). weight 0 leaves the
// mapping as it is. Deterministic.
double CongestionRefine(const topology::Tree& tree,
                        const graphs::CommGraph& graph, double weight,
                        int32_t rounds, Mapping* mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_CONGESTION_H_
