#include "graphs/frontends/matrix_frontend.h"

#include <cmath>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "graphs/graph_readers.h"
#include "tiling/platform_arrangement.h"
#include "tiling/square_corner_choice.h"

namespace rankmap::graphs {

using tiling::ArrangeAlgorithm;
using tiling::ColumnLayout;
using tiling::CostBreakdown;
using tiling::HopNorm;
using tiling::LinkModel;
using tiling::MatrixShape;
using tiling::Network;
using tiling::Partition;
using tiling::Rect;
using tiling::VolumeMatrix;

namespace {

// A report line per processor pair (about 40 bytes) beside its volume.
constexpr int64_t kBytesPerPair = 48;

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("frontend: ", msg));
}

// Block-grid side; checks the sizes shared by both front ends.
absl::StatusOr<int64_t> GridSide(const MatrixFrontendOptions& o) {
  if (o.n < 1 || o.block < 1) {
    return Invalid(absl::StrCat("matrix size ", o.n, " and block ", o.block,
                                " must be >= 1"));
  }
  if (o.n > kMaxMatrixSide) {
    return Invalid(absl::StrCat("matrix size ", o.n, " is above the limit of ",
                                kMaxMatrixSide, " (--n)"));
  }
  if (o.n % o.block != 0) {
    return Invalid(absl::StrCat("matrix size ", o.n,
                                " is not a multiple of block ", o.block));
  }
  if (o.element_size < 1)
    return Invalid(absl::StrCat("element size ", o.element_size));
  return o.n / o.block;
}

// The processor count against the cap and the budget: the volumes of every
// pair, the graph they make and the report's line per pair.
absl::Status CheckProcessors(int64_t procs, const MatrixFrontendOptions& o) {
  if (procs > kMaxMatrixProcessors) {
    return Invalid(absl::StrCat(
        procs,
        " processors; the matrix front ends report the volume of every "
        "pair and take at most ",
        kMaxMatrixProcessors));
  }
  const int64_t pairs = procs * procs;
  return base::CheckMemory(
      absl::StrCat("frontend: the pairwise volumes of ", procs, " processors"),
      base::SaturatingMulAdd(pairs, kBytesPerPair,
                             EstimatedGraphBytes(procs, 2 * pairs)),
      base::MemoryBudget(o.max_memory_bytes));
}

CellSize Cell(const MatrixFrontendOptions& o) {
  return CellSize{o.block * o.block, o.element_size};
}

// `cells` of the block grid in elements (and, with bytes, in bytes), or an
// error: the total may pass 2^63 for matrices near the size limit.
absl::StatusOr<int64_t> Elements(int64_t cells, const MatrixFrontendOptions& o,
                                 bool bytes = false) {
  int64_t v = 0;
  if (__builtin_mul_overflow(cells, o.block * o.block, &v) ||
      (bytes && __builtin_mul_overflow(v, int64_t{o.element_size}, &v))) {
    return Invalid(absl::StrCat("a volume of ", cells, " blocks of ", o.block,
                                " x ", o.block, " elements of ", o.element_size,
                                " bytes exceeds 2^63 - 1 ",
                                bytes ? "bytes" : "elements"));
  }
  return v;
}

void ReportPartition(const Partition& p, const std::vector<double>& speeds,
                     int64_t block, std::string& out) {
  const std::vector<int64_t> areas = tiling::OwnerAreas(p);
  const double total_speed = std::accumulate(speeds.begin(), speeds.end(), 0.0);
  absl::StrAppendFormat(&out, "grid %d x %d blocks of %d x %d elements\n",
                        p.rows, p.cols, block, block);
  for (const Rect& r : p.rects) {
    absl::StrAppendFormat(&out, "  proc %d: rows [%d, %d) cols [%d, %d)\n",
                          r.owner, r.row, r.row + r.height, r.col,
                          r.col + r.width);
  }
  for (int32_t i = 0; i < p.num_owners; ++i) {
    absl::StrAppendFormat(
        &out,
        "  proc %d: area %d blocks (%.4f of the matrix, speed share %.4f)\n", i,
        areas[i],
        static_cast<double>(areas[i]) /
            (static_cast<double>(p.rows) * static_cast<double>(p.cols)),
        speeds[i] / total_speed);
  }
}

