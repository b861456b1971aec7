// The communication matrix of a mapping as an SVG heatmap: processes on both
// axes in the order of the leaf they are mapped to (ties by process id), so
// that traffic kept inside a node or socket shows as blocks on the diagonal.
//
// Matrices larger than `max_cells` per side are binned (a cell sums a block
// of processes). Colour is the volume on a log scale with a legend (bytes per
// cell, ticks at powers of ten); empty cells stay white. Lines mark where the
// tree splits the processes into the nodes of each level: a boundary between
// positions k - 1 and k at depth d of the lowest common ancestor of their two
// leaves (none between two leaves of one parent), drawn for every level whose
// lines, with those above, are at least 4 px apart on average (thicker
// nearer the root); the legend names the nodes each level separates and how
// many blocks there are. Axes are titled and ticked.
//
// Structure for tests and tools: the root <svg> carries data-processes and
// data-cells; every non-empty cell is <rect class="cell" data-volume="v">;
// each boundary is two <line class="boundary" data-depth="d"
// data-pos="k"> (vertical and horizontal); the legend is <g class="legend">.
//
//   std::string svg = MatrixSvg(tree, graph, mapping);
#ifndef RANKMAP_CLI_PICTURES_MATRIX_SVG_H_
#define RANKMAP_CLI_PICTURES_MATRIX_SVG_H_

#include <cstdint>
#include <string>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli::pictures {

// `mapping` holds a valid leaf per process. O(m + n log n + max_cells^2).
std::string MatrixSvg(const topology::Tree& tree,
                      const graphs::CommGraph& graph,
                      const core::Mapping& mapping, int32_t max_cells = 128);

}  // namespace rankmap::cli::pictures

#endif  // RANKMAP_CLI_PICTURES_MATRIX_SVG_H_
