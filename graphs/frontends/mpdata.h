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
// Self-contained (it does not call the SUMMA code of arrangement.h, which was
// not available when this was written): the grid is uniform and the Step 1
// shape search is MPDATA-specific.
//
// Usage:
//   MpdataNetwork net{4, bw_h, bw_v};   // Table 4.1, GB/s, row-major 4 x 4
//   std::vector<int32_t> group = {0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3};
//   ASSIGN_OR_RETURN(MpdataResult r, ArrangeMpdata(group, net));
//   // r.grid is 6 x 2, r.cost.total ~ 2.1487e6 (thesis 2,143,978)
#ifndef RANKMAP_GRAPHS_FRONTENDS_MPDATA_H_
#define RANKMAP_GRAPHS_FRONTENDS_MPDATA_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::graphs {

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

// Halo exchange of the MPDATA cluster version on an arrangement: the n x m x l
// domain is cut into grid.rows x grid.cols sub-domains of nB x mB x l (nB = n /
// rows, mB = m / cols; where they do not divide, the first n mod rows rows and
// m mod cols columns are one cell larger, so the thesis's 512 x 512 domain fits
// its 6 x 2 grid). Left/right neighbours exchange nB bars of 1 x jhalo x l
// elements, top/bottom neighbours slices of ihalo x (jhalo + mB + jhalo) x l,
// each way; vertices are processors.
struct MpdataDomain {
  int64_t n = 512, m = 512, l = 64;
  int64_t ihalo = 1, jhalo = 1;
  double element_size = 8.0;
  bool periodic = false;
  // Weight per byte of the horizontal (strided) and vertical (contiguous)
  // halos. 1 / 1: the graph counts bytes. 1 / b_H and 1 / b_V (one group's
  // effective bandwidths, Malik Table 4.1) make it count transfer time, so a
  // mapper sees that a horizontal byte costs b_V / b_H (about 12.8 on
  // Grisou) vertical ones.
  double horizontal_weight = 1.0;
  double vertical_weight = 1.0;
};
// Errors: fewer rows (columns) of cells than of the grid, non-positive values
// (weights included). O(P).
absl::StatusOr<CommGraph> MpdataHaloGraph(const MpdataGrid& grid,
                                          const MpdataDomain& domain);

// `rankmap frontend mpdata`: Algorithm 3 on the processors' groups, then the
// halo graph of the arrangement, from one plain value.
struct MpdataFrontendOptions {
  // Group (cluster) of each processor; P = its length, num_groups = the
  // largest + 1. Empty: `procs` processors of one group.
  std::vector<int32_t> group;
  int64_t procs = 0;
  // Group-pair bandwidths, row-major num_groups^2; horizontal empty: all 1;
  // vertical empty: the horizontal ones.
  std::vector<double> horizontal_bandwidth;
  std::vector<double> vertical_bandwidth;
  // n x m or n x m x l elements (l = 1 when absent); N of the cost is n.
  std::vector<int64_t> domain = {512, 512, 64};
  int64_t halo = 1;  // ihalo = jhalo
  double element_size = 8.0;
  // Wrap links, in the cost (MpdataOptions::cyclic) and in the graph.
  bool periodic = false;
  double horizontal_weight = 1.0;
  double vertical_weight = 1.0;
  bool allow_1d = false;
  // Bound on what may be allocated, in bytes; 0: base::MemoryBudget()'s
  // default. Checked from the processor and group counts first.
  int64_t max_memory_bytes = 0;
};

// Processors of the front end: Algorithm 3's rounds visit every cell of every
// candidate grid (MpdataOptions::max_work bounds that too).
inline constexpr int64_t kMaxMpdataProcessors = int64_t{1} << 20;

struct MpdataFrontendResult {
  int32_t num_groups = 0;
  MpdataResult arrangement;
  CommGraph graph;
};

// Errors: a domain of other than 2 or 3 extents, no processor or more than
// kMaxMpdataProcessors, a negative group, group-pair matrices beyond the
// memory budget; those of ArrangeMpdata (bad bandwidths, no grid shape, a
// search beyond its limits) and MpdataHaloGraph.
absl::StatusOr<MpdataFrontendResult> MpdataFrontend(
    const MpdataFrontendOptions& options);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_MPDATA_H_
