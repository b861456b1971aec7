// Topology-aware arrangement of a column-based partition (Malik, ch. 3 and 4;
// seed 003).
//
// An Arrangement is the 2D layout of a column-based partition: columns left to
// right, each with a width and its rectangles top to bottom; each rectangle has
// a height, the processor that owns it and that processor's cluster. Rectangles
// may only move inside their column and whole columns may be swapped, so every
// rearrangement keeps each processor's rectangle (load balance) and the total
// communication volume.
//
// Costs (per multiplication step, as in the thesis; all columns must have the
// same total height):
//   * bands: the union of the rectangles' row cuts splits the matrix into
//     horizontal bands; in a band every column holds one rectangle and the
//     pivot column travels along the ring of those rectangles, left to right
//     (matrix A);
//   * columns: the pivot row travels down the ring of a column's rectangles
//     (matrix B);
//   * hop cost: a ring with cluster sequence x_0..x_{n-1} costs h = min(k, n -
//     1) hops, k the number of cyclic neighbour pairs in different clusters
//     (the worst start of the pivot), or k over the n - 1 links of an open
//     chain; cost_A = sum over bands h * height * unit, cost_B = sum over
//     columns h * width * unit; combined = cost_A + cost_B (the thesis, eq.
//     3.3: Table 3.2's 127 and 104) or, with HopNorm::kEuclid,
//     sqrt(cost_A^2 + cost_B^2) (the IPDPSW paper, section III: 89.80 and
//     73.59);
//   * bandwidth cost: a ring costs sum over its links of 1 / b(x_t, x_t+1)
//     (including the wrap link back to the start unless the ring is an open
//     chain; a ring of one rectangle has no links); horizontal links use b_H,
//     vertical links b_V (equal for SUMMA, different for MPDATA); cost_A,
//     cost_B as above with these ring costs; combined = cost_A + cost_B.
//   The cost is a plain value (ArrangementCost): matrices of cluster-pair
//   bandwidths, inverted once; evaluation is a sweep over contiguous arrays
//   with no indirection.
//
// Algorithms (Malik 3.4): group each column's rectangles by cluster (stable, by
// first appearance), then
//   * Algorithm 1 (kHopGreedy): keep column 1; for i = 2..c choose the best of
//     the g_i! group orders of column i by cost_A of the first i columns (their
//     band ring wrapping at column i); then the best of the c! column orders by
//     cost_A;
//   * Algorithm 2 (kBandwidthGreedy): the best of the g_1! orders of column 1
//     by cost_B, then columns 2..c by the combined cost of the first i columns,
//     then the c! column orders by the combined cost. Evaluations: g_1! + ... +
//     g_c! + c!.
//   Ties go to the first strict minimum in lexicographic permutation order. The
//   result is never worse (by the objective) than the grouped start: the start
//   is returned if the passes end above it. kExhaustive tries every
//   within-column order times every column order.
//
// The arranged processor order (ProcessorOrder: column by column, top to
// bottom) is the rank permutation handed to MPI: new rank r runs on processor
// order[r].
//
// Usage:
//   ASSIGN_OR_RETURN(ArrangementCost cost,
//                    ArrangementCost::Bandwidth(4, table_3_3, 512.0));
//   ASSIGN_OR_RETURN(ArrangeResult r,
//                    Arrange(worst, cost, ArrangeAlgorithm::kBandwidthGreedy));
//   // r.cost.combined == 3609.81, r.evaluations == 62 (Malik Fig. 3.8)
//
//   // MPDATA (Malik ch. 4): asymmetric horizontal/vertical matrices, open
//   // chains. An r x c grid is c columns of width r holding r rectangles of
//   // height c, with unit N / (r c).
//   ASSIGN_OR_RETURN(ArrangementCost c,
//                    ArrangementCost::AsymmetricBandwidth(4, bh, bv, u));
//   c.wrap_horizontal = c.wrap_vertical = false;
#ifndef RANKMAP_TILING_ARRANGEMENT_H_
#define RANKMAP_TILING_ARRANGEMENT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

struct ArrangedRect {
  int32_t proc = 0;
  int32_t cluster = 0;
  int64_t height = 0;
  friend bool operator==(const ArrangedRect&, const ArrangedRect&) = default;
};

struct ArrangedColumn {
  int64_t width = 0;
  std::vector<ArrangedRect> rects;  // top to bottom
  friend bool operator==(const ArrangedColumn&,
                         const ArrangedColumn&) = default;
};

struct Arrangement {
  std::vector<ArrangedColumn> columns;  // left to right
  friend bool operator==(const Arrangement&, const Arrangement&) = default;
};

enum class CostKind { kHop, kBandwidth };

// How the hop cost combines its two directions (the bandwidth cost always
// sums, as both seeds do).
enum class HopNorm { kSum, kEuclid };

