// The MPDATA front end (Malik's thesis, ch. 4): the halo exchange of the
// cluster version on an arrangement of processors, and `rankmap frontend
// mpdata`, which arranges the processors with Algorithm 3
// (tiling/mpdata_arrangement.h) and builds the graph of that arrangement.
//
// Usage:
//   MpdataFrontendOptions o;
//   o.group = {0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3};
//   o.horizontal_bandwidth = bw_h;  // Table 4.1, row-major 4 x 4
//   o.vertical_bandwidth = bw_v;
//   ASSIGN_OR_RETURN(MpdataFrontendResult r, MpdataFrontend(o));
//   // r.arrangement.grid is 6 x 2; r.graph has 12 vertices
#ifndef RANKMAP_GRAPHS_FRONTENDS_MPDATA_H_
#define RANKMAP_GRAPHS_FRONTENDS_MPDATA_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "tiling/mpdata_arrangement.h"

namespace rankmap::graphs {

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
absl::StatusOr<CommGraph> MpdataHaloGraph(const tiling::MpdataGrid& grid,
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
// candidate grid (tiling::MpdataOptions::max_work bounds that too).
inline constexpr int64_t kMaxMpdataProcessors = int64_t{1} << 20;

struct MpdataFrontendResult {
  int32_t num_groups = 0;
  tiling::MpdataResult arrangement;
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