// Every entry is at most the total, so one check on the total covers them.
absl::Status ReportVolumes(const VolumeMatrix& v,
                           const MatrixFrontendOptions& o, std::string& out) {
  ASSIGN_OR_RETURN(const int64_t tvc, Elements(v.Total(), o));
  ASSIGN_OR_RETURN(const int64_t tvc_bytes, Elements(v.Total(), o, true));
  const int64_t elements_per_cell = o.block * o.block;
  absl::StrAppendFormat(&out, "TVC %d elements (%d bytes)\n", tvc, tvc_bytes);
  absl::StrAppendFormat(&out, "largest one-way volume %d elements\n",
                        v.MaxDirected() * elements_per_cell);
  for (int32_t q = 0; q < v.num_owners; ++q) {
    for (int32_t p = 0; p < v.num_owners; ++p) {
      if (v.at(q, p) != 0) {
        absl::StrAppendFormat(&out, "  %d -> %d: %d elements\n", q, p,
                              v.at(q, p) * elements_per_cell);
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<MatrixFrontendResult> Finish(Partition p,
                                            const MatrixFrontendOptions& o,
                                            CommGraph graph,
                                            std::string report) {
  MatrixFrontendResult r;
  ASSIGN_OR_RETURN(r.volumes, tiling::MatmulVolumes(p));
  RETURN_IF_ERROR(ReportVolumes(r.volumes, o, report));
  r.rank_order.resize(p.num_owners);
  std::iota(r.rank_order.begin(), r.rank_order.end(), 0);
  // Owners are processors: vertex u's share was computed for speeds[u].
  if (o.speed_functions.empty() && !o.partition.has_value() &&
      o.speeds.size() == static_cast<size_t>(p.num_owners)) {
    r.process_speed = o.speeds;
  }
  r.partition = std::move(p);
  r.graph = std::move(graph);
  r.report = std::move(report);
  return r;
}

void ReportCost(const char* what, const CostBreakdown& c, std::string& out) {
  absl::StrAppendFormat(&out, "%s: A %.2f B %.2f total %.2f\n", what, c.a, c.b,
                        c.combined);
}

// Rearranges p on the platform of `o` (tiling/platform_arrangement.h) and
// reports the hop cost, and the bandwidth cost when a matrix is given, before
// and after.
absl::Status Rearrange(const MatrixFrontendOptions& o, Partition& p,
                       std::vector<int32_t>& order, std::string& report) {
  if (o.arrange == ArrangeAlgorithm::kBandwidthGreedy && o.bandwidth.empty()) {
    return Invalid("the bandwidth arrangement needs a bandwidth matrix");
  }
  tiling::ArrangementPlatform platform;
  platform.clusters = o.clusters;
  platform.num_clusters = o.num_clusters;
  platform.bandwidth = o.bandwidth;
  platform.unit = static_cast<double>(o.block * o.element_size);
  platform.hop_norm = o.hop_norm;
  ASSIGN_OR_RETURN(tiling::PlatformArrangement arranged,
                   tiling::ArrangeOnPlatform(p, platform, o.arrange));
  const std::string name = arranged.algorithm == ArrangeAlgorithm::kExhaustive
                               ? "exhaustive search"
                           : arranged.by_hops ? "Algorithm 1"
                                              : "Algorithm 2";
  const std::string after = absl::StrCat(" after ", name, " (",
                                         arranged.evaluations, " evaluations)");
  const std::string hop_name = absl::StrCat(
      "hop cost (", o.hop_norm == HopNorm::kSum ? "A + B" : "sqrt(A^2 + B^2)",
      ")");
  ReportCost(absl::StrCat(hop_name, " before").c_str(), arranged.hop_before,
             report);
  ReportCost(absl::StrCat(hop_name, after).c_str(), arranged.hop_after, report);
  if (arranged.bandwidth_before.has_value()) {
    ReportCost("bandwidth cost before", *arranged.bandwidth_before, report);
    ReportCost(absl::StrCat("bandwidth cost", after).c_str(),
               *arranged.bandwidth_after, report);
  }
  p = std::move(arranged.partition);
  order = std::move(arranged.order);
  report += "rank order (rank r runs on processor):";
  for (int32_t proc : order) absl::StrAppend(&report, " ", proc);
  report += "\n";
  return absl::OkStatus();
}

// The report lines of the Square-Corner choice (tiling/square_corner_choice.h).
absl::Status ReportShapeChoice(const MatrixFrontendOptions& o, size_t procs,
                               const tiling::ShapeChoice& c,
                               std::string& report) {
  if (procs == 2) {
    absl::StrAppendFormat(
        &report, "speed ratio rho = %.6f; hybrid threshold %.0f (%s links)\n",
        c.rho, tiling::HybridThreshold(o.link),
        o.link == LinkModel::kSerial ? "serial" : "full-duplex");
    const double n = static_cast<double>(o.n);
    absl::StrAppendFormat(
        &report,
        "model TVC: square-corner %.1f, straight-line %.1f elements; dominant "
        "direction: square-corner %.1f, straight-line %.1f\n",
        tiling::SquareCornerTvc(n, c.rho), tiling::StraightLineTvc(n),
        tiling::SquareCornerDominantVolume(n, c.rho),
        tiling::StraightLineDominantVolume(n, c.rho));
    report += c.shape == MatrixShape::kSquareCorner
                  ? "partition: square-corner\n"
                  : "partition: straight-line\n";
    return absl::OkStatus();
  }
  absl::StrAppendFormat(
      &report, "square-corner feasible (sqrt(s2) + sqrt(s3) <= 1): %s\n",
      c.feasible ? "yes" : "no");
  const bool star = c.network.kind == Network::Kind::kStar;
  ASSIGN_OR_RETURN(const int64_t slp_elements,
                   Elements(c.straight_line_volume, o));
  absl::StrAppendFormat(
      &report, "network: %s; %s volume: straight-line %d",
      star ? absl::StrCat("star, hub processor ", c.network.hub)
           : std::string("fully connected"),
      o.link == LinkModel::kSerial ? "routed total" : "busiest link",
      slp_elements);
  if (c.square_corner_volume >= 0) {
    ASSIGN_OR_RETURN(const int64_t scp_elements,
                     Elements(c.square_corner_volume, o));
    absl::StrAppendFormat(&report, ", square-corner %d", scp_elements);
  }
  report += " elements\n";
  report +=
      c.shape == MatrixShape::kSquareCorner
          ? "partition: square-corner (two squares in opposite corners)\n"
          : "partition: straight-line (fastest left, two stacked right)\n";
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MatrixFrontendResult> SummaFrontend(
    const MatrixFrontendOptions& options) {
  MatrixFrontendOptions o = options;
  if (o.partition.has_value() && o.n == 0 &&
      __builtin_mul_overflow(o.partition->rows, o.block, &o.n)) {
    return Invalid(absl::StrCat("a partition of ", o.partition->rows,
                                " rows of blocks of ", o.block,
                                " elements is too large"));
  }
  ASSIGN_OR_RETURN(int64_t side, GridSide(o));
  RETURN_IF_ERROR(
      CheckProcessors(o.partition.has_value() ? o.partition->num_owners
                      : !o.speed_functions.empty()
                          ? static_cast<int64_t>(o.speed_functions.size())
                          : static_cast<int64_t>(o.speeds.size()),
                      o));
  std::optional<ColumnLayout> layout;
  std::string report;
  Partition p;
  if (o.partition.has_value()) {
    p = *o.partition;
    RETURN_IF_ERROR(tiling::ValidatePartition(p));
    if (p.rows != side || p.cols != side) {
      return Invalid(absl::StrCat("the given partition is ", p.rows, " x ",
                                  p.cols, " blocks, the matrix ", side, " x ",
                                  side));
    }
    report =
        absl::StrCat("partition: given (", p.rects.size(), " rectangles)\n");
  } else if (!o.speed_functions.empty()) {
    ASSIGN_OR_RETURN(layout,
                     tiling::FpmColumnBasedPartition(
                         o.speed_functions, static_cast<double>(side) * side));
    report =
        "partition: column-based FPM-BR (speed functions balanced, then "
        "Beaumont et al. DP)\n";
  } else if (o.partitioner == SummaPartitioner::kColumnDp) {
    ASSIGN_OR_RETURN(layout, tiling::ColumnBasedPartition(o.speeds));
    report = "partition: column-based (Beaumont et al. DP)\n";
  } else {
    ASSIGN_OR_RETURN(layout, tiling::GridBasedPartition(o.speeds));
    report = "partition: grid-based (Kalinov-Lastovetsky columns)\n";
  }
  if (layout.has_value()) {
    ASSIGN_OR_RETURN(p, tiling::ToIntegerPartition(*layout, side, side));
  }
  std::vector<int32_t> order(p.num_owners);
  std::iota(order.begin(), order.end(), 0);
  if (!o.clusters.empty() || !o.bandwidth.empty()) {
    RETURN_IF_ERROR(Rearrange(o, p, order, report));
  }
  // Speed shares for the report: the given speeds, else the balanced areas.
  std::vector<double> shares;
  if (o.speeds.size() == static_cast<size_t>(p.num_owners)) {
    shares = o.speeds;
  } else if (layout.has_value()) {
    shares = layout->speeds;
  } else {
    for (int64_t a : tiling::OwnerAreas(p))
      shares.push_back(static_cast<double>(a));
  }
  ReportPartition(p, shares, o.block, report);
  if (layout.has_value()) {
    absl::StrAppendFormat(
        &report,
        "sum of half-perimeters %.6f (unit square), lower bound %.6f\n",
        layout->HalfPerimeterSum(),
        tiling::HalfPerimeterLowerBound(layout->speeds));
  }
  absl::StrAppend(&report,
                  "flow: ", o.flow == PivotFlow::kRing ? "ring" : "one-to-all",
                  "\n");
  ASSIGN_OR_RETURN(CommGraph g, HeterogeneousSummaGraph(p, o.flow, Cell(o)));
  ASSIGN_OR_RETURN(MatrixFrontendResult r,
                   Finish(std::move(p), o, std::move(g), report));
  r.rank_order = std::move(order);
  return r;
}

absl::StatusOr<MatrixFrontendResult> SquareCornerFrontend(
    const MatrixFrontendOptions& o) {
  ASSIGN_OR_RETURN(int64_t side, GridSide(o));
  ASSIGN_OR_RETURN(std::vector<double> s, tiling::NormalizeSpeeds(o.speeds));
  if (s.size() != 2 && s.size() != 3) {
    return Invalid(
        absl::StrCat("square-corner takes 2 or 3 speeds, got ", s.size()));
  }
  tiling::ShapeChoiceOptions choice;
  choice.shape = o.shape;
  choice.link = o.link;
  choice.network = o.network;
  choice.hub = o.hub;
  ASSIGN_OR_RETURN(tiling::ShapeChoice c,
                   tiling::ChooseMatrixShape(o.speeds, side, choice));
  std::string report;
  RETURN_IF_ERROR(ReportShapeChoice(o, s.size(), c, report));
  ReportPartition(c.partition, o.speeds, o.block, report);
  ASSIGN_OR_RETURN(CommGraph g, SquareCornerGraph(c.partition, Cell(o)));
  return Finish(std::move(c.partition), o, std::move(g), std::move(report));
}

}  // namespace rankmap::graphs