struct ArrangementCost {
  CostKind kind = CostKind::kBandwidth;
  int32_t num_clusters = 0;
  // Bandwidth kind: b(x, y) > 0 for every cluster pair, row-major
  // num_clusters^2; the link from a rectangle of cluster x to the next one of
  // cluster y uses b(x, y). Unused for kHop.
  std::vector<double> horizontal_bandwidth;
  std::vector<double> vertical_bandwidth;
  // Bytes (or any volume) per unit of height and width; the thesis tables use
  // 512.
  double unit = 1.0;
  // false: rings are open chains (MPDATA tables); true: cyclic rings (SUMMA).
  bool wrap_horizontal = true;
  bool wrap_vertical = true;
  // Hop kind only.
  HopNorm hop_norm = HopNorm::kSum;

  // Hop cost over num_clusters clusters, unit 1.
  static ArrangementCost Hop(int32_t num_clusters, bool wrap_horizontal = true,
                             HopNorm norm = HopNorm::kSum);
  // Symmetric use of one cluster-pair bandwidth matrix for both directions.
  static absl::StatusOr<ArrangementCost> Bandwidth(
      int32_t num_clusters, std::vector<double> bandwidth, double unit = 1.0);
  // Different horizontal and vertical matrices (MPDATA, Malik ch. 4).
  static absl::StatusOr<ArrangementCost> AsymmetricBandwidth(
      int32_t num_clusters, std::vector<double> horizontal,
      std::vector<double> vertical, double unit = 1.0);
};

// Errors: cluster count < 1; a matrix of the wrong size or with an entry not
// finite and > 0; unit not finite and > 0.
absl::Status ValidateCost(const ArrangementCost& cost);
// Errors: no columns, a column without rectangles, non-positive width or
// height, columns of different total height, a cluster outside [0,
// num_clusters), a processor id < 0 or repeated.
absl::Status ValidateArrangement(const Arrangement& m, int32_t num_clusters);

struct CostBreakdown {
  double a = 0;  // horizontal (matrix A, bands)
  double b = 0;  // vertical (matrix B, columns)
  double combined = 0;
};

// Cost of an arrangement. O(R * c) for R rectangles and c columns. Errors:
// those of ValidateCost and ValidateArrangement.
absl::StatusOr<CostBreakdown> EvaluateArrangement(const Arrangement& m,
                                                  const ArrangementCost& cost);

// Band heights (top to bottom) and the clusters of each band, left to right.
// O(R * c).
struct Bands {
  std::vector<int64_t> heights;
  std::vector<std::vector<int32_t>> clusters;
};
absl::StatusOr<Bands> ComputeBands(const Arrangement& m);

// Hop count of one ring (see the header comment). O(n).
int32_t RingHops(std::span<const int32_t> clusters, bool wrap);

// Each column's rectangles grouped by cluster, groups in order of first
// appearance, rectangles inside a group in their original order.
Arrangement GroupByCluster(const Arrangement& m);

enum class ArrangeAlgorithm { kHopGreedy, kBandwidthGreedy, kExhaustive };

struct ArrangeOptions {
  // Refuse (InvalidArgument) instead of running more candidate evaluations than
  // this,
  int64_t max_evaluations = 20'000'000;
  // or more steps than this: an evaluation sweeps up to (R + 1) * c band
  // entries for R rectangles in c columns (a few seconds at the limit).
  int64_t max_work = 4'000'000'000;
};

struct ArrangeResult {
  Arrangement arrangement;
  CostBreakdown cost;          // of `arrangement`
  CostBreakdown start_cost;    // of the input
  CostBreakdown grouped_cost;  // of GroupByCluster(input)
  // Candidate arrangements (or sub-matrices) scored; the start and grouped
  // start are not counted.
  int64_t evaluations = 0;
};

// Runs Algorithm 1, Algorithm 2 or the exhaustive oracle. The exhaustive search
// minimises the combined cost over all prod r_i! * c! arrangements (split
// groups included; with cyclic horizontal rings, prod r_i! * (c - 1)!: column
// orders are tried up to rotation, which changes no cost) and counts each full
// arrangement as one evaluation. Errors: invalid input, more evaluations than
// allowed.
absl::StatusOr<ArrangeResult> Arrange(const Arrangement& start,
                                      const ArrangementCost& cost,
                                      ArrangeAlgorithm algorithm,
                                      const ArrangeOptions& options = {});

// Processors column by column, top to bottom: new rank r runs on processor
// order[r].
std::vector<int32_t> ProcessorOrder(const Arrangement& m);

// The arrangement as a rows x cols partition (rows = column height, cols = sum
// of widths); owner = processor id. Errors: invalid arrangement, a processor id
// >= num_procs.
absl::StatusOr<Partition> ArrangementToPartition(const Arrangement& m,
                                                 int32_t num_procs);

// A column-based partition (every column a stack of full-width rectangles, one
// rectangle per processor) as an arrangement; cluster_of_proc[owner] gives the
// clusters. Errors: a partition that is not column-based, a cluster list of the
// wrong length.
absl::StatusOr<Arrangement> ArrangementFromPartition(
    const Partition& p, std::span<const int32_t> cluster_of_proc);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_ARRANGEMENT_H_
