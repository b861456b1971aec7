// Communication graphs of parallel matrix multiplication C = A x B (SUMMA and
// Square-Corner).
//
// Each function turns a partition and a communication flow into a CommGraph
// whose vertex v is processor (owner) v and whose edge weight w(u, v) is the
// number of bytes u and v exchange, in both directions together, during one
// whole multiplication (all pivot steps). The engine can map that graph like
// any other.
//
// Flows (Malik ch. 3.1, Becker ch. 2 and 5):
//   * SummaGridGraph: homogeneous SUMMA on a pr x pc process grid (rank = i *
//     pc + j), blocks of n / pr rows and n / pc columns (largest-remainder
//     split); the pivot column is broadcast along process rows and the pivot
//     row along process columns, either directly from the owner to every
//     row/column mate (kOneToAll) or along a ring (kRing: link (i,j) -> (i,j+1)
//     carries every pivot except those the receiver owns);
//   * HeterogeneousSummaGraph on a column-based partition: kOneToAll sends each
//     pivot piece from its owner to every processor whose rectangle overlaps it
//     (message = block x overlap height; this equals the owner-computes volume
//     engine), kRing passes the pivot column around the ring of each horizontal
//     band (left to right, wrapping) and the pivot row around the ring of each
//     column (top to bottom, wrapping), each link carrying every piece but the
//     receiver's;
//   * VolumeGraph / SquareCornerGraph: the exact owner-computes volumes of any
//     partition (Square-Corner's four- or eight-step exchange), from
//     MatmulVolumes.
// Weights are cells x cell_bytes, where cell_bytes = element_size (default 8,
// doubles) times the number of elements per cell (b * b when the partition is
// in b x b blocks).
//
// Usage:
//   ASSIGN_OR_RETURN(Partition p, SquareCornerPartition2({8, 1}, 4500));
//   ASSIGN_OR_RETURN(CommGraph g, SquareCornerGraph(p));
//   // g.EdgeWeight(0, 1) == 13.5e6 elements * 8 bytes
#ifndef RANKMAP_GRAPHS_FRONTENDS_SUMMA_H_
#define RANKMAP_GRAPHS_FRONTENDS_SUMMA_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "tiling/partition.h"
#include "tiling/volume.h"

namespace rankmap::graphs {

// How a pivot piece (a block column of A, a block row of B) travels: from its
// owner to every processor that needs it (kOneToAll), or along the ring of
// those processors, each link carrying every piece but its receiver's (kRing).
enum class PivotFlow { kOneToAll, kRing };

// Bytes per cell of the partition grid.
struct CellSize {
  int64_t elements_per_cell = 1;  // b * b for b x b blocks
  int32_t element_size = 8;       // bytes per element
  double bytes() const {
    return static_cast<double>(elements_per_cell) * element_size;
  }
};

// Homogeneous SUMMA. O(pr * pc * (pr + pc)) edges before merging (kOneToAll),
// O(pr * pc) (kRing). Errors: grid dimensions < 1, more than 2^24 processes or
// 2^28 direct edges, n < max(pr, pc), bad cell size.
absl::StatusOr<CommGraph> SummaGridGraph(int32_t grid_rows, int32_t grid_cols,
                                         int64_t n, PivotFlow flow,
                                         CellSize cell = {});

// Heterogeneous SUMMA on a column-based partition (every column a stack of
// full-width rectangles, one rectangle per owner, square or not). Ring flow:
// O(R log R) time for R rectangles; one-to-all: MatmulVolumes'. Errors: an
// invalid or non-column-based partition, bad cell size.
absl::StatusOr<CommGraph> HeterogeneousSummaGraph(const tiling::Partition& p,
                                                  PivotFlow flow,
                                                  CellSize cell = {});

// w(u, v) = (V[u -> v] + V[v -> u]) * cell bytes; vertex count = num_owners.
// O(owners^2).
absl::StatusOr<CommGraph> VolumeGraph(const tiling::VolumeMatrix& v,
                                      CellSize cell = {});

// VolumeGraph(MatmulVolumes(p)). Errors: those of MatmulVolumes.
absl::StatusOr<CommGraph> SquareCornerGraph(const tiling::Partition& p,
                                            CellSize cell = {});

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_SUMMA_H_
