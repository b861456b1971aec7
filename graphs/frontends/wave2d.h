// Wave2D (seed 004, Rico-Gallego, Lastovetsky, Diaz-Martin): the 2D wave
// equation solved by finite differences with a 5-point stencil on a
// column-based heterogeneous partition of an N x N mesh of doubles. Each
// iteration every process exchanges the perimeter of its `Cur` rectangle (halo
// width 1) with the processes whose rectangles share an edge with it: its
// neighbourhood eta_i. Vertical neighbours (same column, same width) send
// contiguous rows; horizontal neighbours (adjacent columns) need packing.
//
// The partition is a ColumnTiling (tiling/grid_partition.h). Neighbourhoods
// are listed clockwise, starting with the neighbour above: top, then the right
// column top to bottom, then the neighbour below, then the left column bottom
// to top. With the seed's Fig. 2 (P = 8 on two machines) this order gives eta_1
// = {2, 4, 3, 6, 0, 5}.
//
// Usage:
//   ASSIGN_OR_RETURN(auto eta, Wave2DNeighbourhoods(tiling));
//   for (const Wave2DNeighbour& n : eta[me]) { ... n.process, n.cells ... }
//   ASSIGN_OR_RETURN(CommGraph g, Wave2DGraph(tiling));  // 2 * cells * 8 B
//
//   // `rankmap frontend wave2d`: the tiling from speeds, then the graph.
//   Wave2DOptions o;
//   o.grid = {4096, 4096};
//   o.speeds = {4, 2, 1, 1};
//   ASSIGN_OR_RETURN(Wave2DResult r, Wave2DFrontend(o));
#ifndef RANKMAP_GRAPHS_FRONTENDS_WAVE2D_H_
#define RANKMAP_GRAPHS_FRONTENDS_WAVE2D_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "tiling/grid_partition.h"

namespace rankmap::graphs {

struct Wave2DNeighbour {
  int32_t process = 0;
  // getCurHaloCnt(me, process): doubles sent (and received) per iteration.
  int64_t cells = 0;
  // Horizontal neighbour: the halo is a strided column, packed to send.
  bool packed = false;
  friend bool operator==(const Wave2DNeighbour&,
                         const Wave2DNeighbour&) = default;
};

// eta_i for every process i, clockwise as described above. Errors: those of
// ColumnTilingPartition. O(P log P + sum of neighbourhood sizes).
absl::StatusOr<std::vector<std::vector<Wave2DNeighbour>>> Wave2DNeighbourhoods(
    const tiling::ColumnTiling& tiling);

// getCurHaloCnt(src, dst): the number of elements the two rectangles share
// along an edge (0 when they are not neighbours or src == dst). Errors: an
// invalid tiling or process id. O(P).
absl::StatusOr<int64_t> Wave2DHaloCount(const tiling::ColumnTiling& tiling,
                                        int32_t src, int32_t dst);

// The halo-exchange CommGraph: w(i, j) = 2 * getCurHaloCnt(i, j) * element_size
// (both directions). Equal to HaloGraph(ColumnTilingPartition(tiling), {},
// k5Point, 1, element_size).
absl::StatusOr<CommGraph> Wave2DGraph(const tiling::ColumnTiling& tiling,
                                      double element_size = 8.0);

// The mesh and how it is shared, as a plain value.
struct Wave2DOptions {
  // rows x cols: exactly 2 extents.
  std::vector<int64_t> grid = {1024, 1024};
  // Relative processor speeds (tiling::ColumnTilingFromSpeeds); empty:
  // `procs` equal ones.
  std::vector<double> speeds;
  int64_t procs = 0;
  double element_size = 8.0;
};

struct Wave2DResult {
  tiling::ColumnTiling tiling;
  CommGraph graph;  // Wave2DGraph(tiling, element_size)
};

// The column tiling of the options' mesh and its halo graph. Errors name the
// option: a grid of other than 2 extents, neither speeds nor procs, more than
// tiling::kMaxColumnDpProcessors; then those of ColumnTilingFromSpeeds and
// Wave2DGraph. O(P^2) (the column DP), the rest O(P + neighbours).
absl::StatusOr<Wave2DResult> Wave2DFrontend(const Wave2DOptions& options);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_WAVE2D_H_
