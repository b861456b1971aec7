// Communication volumes of C = A x B under a partition (owner computes,
// operands partitioned alike, every needed element sent once to each processor
// that needs it; Becker digest 2.3).
//
// Processor p needs A(i, k) for every row i it touches in C and B(k, j) for
// every column j it touches in C, so the volume q sends to p (q != p) is
//   V[q -> p] = #{(i, k) in A_q : i in rows(C_p)}
//             + #{(k, j) in B_q : j in cols(C_p)}.
// For rectangles this is the sum over q's rectangles r of
// width(r) * |rows(r) n rows(C_p)| (A part) and height(r) * |cols(r) n
// cols(C_p)| (B part), computed by MatmulVolumes in O(R^2 log R).
// CountMatmulVolumes evaluates the definition cell by cell: the oracle used in
// tests.
//
// Invariants: volume[q][q] = 0; Total() = TVC; for a square partition used for
// A, B and C, TVC = n * sum_rows (owners in row - 1) + n * sum_cols (owners in
// column - 1).
//
// Usage:
//   ASSIGN_OR_RETURN(Partition p, SquareCornerPartition2({8, 1}, 4500));
//   ASSIGN_OR_RETURN(VolumeMatrix v, MatmulVolumes(p));
//   // v.Total() == 13'500'000
#ifndef RANKMAP_TILING_VOLUME_H_
#define RANKMAP_TILING_VOLUME_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

// Directed volumes in elements: at(q, p) is what q sends to p.
struct VolumeMatrix {
  int32_t num_owners = 0;
  std::vector<int64_t> volume;  // num_owners^2, row-major [from][to]

  int64_t at(int32_t from, int32_t to) const {
    return volume[static_cast<size_t>(from) * num_owners + to];
  }
  // Total volume of communication (sum of all entries; fits int64 for the
  // matrices MatmulVolumes returns).
  int64_t Total() const;
  // Largest single directed entry (the dominant direction on full-duplex
  // links).
  int64_t MaxDirected() const;

  friend bool operator==(const VolumeMatrix&, const VolumeMatrix&) = default;
};

// Square multiplication: the same partition for A, B and C. Errors: an invalid
// partition, a non-square grid, a total volume above 2^63 - 1 cells (so Total()
// of the result never overflows). O(owners * R log R + owners^2) time for R
// rectangles, owners^2 entries of memory.
absl::StatusOr<VolumeMatrix> MatmulVolumes(const Partition& p);
// General shapes: a is m x k, b is k x q, c is m x q, all with the same owner
// count. Errors: invalid partitions or mismatched shapes.
absl::StatusOr<VolumeMatrix> MatmulVolumes(const Partition& a,
                                           const Partition& b,
                                           const Partition& c);

// The same volumes counted cell by cell: O((m k + k q) * owners) time, O(cells)
// memory. Errors: as above, a grid above 2^26 cells, or (rows + cols) * owners
// above 2^28.
absl::StatusOr<VolumeMatrix> CountMatmulVolumes(const Partition& p);
absl::StatusOr<VolumeMatrix> CountMatmulVolumes(const Partition& a,
                                                const Partition& b,
                                                const Partition& c);

// n * sum over rows of (distinct owners - 1) + n * sum over columns of
// (distinct owners - 1) on a square partition, counted cell by cell. Equals
// MatmulVolumes(p).Total() for any partition.
absl::StatusOr<int64_t> RowColumnSharingTvc(const Partition& p);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_VOLUME_H_
