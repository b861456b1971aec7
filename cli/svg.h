// Pictures of a mapping, written as standalone SVG (no browser or library
// needed).
//
//   std::string svg = MatrixHeatmapSvg(graph, mapping, tree);   // before |
//   after, side by side std::string svg = TreeSvg(tree, mapping,
//   /*group_depth=*/1);
//
// Heatmaps draw the communication matrix twice: in process order, and with
// processes sorted by the leaf they were mapped to, so clustering the mapping
// found shows as blocks on the diagonal. Matrices larger than `max_cells` per
// side are binned (each cell sums a block of the matrix). Colour is the
// log-scaled volume. Every cell with non-zero volume is one <rect
// class="cell">.
#ifndef RANKMAP_CLI_SVG_H_
#define RANKMAP_CLI_SVG_H_

#include <string>

#include "core/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli {

std::string MatrixHeatmapSvg(const graphs::CommGraph& graph,
                             const core::Mapping& mapping,
                             int32_t max_cells = 128);

// Tree with its leaves at the bottom and the processes placed on them;
// processes are coloured by their ancestor at `group_depth` (0 = one colour).
// Trees with more than `max_leaves` leaves are drawn down to the deepest level
// that has at most that many nodes, with process counts.
std::string TreeSvg(const topology::Tree& tree, const core::Mapping& mapping,
                    int32_t group_depth = 1, int32_t max_leaves = 256);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_SVG_H_
