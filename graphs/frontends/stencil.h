// Stencil front end: the communication graph of a halo-exchanging grid code,
// derived from the grid, the stencil and the partition, so users never have to
// profile it.
//
// Concept: a 2D (rows x cols) or 3D grid is split among P processes, one box
// each. Every iteration process B receives its ghost cells: the cells within
// the stencil's reach of its box (halo width h) that other processes own. For a
// star stencil (5-point 2D, 7-point 3D) the reach of a box is the box widened
// by h along one axis at a time; for a box stencil (9-point 2D, 27-point 3D) it
// is the box widened by h along every axis at once, which adds the edge and
// corner neighbours. Periodic dimensions wrap. The exact count of ghost cells
// of B owned by A is the volume A -> B; A -> B and B -> A are both added, so
// the CommGraph weight w(A, B) is the sum of both directions (bytes = cells *
// element size, per iteration).
//
// Invariants of a GridPartition: the boxes are pairwise disjoint, non-empty,
// inside the grid and cover it; box p belongs to process (graph vertex) p.
//
// Axes: dimension 0 is the slowest-varying one (rows in 2D, top to bottom), the
// last is the fastest (columns in 2D, left to right). Block partitions number
// processes row-major over the process grid, like MPI_Cart_create: process (i,
// j) of a pr x pc grid is rank i * pc + j.
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

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/frontends/partition.h"
#include "graphs/halo_message.h"

