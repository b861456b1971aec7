// MPDATA arrangement (Malik's thesis, ch. 4, Algorithm 3): place P homogeneous
// processors on an r x c grid of equal sub-domains of an N x N (x l) domain so
// that the halo exchange is cheap on a network whose effective bandwidth
// differs between horizontal (left/right, strided, slow) and vertical
// (top/bottom, contiguous, fast) neighbours and between groups (clusters).
//
// Cost (4.1)-(4.3), Q_ij the processor of sub-domain (i, j), g(.) its group,
// h = N / r, w = N / c:
//   cost_H = sum_i h * sum_j 1 / b_H(g(Q_ij), g(Q_i,j+1))
//   cost_V = sum_j w * sum_i 1 / b_V(g(Q_ij), g(Q_i+1,j))
// Rows and columns are open chains (c - 1 and r - 1 links) by default: the
// reading that reproduces the thesis's Tables 4.2 and 4.3 (see the digest);
// `cyclic` adds the wrap links of the printed formulas (with eq. 4.2's index
// typo corrected).
//
// Algorithm 3 as implemented (the digest's conventions, which reproduce the
// tables):
//   repeat
//     Step 1: over every shape r x c = P (r, c >= 2 unless allow_1d;
//       r ascending) and both fills of the current linear order (column-major
//       first), keep the first strict minimum.
//     Step 2: Algorithm 2 with the asymmetric cost on that shape: group each
//       column's processors by group (stable, first appearance); column 1
//       takes the group order minimising its cost_V; column i = 2..c the
//       order minimising the cost of columns 1..i; then the column order
//       minimising the total. Permutations in lexicographic order, first
//       strict minimum.
//     Re-linearise the grid in Step 1's fill order.
//   until the order no longer changes (or max_iterations, or a repeat).
// Step 2 is arrangement.h's Algorithm 2 with ArrangementCost::
// AsymmetricBandwidth on open chains, written here on the uniform grid's flat
// cells: a Step 1 round scores every shape in O(P) without building bands,
// and the tables' conventions differ from Arrange's in two places that change
// results, a strict minimum (no tolerance) and no fallback to the grouped
// start when the passes end above it.
//
// Usage:
//   MpdataNetwork net{4, bw_h, bw_v};   // Table 4.1, GB/s, row-major 4 x 4
//   std::vector<int32_t> group = {0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3};
//   ASSIGN_OR_RETURN(MpdataResult r, ArrangeMpdata(group, net));
//   // r.grid is 6 x 2, r.cost.total ~ 2.1487e6 (thesis 2,143,978)
#ifndef RANKMAP_TILING_MPDATA_ARRANGEMENT_H_
#define RANKMAP_TILING_MPDATA_ARRANGEMENT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rankmap::tiling {

// Per group pair effective bandwidths, row-major num_groups x num_groups,
// symmetric, > 0.
struct MpdataNetwork {
  int32_t num_groups = 1;
  std::vector<double> horizontal;
  std::vector<double> vertical;
};

struct MpdataOptions {
  // N: rows are N / r high, columns N / c wide.
  double domain = 512;
  // Wrap links (the printed formulas) instead of open chains (the tables).
  bool cyclic = false;
  // Also try 1 x P and P x 1 (the thesis reports 6 x 2, so it excludes them).
  bool allow_1d = false;
  // Step 1 + Step 2 rounds.
  int32_t max_iterations = 32;
  // Refuse searches with more candidate evaluations than this per round,
  int64_t max_evaluations = 50'000'000;
  // or more cell visits (evaluations times P) over all rounds (seconds).
  int64_t max_work = 100'000'000;
};

// An r x c arrangement: cells[i * cols + j] is the processor of sub-domain
// (i, j).
struct MpdataGrid {
  int32_t rows = 0;
  int32_t cols = 0;
  // The fill order it was built with (and is read back in).
  bool column_major = true;
  std::vector<int32_t> cells;
  int32_t at(int32_t i, int32_t j) const {
    return cells[static_cast<size_t>(i) * cols + j];
  }
  friend bool operator==(const MpdataGrid&, const MpdataGrid&) = default;
};

struct MpdataCost {
  double horizontal = 0;
  double vertical = 0;
  double total = 0;
};

// Fills `order` (a permutation of processors) into rows x cols, column-major
// (down the first column first) or row-major. Errors: rows * cols !=
// order.size(), non-positive sizes.
absl::StatusOr<MpdataGrid> FillMpdataGrid(std::span<const int32_t> order,
                                          int32_t rows, int32_t cols,
                                          bool column_major);
// The grid read back in its fill order.
std::vector<int32_t> LinearOrder(const MpdataGrid& grid);

// Cost of a grid; group[p] is processor p's group. Errors: a processor outside
// group's range, a group outside the network, an invalid network (sizes,
// entries not finite and > 0). O(P).
absl::StatusOr<MpdataCost> EvaluateMpdata(const MpdataGrid& grid,
                                          std::span<const int32_t> group,
                                          const MpdataNetwork& network,
                                          const MpdataOptions& options = {});

struct MpdataResult {
  MpdataGrid grid;
  MpdataCost cost;
  // Step 1's choice in the first round, before any regrouping.
  MpdataGrid first_step1;
  MpdataCost first_step1_cost;
  // Rounds run; when converged, the last one reproduced its input order.
  int32_t iterations = 0;
  bool converged = false;
  // Candidate grids scored.
  int64_t evaluations = 0;
};

// Algorithm 3 from the initial linear order `initial` (processors 0..P-1 in
// order when empty). The thesis's precondition: each group contiguous in the
// initial order (not enforced; other starts may stop at worse fixed points).
// Errors: P < 4 without allow_1d (no r, c >= 2 shape) or a prime P, an invalid
// network or group vector, `initial` not a permutation, a search larger than
// max_evaluations per round or max_work cell visits in all. Time: per round,
// 2 per shape plus sum of g_j! + c! grid evaluations of O(P) each.
absl::StatusOr<MpdataResult> ArrangeMpdata(
    std::span<const int32_t> group, const MpdataNetwork& network,
    const MpdataOptions& options = {}, std::span<const int32_t> initial = {});

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_MPDATA_ARRANGEMENT_H_
