#include "tiling/matmul_time.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tiling/volume.h"

namespace rankmap::tiling {
namespace {

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("matmul time: ", msg));
}

// Number of indices in [0, extent) that `owner`'s rectangles cover across the
// whole other dimension (full rows when `rows`, else full columns).
int64_t FullLines(const Partition& p, int32_t owner, bool rows) {
  const int64_t extent = rows ? p.rows : p.cols;
  const int64_t across = rows ? p.cols : p.rows;
  // Difference array of the covered length per line.
  std::vector<int64_t> diff(static_cast<size_t>(extent) + 1, 0);
  for (const Rect& r : p.rects) {
    if (r.owner != owner) continue;
    const int64_t start = rows ? r.row : r.col;
    const int64_t len = rows ? r.height : r.width;
    const int64_t span = rows ? r.width : r.height;
    diff[start] += span;
    diff[start + len] -= span;
  }
  int64_t full = 0, covered = 0;
  for (int64_t i = 0; i < extent; ++i) {
    covered += diff[i];
    full += covered == across;
  }
  return full;
}

struct Checked {
  std::vector<double> rate;  // elements of C per second, per owner
  std::vector<int64_t> area;
  double communication = 0;
};

absl::StatusOr<Checked> Check(const Partition& p,
                              std::span<const double> speeds,
                              const MatmulPlatform& platform) {
  if (speeds.size() != static_cast<size_t>(p.num_owners)) {
    return Invalid(
        absl::StrCat(speeds.size(), " speeds for ", p.num_owners, " owners"));
  }
  if (!(platform.bandwidth > 0) || !(platform.compute > 0) ||
      !std::isfinite(platform.bandwidth) || !std::isfinite(platform.compute)) {
    return Invalid("bandwidth and compute rate must be > 0");
  }
  ASSIGN_OR_RETURN(std::vector<double> s, NormalizeSpeeds(speeds));
  ASSIGN_OR_RETURN(VolumeMatrix v, MatmulVolumes(p));
  ASSIGN_OR_RETURN(LinkLoads loads, RouteVolumes(v, platform.network));
  Checked c;
  for (double x : s) c.rate.push_back(platform.compute * x);
  c.area = OwnerAreas(p);
  if (platform.link == LinkModel::kSerial) {
    c.communication = static_cast<double>(loads.Total()) / platform.bandwidth;
  } else {
    int64_t direct = 0, relayed = 0;
    for (size_t k = 0; k < loads.direct.size(); ++k) {
      direct = std::max(direct, loads.direct[k]);
      relayed = std::max(relayed, loads.relayed[k]);
    }
    c.communication =
        static_cast<double>(direct + relayed) / platform.bandwidth;
  }
  return c;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> ImmediateCells(const Partition& p) {
  RETURN_IF_ERROR(ValidatePartition(p));
  if (p.rows != p.cols) {
    return Invalid(
        absl::StrCat("partition ", p.rows, " x ", p.cols, " is not square"));
  }
  std::vector<int64_t> cells(p.num_owners);
  for (int32_t o = 0; o < p.num_owners; ++o) {
    cells[o] = FullLines(p, o, true) * FullLines(p, o, false);
  }
  return cells;
}

absl::StatusOr<MatmulTime> TimeWithoutOverlap(const Partition& p,
                                              std::span<const double> speeds,
                                              const MatmulPlatform& platform) {
  ASSIGN_OR_RETURN(Checked c, Check(p, speeds, platform));
  MatmulTime t;
  t.communication = c.communication;
  for (size_t i = 0; i < c.area.size(); ++i) {
    t.computation =
        std::max(t.computation, static_cast<double>(c.area[i]) / c.rate[i]);
  }
  t.total = t.communication + t.computation;
  return t;
}

absl::StatusOr<MatmulTime> TimeWithOverlap(const Partition& p,
                                           std::span<const double> speeds,
                                           const MatmulPlatform& platform) {
  ASSIGN_OR_RETURN(Checked c, Check(p, speeds, platform));
  ASSIGN_OR_RETURN(std::vector<int64_t> immediate, ImmediateCells(p));
  MatmulTime t;
  t.communication = c.communication;
  for (size_t i = 0; i < c.area.size(); ++i) {
    const double first = static_cast<double>(immediate[i]) / c.rate[i];
    const double rest =
        static_cast<double>(c.area[i] - immediate[i]) / c.rate[i];
    t.computation = std::max(t.computation, first + rest);
    t.total = std::max(t.total, std::max(c.communication, first) + rest);
  }
  return t;
}

}  // namespace rankmap::tiling