namespace rankmap::graphs {

enum class Stencil { k5Point, k9Point, k7Point, k27Point };

// Parses "5", "9", "7", "27" (optionally followed by "-point" or "pt").
absl::StatusOr<Stencil> ParseStencil(std::string_view text);
// 2 for 5-/9-point, 3 for 7-/27-point.
int32_t StencilDims(Stencil s);
// True for the box stencils (9-/27-point) that reach diagonal neighbours.
bool StencilHasDiagonals(Stencil s);

// The grid: 2 or 3 extents (cells per dimension), and which dimensions wrap
// around.
struct GridSpec {
  std::vector<int64_t> extent;
  // One entry per dimension, or empty for none periodic.
  std::vector<bool> periodic;
};

// Half-open box [lo[d], hi[d]) per dimension; unused dimensions are [0, 1).
struct GridBox {
  std::array<int64_t, 3> lo = {0, 0, 0};
  std::array<int64_t, 3> hi = {1, 1, 1};
  int64_t Volume() const {
    return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  }
  friend bool operator==(const GridBox&, const GridBox&) = default;
};

// Which process owns which box (see the invariants at the top of this file).
struct GridPartition {
  int32_t dims = 2;
  std::vector<int64_t> extent;  // the grid's extents, `dims` entries
  std::vector<GridBox> boxes;   // boxes[p] is owned by process p
  // Tensor-product partitions (slabs, blocks) also keep their cuts: cuts[d] has
  // proc_grid[d] + 1 increasing entries from 0 to extent[d]; it lets
  // HaloMessages find neighbours by binary search instead of testing every
  // pair. Empty for other partitions.
  std::vector<std::vector<int64_t>> cuts;
};

// Like MPI_Dims_create: fills the zero entries of `dims` (its length is the
// number of dimensions) so that the product is `procs`, with the free factors
// as close to each other as possible and in non-increasing order. Nonzero
// entries are kept. E.g. (12, {0, 0}) -> {4, 3}, (512, {0, 0, 0}) -> {8, 8, 8},
// (12, {0, 2}) -> {6, 2}. Errors: procs < 1, negative entries, fixed entries
// that do not divide procs, no dims. Complexity: O(d(procs)^k) for k free
// dimensions, d = number of divisors (small).
absl::StatusOr<std::vector<int64_t>> DimsCreate(int64_t procs,
                                                std::vector<int64_t> dims);

// Splits [0, extent) into `parts` contiguous ranges whose sizes differ by at
// most one, the first (extent mod parts) ranges being one longer (the usual
// block distribution). Returns the parts + 1 cut positions. Errors: parts < 1
// or parts > extent (a process would own nothing).
absl::StatusOr<std::vector<int64_t>> BlockCuts(int64_t extent, int64_t parts);

// Blocks on a process grid: proc_grid has one entry per grid dimension (use {P,
// 1} or {P, 1, 1} for slabs across dimension 0). Uneven divisions are handled
// by BlockCuts. Errors: size mismatch, non-positive entries, more processes
// than cells along a dimension, more than 2^31 - 1 processes.
absl::StatusOr<GridPartition> BlockPartition(
    std::span<const int64_t> extent, std::span<const int64_t> proc_grid);

// A column-based 2D partition (Beaumont et al.; also the Wave2D layout of seed
// 004): the grid's columns are cut into vertical strips; each strip is cut top
// to bottom into rectangles of the strip's width.
struct ColumnTiling {
  struct Cell {
    int32_t process = 0;
    int64_t height = 0;
  };
  struct Column {
    int64_t width = 0;
    std::vector<Cell> cells;  // top to bottom
  };
  int64_t rows = 0, cols = 0;
  std::vector<Column> columns;  // left to right
};

// Checks the layout (widths sum to cols, heights of each column sum to rows,
// positive sizes, each process of [0, P) exactly once) and converts it to
// boxes. O(P).
absl::StatusOr<GridPartition> ColumnTilingPartition(const ColumnTiling& layout);

// Heterogeneous column-based partition of a rows x cols grid from relative
// processor speeds (process p gets an area proportional to speeds[p]): the
// matrix front end's ColumnBasedPartition (Beaumont et al.'s DP minimising the
// sum of half-perimeters, i.e. the total halo volume) rounded onto the grid by
// ToIntegerPartition (largest remainder, at least one cell each), read back as
// a tiling. Errors: those two functions' (bad speeds, a grid too small to give
// each process a cell). O(P^3) (the DP).
absl::StatusOr<ColumnTiling> ColumnTilingFromSpeeds(
    int64_t rows, int64_t cols, std::span<const double> speeds);

// Any matrix partition (graphs/frontends/partition.h) whose owners hold one
// rectangle each, as boxes: owner o is process o. Errors: an invalid
// partition, an owner with several rectangles (Square-Corner's L) or none.
absl::StatusOr<GridPartition> MatrixPartitionBoxes(const Partition& matrix);

// Every nonzero transfer, sorted by (dst, src). Cells a process needs from
// itself (periodic wrap onto its own box) are not listed. Errors: stencil
// dimensionality differs from the partition's, halo < 1, a periodic dimension
// shorter than the halo, a `periodic` vector of the wrong length, an invalid
// partition (boxes outside the grid or of the wrong count of dimensions).
// Complexity: O(P * neighbours) for tensor partitions, O(P^2) otherwise.
absl::StatusOr<std::vector<HaloMessage>> HaloMessages(
    const GridPartition& partition, const std::vector<bool>& periodic,
    Stencil stencil, int32_t halo = 1);

// The CommGraph of HaloMessages: w(u, v) = (cells u -> v + cells v -> u) *
// element_size. With axis_weights (one per dimension) a message is weighed by
// the dimension it crosses: the weight of the dimension along which the two
// boxes are apart (edge and corner neighbours, apart along several, take the
// largest). In a row-major array the last dimension's halos are strided, so
// e.g. {1, 12.8} weighs a 2D code's left/right halos as slow as Malik's
// horizontal MPDATA halos (b_V / b_H = 12.8, Table 4.1). Errors: those of
// HaloMessages, element_size or a weight not positive and finite, a weight
// list of the wrong length.
absl::StatusOr<CommGraph> HaloGraph(const GridPartition& partition,
                                    const std::vector<bool>& periodic,
                                    Stencil stencil, int32_t halo = 1,
                                    double element_size = 8.0,
                                    std::span<const double> axis_weights = {});

// A grid, a stencil and how the grid is split, as a plain value.
struct StencilOptions {
  // 2 or 3 extents, e.g. {64, 64, 64}.
  std::vector<int64_t> grid = {1024, 1024};
  // 5, 9 (2D) or 7, 27 (3D).
  int32_t points = 5;
  // Halo width in cells.
  int32_t halo = 1;
  // One entry per dimension; empty = none.
  std::vector<bool> periodic;
  // 0: the product of proc_grid, or speeds.size().
  int64_t procs = 0;
  // Explicit process grid, one entry per dimension; zeros are chosen by
  // DimsCreate.
  std::vector<int64_t> proc_grid;
  // 1D slabs across dimension 0 instead of blocks.
  bool slabs = false;
  // Nonempty: heterogeneous column-based partition (2D only).
  std::vector<double> speeds;
  // Bytes per grid cell.
  double element_size = 8.0;
  // Per-byte weight of halos crossing each dimension (HaloGraph); empty = 1.
  std::vector<double> axis_weights;
};

// Builds the partition the options describe. Errors name the offending option,
// e.g. "stencil: --procs 6 does not match the 4 speeds".
absl::StatusOr<GridPartition> StencilPartition(const StencilOptions& options);
// StencilPartition followed by HaloGraph.
absl::StatusOr<CommGraph> StencilGraph(const StencilOptions& options);

// Parses a speeds file: positive numbers separated by white space, '#' starts a
// comment. `name` is used in messages: "speeds.txt:3: expected a positive
// speed, found 'abc'".
absl::StatusOr<std::vector<double>> ParseSpeeds(std::string_view text,
                                                std::string_view name);
absl::StatusOr<std::vector<double>> ReadSpeedsFile(const std::string& path);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_STENCIL_H_
