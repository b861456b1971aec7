// Stencil front end: the communication graph of a halo-exchanging grid code,
// derived from the grid, the stencil and the partition, so users never have to
// profile it.
//
// Concept: a 2D (rows x cols) or 3D grid is split among P processes, one box
// each (a tiling::GridPartition, tiling/grid_partition.h). Every iteration
// process B receives its ghost cells: the cells within the stencil's reach of
// its box (halo width h) that other processes own. For a star stencil (5-point
// 2D, 7-point 3D) the reach of a box is the box widened by h along one axis at
// a time; for a box stencil (9-point 2D, 27-point 3D) it is the box widened by
// h along every axis at once, which adds the edge and corner neighbours.
// Periodic dimensions wrap. The exact count of ghost cells of B owned by A is
// the volume A -> B; A -> B and B -> A are both added, so the CommGraph weight
// w(A, B) is the sum of both directions (bytes = cells * element size, per
// iteration).
//
// Usage:
//   StencilOptions o;
//   o.grid = {1024, 1024};
//   o.points = 5;
//   o.procs = 64;                 // 8 x 8 blocks (DimsCreate)
//   ASSIGN_OR_RETURN(CommGraph g, StencilGraph(o));
//   // w(0, 1) = 2 * 128 cells * 8 bytes: 128 halo cells each way per step.
#ifndef RANKMAP_GRAPHS_FRONTENDS_STENCIL_H_
#define RANKMAP_GRAPHS_FRONTENDS_STENCIL_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/halo_message.h"
#include "tiling/grid_partition.h"

namespace rankmap::graphs {

enum class Stencil { k5Point, k9Point, k7Point, k27Point };

// The stencil of 5, 9, 7 or 27 points. Errors: any other count.
absl::StatusOr<Stencil> StencilFromPoints(int32_t points);
// 2 for 5-/9-point, 3 for 7-/27-point.
int32_t StencilDims(Stencil s);
// True for the box stencils (9-/27-point) that reach diagonal neighbours.
bool StencilHasDiagonals(Stencil s);

// Every nonzero transfer, sorted by (dst, src). Cells a process needs from
// itself (periodic wrap onto its own box) are not listed. Errors: stencil
// dimensionality differs from the partition's, halo < 1, a periodic dimension
// shorter than the halo, a `periodic` vector of the wrong length, an invalid
// partition (boxes outside the grid, overlapping or of the wrong count of
// dimensions); ResourceExhausted when the messages and the graph they make
// would pass base::MemoryBudget(max_memory_bytes) (counted as they are found,
// so a halo that reaches every box stops at the budget). Complexity:
// O(P * neighbours) for tensor partitions; for other boxes, a bucket grid of
// about P buckets gives O(P + candidates near each halo).
absl::StatusOr<std::vector<HaloMessage>> HaloMessages(
    const tiling::GridPartition& partition, const std::vector<bool>& periodic,
    Stencil stencil, int32_t halo = 1, int64_t max_memory_bytes = 0);

// The CommGraph of HaloMessages: w(u, v) = (cells u -> v + cells v -> u) *
// element_size. With axis_weights (one per dimension) a message is weighed by
// the dimension it crosses: the weight of the dimension along which the two
// boxes are apart (edge and corner neighbours, apart along several, take the
// largest). In a row-major array the last dimension's halos are strided, so
// e.g. {1, 12.8} weighs a 2D code's left/right halos as slow as Malik's
// horizontal MPDATA halos (b_V / b_H = 12.8, Table 4.1). Errors: those of
// HaloMessages, element_size or a weight not positive and finite, a weight
// list of the wrong length.
absl::StatusOr<CommGraph> HaloGraph(const tiling::GridPartition& partition,
                                    const std::vector<bool>& periodic,
                                    Stencil stencil, int32_t halo = 1,
                                    double element_size = 8.0,
                                    std::span<const double> axis_weights = {},
                                    int64_t max_memory_bytes = 0);

// A grid, how it is split (tiling::GridTilingOptions: grid, procs,
// proc_grid, slabs, speeds, and the memory budget of it all) and the stencil,
// as a plain value.
struct StencilOptions : tiling::GridTilingOptions {
  // 5, 9 (2D) or 7, 27 (3D).
  int32_t points = 5;
  // Halo width in cells.
  int32_t halo = 1;
  // One entry per dimension; empty = none.
  std::vector<bool> periodic;
  // Bytes per grid cell.
  double element_size = 8.0;
  // Per-byte weight of halos crossing each dimension (HaloGraph); empty = 1.
  std::vector<double> axis_weights;
};

// tiling::TileGrid followed by HaloGraph. Errors name the offending option,
// e.g. "stencil: a 7-point stencil needs a 3D grid, --grid has 2 extents".
absl::StatusOr<CommGraph> StencilGraph(const StencilOptions& options);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_STENCIL_H_
