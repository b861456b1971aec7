// Matrix partitions for heterogeneous matrix multiplication C = A x B.
//
// A Partition is a value: a rows x cols grid of cells (matrix elements or b x b
// blocks) tiled by axis-parallel rectangles, each owned by one of num_owners
// processors. An owner may hold several rectangles (the L-shaped rest of a
// Square-Corner partition is two rectangles). Owner ids are the indices of the
// speed vector the partition was built from.
//
// Invariants (ValidatePartition): every rectangle has positive size and lies
// inside the grid, the rectangles are pairwise disjoint and their areas sum to
// rows * cols, owners are in [0, num_owners).
//
// Partitioners (speeds are relative and need not sum to 1; they are
// normalised):
//   * ColumnBasedPartition: Beaumont et al.'s column-based DP minimising the
//     sum of half-perimeters (SHP) on the unit square;
//   * FpmColumnBasedPartition: FPM-BR, the same DP on the areas that balance
//     functional performance models (speed_function.h);
//   * KalinovLastovetskyPartition: caller-fixed columns, widths = column speed
//     sums;
//   * GridBasedPartition: r x c grid from GridShape (Lastovetsky's Algorithm
//     2.4), then K-L;
//   * SquareCornerPartition2/3, StraightLinePartition2: Becker's
//     Square-Corner with 2 or 3 processors and its straight-line rival.
// The first four return a ColumnLayout on the unit square; ToIntegerPartition
// rounds it to a grid. Rounding rule: column widths, then the heights inside
// each column, are apportioned by largest remainder (floor of the exact share,
// the leftover units to the largest fractional parts, ties to the lower index)
// with at least one cell each, so the sums are exact and each area is within
// one row/column strip of its exact value.
//
// Usage:
//   ASSIGN_OR_RETURN(ColumnLayout l, ColumnBasedPartition({4, 3, 2, 1}));
//   // l.HalfPerimeterSum() == 4.0
//   ASSIGN_OR_RETURN(Partition p, ToIntegerPartition(l, 128, 128));
#ifndef RANKMAP_TILING_PARTITION_H_
#define RANKMAP_TILING_PARTITION_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tiling/speed_function.h"

namespace rankmap::tiling {

// Cells [row, row + height) x [col, col + width), owned by `owner`.
struct Rect {
  int64_t row = 0;
  int64_t col = 0;
  int64_t height = 0;
  int64_t width = 0;
  int32_t owner = 0;

  int64_t area() const { return height * width; }
  friend bool operator==(const Rect&, const Rect&) = default;
};

struct Partition {
  int64_t rows = 0;
  int64_t cols = 0;
  int32_t num_owners = 0;
  std::vector<Rect> rects;

  friend bool operator==(const Partition&, const Partition&) = default;
};

// Checks every invariant above, and that the grid has at most 2^62 cells.
// O(R log R) for R rectangles. Errors name the first bad rectangle, or an
// overlapping pair.
absl::Status ValidatePartition(const Partition& p);

// Two overlapping rectangles (indices, the smaller first), or none. Every
// rectangle must have a positive size. A sweep down the rows: O(R log R).
std::optional<std::pair<size_t, size_t>> FindOverlappingRects(
    std::span<const Rect> rects);

// Cells per owner (length num_owners). O(R).
std::vector<int64_t> OwnerAreas(const Partition& p);

// Row-major owner of every cell (rows * cols entries, -1 where uncovered). For
// tests and small grids: O(rows * cols). Errors: a grid above 2^26 cells.
absl::StatusOr<std::vector<int32_t>> OwnerMap(const Partition& p);

// Speeds scaled to sum to 1. Errors: empty, or any speed not finite and > 0.
absl::StatusOr<std::vector<double>> NormalizeSpeeds(
    std::span<const double> speeds);

// A column-based partition of the unit square: column j has width widths[j] and
// stacks the processors columns[j] top to bottom, processor i with height
// speeds[i] / widths[j].
struct ColumnLayout {
  std::vector<double> speeds;  // normalised, indexed by processor
  std::vector<std::vector<int32_t>> columns;
  std::vector<double> widths;

