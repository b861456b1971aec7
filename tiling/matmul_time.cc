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

// Number of indices of one dimension (rows when `rows`, else columns) that the
// rectangles `mine` cover across the whole other dimension: a sweep over
// their edges, O(R log R) for R rectangles whatever the grid's size.
int64_t FullLines(const Partition& p, const std::vector<const Rect*>& mine,
                  bool rows) {
  const int64_t across = rows ? p.cols : p.rows;
  std::vector<std::pair<int64_t, int64_t>> edges;  // (index, change of span)
  edges.reserve(2 * mine.size());
  for (const Rect* r : mine) {
    const int64_t start = rows ? r->row : r->col;
    const int64_t len = rows ? r->height : r->width;
    const int64_t span = rows ? r->width : r->height;
    edges.emplace_back(start, span);
    edges.emplace_back(start + len, -span);
  }
  std::sort(edges.begin(), edges.end());
  int64_t full = 0, covered = 0;
  for (size_t k = 0; k < edges.size(); ++k) {
    covered += edges[k].second;
    if (k + 1 < edges.size() && covered == across) {
      full += edges[k + 1].first - edges[k].first;
    }
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
  std::vector<std::vector<const Rect*>> by_owner(p.num_owners);
  for (const Rect& r : p.rects) by_owner[r.owner].push_back(&r);
  std::vector<int64_t> cells(p.num_owners);
  for (int32_t o = 0; o < p.num_owners; ++o) {
    // Full rows times full columns: within the owner's area, below 2^62.
    cells[o] =
        FullLines(p, by_owner[o], true) * FullLines(p, by_owner[o], false);
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
