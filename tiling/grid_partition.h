// Grid tilings: a 2D (rows x cols) or 3D grid of cells split into one box per
// process, the decomposition a halo-exchanging code runs on. The stencil and
// Wave2D front ends (graphs/frontends/stencil.h, wave2d.h) derive their
// traffic from it; this file only says who owns which cells.
//
// Invariants of a GridPartition (ValidateGridPartition): the boxes are
// pairwise disjoint, non-empty, inside the grid and cover it; box p belongs to
// process p; at most 2^31 - 1 processes and 2^56 cells (so that a halo's
// cells, counted over periodic copies, stay below 2^63).
//
// Axes: dimension 0 is the slowest-varying one (rows in 2D, top to bottom), the
// last is the fastest (columns in 2D, left to right). Block partitions number
// processes row-major over the process grid, like MPI_Cart_create: process (i,
// j) of a pr x pc grid is rank i * pc + j.
//
// Tilings:
//   * BlockPartition: blocks on a process grid (DimsCreate chooses it like
//     MPI_Dims_create), slabs being a grid of P x 1 (x 1);
//   * ColumnTiling: a column-based 2D layout (Beaumont et al.; Wave2D), e.g.
//     from relative speeds (ColumnTilingFromSpeeds);
//   * MatrixPartitionBoxes: any one-rectangle-per-owner matrix partition
//     (partition.h).
// TileGrid picks one of them from plain options.
//
// Usage:
//   GridTilingOptions o;
//   o.grid = {1024, 1024};
//   o.procs = 64;                  // 8 x 8 blocks of 128 x 128 cells
//   ASSIGN_OR_RETURN(GridPartition p, TileGrid(o));
#ifndef RANKMAP_TILING_GRID_PARTITION_H_
#define RANKMAP_TILING_GRID_PARTITION_H_

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

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
  // proc_grid[d] + 1 increasing entries from 0 to extent[d]; it lets halo
  // searches find neighbours by binary search instead of testing every pair.
  // Empty for other partitions.
  std::vector<std::vector<int64_t>> cuts;
};

// Checks the invariants above except disjointness, which costs O(P^2) in
// general: boxes inside the grid and non-empty, their volumes summing to the
// grid's (so overlapping boxes leave a gap), cuts (when present) strictly
// increasing and matching the boxes. O(P).
absl::Status ValidateGridPartition(const GridPartition& p);

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
// processor speeds (process p gets an area proportional to speeds[p]):
// ColumnBasedPartition (Beaumont et al.'s DP minimising the sum of
// half-perimeters, i.e. the total halo volume) rounded onto the grid by
// ToIntegerPartition (largest remainder, at least one cell each), read back as
// a tiling. Errors: those two functions' (bad speeds, a grid too small to give
// each process a cell). O(P^2) (the DP).
absl::StatusOr<ColumnTiling> ColumnTilingFromSpeeds(
    int64_t rows, int64_t cols, std::span<const double> speeds);

// Any matrix partition (partition.h) whose owners hold one rectangle each, as
// boxes: owner o is process o. Errors: an invalid partition, an owner with
// several rectangles (Square-Corner's L) or none.
absl::StatusOr<GridPartition> MatrixPartitionBoxes(const Partition& matrix);

// How a grid is split, as a plain value (the stencil front end's options
// extend it).
struct GridTilingOptions {
  // 2 or 3 extents, e.g. {64, 64, 64}.
  std::vector<int64_t> grid = {1024, 1024};
  // 0: the product of proc_grid, or speeds.size().
  int64_t procs = 0;
  // Explicit process grid, one entry per dimension; zeros are chosen by
  // DimsCreate.
  std::vector<int64_t> proc_grid;
  // 1D slabs across dimension 0 instead of blocks.
  bool slabs = false;
  // Nonempty: heterogeneous column-based partition (2D only).
  std::vector<double> speeds;
  // Bound on what may be allocated, in bytes; 0: base::MemoryBudget()'s
  // default. Checked from the process count before the boxes are made.
  int64_t max_memory_bytes = 0;
};

// The partition the options describe: ColumnTilingFromSpeeds with speeds,
// else blocks (slabs) on the process grid. Errors name the offending option,
// e.g. "stencil: --procs 6 does not match the 4 speeds"; more boxes than the
// memory budget allows are ResourceExhausted.
absl::StatusOr<GridPartition> TileGrid(const GridTilingOptions& options);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_GRID_PARTITION_H_