  // Sum over rectangles of (width + height) on the unit square. O(p).
  double HalfPerimeterSum() const;
};

// Lower bound on the SHP of any partition into rectangles: 2 * sum sqrt(s_i).
// O(p).
double HalfPerimeterLowerBound(std::span<const double> normalized_speeds);

// The column DP's limit: O(p^2) steps, a few seconds at the limit.
inline constexpr int32_t kMaxColumnDpProcessors = 50000;

// Beaumont, Boudet, Rastello, Robert (2001): processors sorted by
// non-increasing speed (stable) fill the columns in order; beta(c, q) = min_j
// beta(c-1, q-j) + (j * W(q-j+1..q) + 1), evaluated as a one-index DP since the
// column count only adds 1 per column. Ties (within 1e-12) go to fewer columns,
// then to the shorter last column. O(p^2) time, O(p) memory. Errors: those of
// NormalizeSpeeds, more than kMaxColumnDpProcessors processors.
absl::StatusOr<ColumnLayout> ColumnBasedPartition(
    std::span<const double> speeds);

// FPM-BR (Malik 3.1.2, Table 3.1; seed 003 II-A): the sizes FpmBalance gives
// `total` cells (speeds as functions of problem size, all processors finishing
// together), handed to ColumnBasedPartition as relative speeds. With constant
// functions it is ColumnBasedPartition of those constants. Errors: those of
// FpmBalance and ColumnBasedPartition.
absl::StatusOr<ColumnLayout> FpmColumnBasedPartition(
    std::span<const SpeedFunction> functions, double total);

// Kalinov-Lastovetsky: the caller fixes the columns (processor ids, top to
// bottom); width of a column = sum of its speeds, height = speed / width. SHP =
// c + sum_j r_j w_j. O(p). Errors: bad speeds, an empty column, an id out of
// range or used twice or not at all.
absl::StatusOr<ColumnLayout> KalinovLastovetskyPartition(
    std::span<const double> speeds,
    const std::vector<std::vector<int32_t>>& columns);

// Lastovetsky's Algorithm 2.4: r = largest divisor of p not above sqrt(p), c =
// p / r (so r <= c and r + c is minimal). Returns {r, c}; {0, 0} for p <= 0.
// O(sqrt p).
std::pair<int32_t, int32_t> GridShape(int32_t p);

// Grid-based partition: shape {r, c} = GridShape(p); processors in index order
// fill column j with ids [j*r, (j+1)*r); then Kalinov-Lastovetsky. SHP = r + c.
// Errors: bad speeds.
absl::StatusOr<ColumnLayout> GridBasedPartition(std::span<const double> speeds);

// Rounds a layout onto a rows x cols grid with the largest-remainder rule
// described above. Errors: cols < number of columns, rows < size of a column,
// a side above 2^31 - 1.
absl::StatusOr<Partition> ToIntegerPartition(const ColumnLayout& layout,
                                             int64_t rows, int64_t cols);

// Largest-remainder apportionment of `total` units over `weights` (> 0) with at
// least `min_each` per entry; the result sums to `total`. Errors: total <
// min_each * size, total above 2^52 (beyond exact doubles), bad weights.
// O(n log n + min_each * n log n).
absl::StatusOr<std::vector<int64_t>> Apportion(std::span<const double> weights,
                                               int64_t total,
                                               int64_t min_each = 1);

// ---- Square-Corner (Becker)
// ------------------------------------------------------------------

// Side of the slower processor's square for speed ratio rho = s_fast / s_slow
// on an n x n matrix: round(n / sqrt(1 + rho)) clamped to [1, n - 1]. Requires
// n >= 2, rho > 0.
int64_t SquareCornerSide(int64_t n, double rho);

// Closed forms (elements, real-valued geometry) for two processors with ratio
// rho:
double SquareCornerTvc(double n, double rho);  // 2 n^2 / sqrt(1 + rho)
double StraightLineTvc(double n);              // n^2
// Dominant one-way volume (full-duplex links): SCP max(2n^2(x - x^2), 2n^2 x^2)
// with x = 1/sqrt(1+rho); SLP n^2 rho / (1 + rho).
double SquareCornerDominantVolume(double n, double rho);
double StraightLineDominantVolume(double n, double rho);

enum class LinkModel { kSerial, kFullDuplex };
// The two layouts of a matrix over 2 or 3 processors.
enum class MatrixShape { kStraightLine, kSquareCorner };

// Becker's hybrids: Square-Corner iff rho >= 3 (serial links, HSCP-SC) or rho
// >= 2 (full-duplex, HSCP-PC); at the threshold both shapes have equal volume.
double HybridThreshold(LinkModel link);
MatrixShape ChooseTwoProcessorShape(double rho, LinkModel link);

// Two processors on an n x n grid: the slower one (higher index on ties) owns
// the square [0, a)^2, a = SquareCornerSide(n, rho); the other owns [0,a) x
// [a,n) and [a,n) x [0,n). Errors: bad speeds, not exactly two, n < 2 or n >
// 2^31 - 1.
absl::StatusOr<Partition> SquareCornerPartition2(std::span<const double> speeds,
                                                 int64_t n);

// Straight line on an n x n grid: the faster processor owns columns [0, n - w),
// the slower the strip of width w = round(n * s_slow) clamped to [1, n-1].
// Errors: as above.
absl::StatusOr<Partition> StraightLinePartition2(std::span<const double> speeds,
                                                 int64_t n);

// Three processors: with s1 >= s2 >= s3 (normalised), feasible iff sqrt(s2) +
// sqrt(s3) <= 1 (equivalently s2 * s3 <= s1^2 / 4; the squares do not overlap).
// 1:1:1 is infeasible, 2:1:1 is the boundary case.
bool SquareCorner3Feasible(double s1, double s2, double s3);

// Three processors on an n x n grid: the middle one owns [0, a)^2, the slowest
// [n-b, n)^2 (a = round(n sqrt(s2)), b = round(n sqrt(s3)), at least 1), the
// fastest the rest (as up to four rectangles). Errors: bad speeds, not exactly
// three, infeasible after rounding (a + b > n).
absl::StatusOr<Partition> SquareCornerPartition3(std::span<const double> speeds,
                                                 int64_t n);

// Becker's closed forms: the oracles the tests hold the discrete partitions
// and the routed volumes to; no caller in the library.
namespace internal {

// SquareCorner3Feasible in Becker's form (s2 / s1) * (s3 / s1) <= 1/4.
bool SquareCorner3FeasibleRatioForm(double s1, double s2, double s3);

// Becker's closed forms on the unit square, s normalised with s[0] the
// largest: the SHP of the Square-Corner partition, 2 + 2 sum_{i >= 1}
// sqrt(s_i) (eq. 4.2; eq. 6.14 corrected, see the digest), for 2 or more
// processors. O(p).
double SquareCornerHalfPerimeterSum(std::span<const double> normalized_speeds);
// Three processors, s1 >= s2 >= s3 normalised: Square-Corner moves less data
// than the Straight-Line layout iff the margin is < 0. Fully connected (eq.
// 6.10/6.11): sqrt(s2) + sqrt(s3) - 1 + s1 / 2. Star with the fastest at the
// hub (eq. 6.8/6.9): sqrt(s2) + sqrt(s3) - 1.5 + s1, never > 0 where feasible.
double SquareCorner3FullyConnectedMargin(double s1, double s2, double s3);
double SquareCorner3StarMargin(double s1, double s2, double s3);

}  // namespace internal

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_PARTITION_H_
