#include "tiling/partition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::tiling {
namespace {

constexpr double kTieEps = 1e-12;
constexpr int64_t kMaxMapCells = int64_t{1} << 26;
constexpr int64_t kMaxPartitionCells = int64_t{1} << 62;
constexpr int64_t kMaxApportionTotal = int64_t{1} << 52;
// Sides of the partitions built here: areas and volumes stay below 2^63.
constexpr int64_t kMaxPartitionSide = (int64_t{1} << 31) - 1;

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("tiling/partition: ", msg));
}

absl::Status CheckSide(int64_t n, int64_t least) {
  if (n < least) return Invalid(absl::StrCat("matrix size ", n, " < ", least));
  if (n > kMaxPartitionSide) {
    return Invalid(absl::StrCat("matrix size ", n, " is above 2^31 - 1"));
  }
  return absl::OkStatus();
}

// Indices of the speeds sorted by non-increasing speed, ties by index.
std::vector<int32_t> ByDecreasingSpeed(std::span<const double> s) {
  std::vector<int32_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return s[a] > s[b]; });
  return order;
}

int64_t ClampSide(double x, int64_t lo, int64_t hi) {
  int64_t v = static_cast<int64_t>(std::llround(x));
  return std::clamp(v, lo, hi);
}

void AddRect(Partition& p, int64_t row, int64_t col, int64_t h, int64_t w,
             int32_t owner) {
  if (h > 0 && w > 0) p.rects.push_back(Rect{row, col, h, w, owner});
}

// Lifts the entries below min_each by taking one unit at a time from the
// largest entry (the first of equal ones), as a heap of (value, -index) with
// stale entries refreshed when they surface: O((n + lifts) log n) instead of
// a scan per unit. The sum must allow every entry min_each.
void LiftToMinimum(int64_t min_each, std::vector<int64_t>& out) {
  std::priority_queue<std::pair<int64_t, int64_t>> donors;
  for (size_t i = 0; i < out.size(); ++i) {
    donors.push({out[i], -static_cast<int64_t>(i)});
  }
  for (size_t i = 0; i < out.size(); ++i) {
    while (out[i] < min_each) {
      const auto [value, neg] = donors.top();
      donors.pop();
      const int64_t d = -neg;
      if (value != out[d]) {  // stale
        donors.push({out[d], neg});
        continue;
      }
      --out[d];
      ++out[i];
      donors.push({out[d], neg});
    }
  }
}

}  // namespace

std::optional<std::pair<size_t, size_t>> FindOverlappingRects(
    std::span<const Rect> rects) {
  // Sweep down the rows: at each row the rectangles that end there leave
  // before those that start there enter. The rectangles crossing the sweep row
  // are disjoint column intervals, kept by first column, so a new one overlaps
  // one of them iff it overlaps its neighbour on either side in that order.
  struct Event {
    int64_t row;
    bool enter;
    size_t rect;
  };
  std::vector<Event> events;
  events.reserve(2 * rects.size());
  for (size_t i = 0; i < rects.size(); ++i) {
    events.push_back({rects[i].row, true, i});
    events.push_back({rects[i].row + rects[i].height, false, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return std::tie(a.row, a.enter, a.rect) < std::tie(b.row, b.enter, b.rect);
  });
  std::map<int64_t, size_t> active;  // first column -> rectangle
  auto pair = [](size_t a, size_t b) {
    return std::make_pair(std::min(a, b), std::max(a, b));
  };
  for (const Event& e : events) {
    const Rect& r = rects[e.rect];
    if (!e.enter) {
      active.erase(r.col);
      continue;
    }
    const auto next = active.lower_bound(r.col);
    if (next != active.end() && next->first < r.col + r.width) {
      return pair(next->second, e.rect);
    }
    if (next != active.begin()) {
      const size_t left = std::prev(next)->second;
      if (rects[left].col + rects[left].width > r.col) {
        return pair(left, e.rect);
      }
    }
    active.emplace(r.col, e.rect);
  }
  return std::nullopt;
}

absl::Status ValidatePartition(const Partition& p) {
  if (p.rows <= 0 || p.cols <= 0) {
    return Invalid(absl::StrCat("grid ", p.rows, " x ", p.cols, " is empty"));
  }
  if (p.rows > kMaxPartitionCells / p.cols) {
    return Invalid(absl::StrCat("grid ", p.rows, " x ", p.cols,
                                " has more than 2^62 cells"));
  }
  if (p.num_owners <= 0) return Invalid("no owners");
  __int128 area = 0;
  for (size_t i = 0; i < p.rects.size(); ++i) {
    const Rect& r = p.rects[i];
    if (r.height <= 0 || r.width <= 0 || r.row < 0 || r.col < 0 ||
        r.row > p.rows - r.height || r.col > p.cols - r.width) {
      return Invalid(absl::StrCat(
          "rectangle ", i, " (", r.row, ",", r.col, ") ", r.height, "x",
          r.width, " is empty or outside the ", p.rows, "x", p.cols, " grid"));
    }
    if (r.owner < 0 || r.owner >= p.num_owners) {
      return Invalid(absl::StrCat("rectangle ", i, " has owner ", r.owner,
                                  " outside [0, ", p.num_owners, ")"));
    }
    area += static_cast<__int128>(r.height) * r.width;
  }
  if (const auto overlap = FindOverlappingRects(p.rects)) {
    return Invalid(absl::StrCat("rectangles ", overlap->first, " and ",
                                overlap->second, " overlap"));
  }
  if (area != static_cast<__int128>(p.rows) * p.cols) {
    return Invalid(absl::StrCat("rectangles cover ",
                                area > kMaxPartitionCells
                                    ? std::string("more than 2^62")
                                    : absl::StrCat(static_cast<int64_t>(area)),
                                " of ", p.rows * p.cols, " cells"));
  }
  return absl::OkStatus();
}

std::vector<int64_t> OwnerAreas(const Partition& p) {
  std::vector<int64_t> areas(std::max(p.num_owners, 0), 0);
  for (const Rect& r : p.rects) {
    if (r.owner >= 0 && r.owner < p.num_owners) areas[r.owner] += r.area();
  }
  return areas;
}

absl::StatusOr<std::vector<int32_t>> OwnerMap(const Partition& p) {
  if (p.rows <= 0 || p.cols <= 0 || p.rows > kMaxMapCells / p.cols) {
    return Invalid(
        absl::StrCat("owner map of a ", p.rows, " x ", p.cols, " grid"));
  }
  std::vector<int32_t> map(static_cast<size_t>(p.rows * p.cols), -1);
  for (const Rect& r : p.rects) {
    for (int64_t i = std::max<int64_t>(r.row, 0);
         i < std::min(r.row + r.height, p.rows); ++i) {
      for (int64_t j = std::max<int64_t>(r.col, 0);
           j < std::min(r.col + r.width, p.cols); ++j) {
        map[i * p.cols + j] = r.owner;
      }
    }
  }
  return map;
}

absl::StatusOr<std::vector<double>> NormalizeSpeeds(
    std::span<const double> speeds) {
  if (speeds.empty()) return Invalid("no speeds");
  double sum = 0;
  for (size_t i = 0; i < speeds.size(); ++i) {
    if (!std::isfinite(speeds[i]) || speeds[i] <= 0) {
      return Invalid(
          absl::StrCat("speed ", i, " is ", speeds[i], "; speeds must be > 0"));
    }
    sum += speeds[i];
  }
  if (!std::isfinite(sum)) return Invalid("speeds overflow");
  std::vector<double> out(speeds.begin(), speeds.end());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] /= sum;
    if (out[i] <= 0) {
      return Invalid(absl::StrCat("speed ", i, " is ", speeds[i],
                                  ", too small next to their sum ", sum));
    }
  }
  return out;
}

double ColumnLayout::HalfPerimeterSum() const {
  double shp = 0;
  for (size_t j = 0; j < columns.size(); ++j) {
    for (int32_t i : columns[j]) shp += widths[j] + speeds[i] / widths[j];
  }
  return shp;
}

double HalfPerimeterLowerBound(std::span<const double> normalized_speeds) {
  double lb = 0;
  for (double s : normalized_speeds) lb += 2 * std::sqrt(s);
  return lb;
}

absl::StatusOr<ColumnLayout> ColumnBasedPartition(
    std::span<const double> speeds) {
  ASSIGN_OR_RETURN(std::vector<double> s, NormalizeSpeeds(speeds));
  const int32_t p = static_cast<int32_t>(s.size());
  const std::vector<int32_t> order = ByDecreasingSpeed(s);
  // prefix[q] = sum of the q fastest speeds.
  std::vector<double> prefix(p + 1, 0);
  for (int32_t q = 0; q < p; ++q) prefix[q + 1] = prefix[q] + s[order[q]];
  auto colcost = [&](int32_t first,
                     int32_t last) {  // processors [first, last), 0-based
    return (last - first) * (prefix[last] - prefix[first]) + 1.0;
  };
  if (p > kMaxColumnDpProcessors) {
    return Invalid(absl::StrCat(p, " processors; the column DP takes at most ",
                                kMaxColumnDpProcessors));
  }
  // The column count only adds 1 per column, so one pass over q suffices (an
  // O(p^2) form of beta(c, q)): best[q] = min over the last column size j of
  // best[q - j] + colcost. Ties (within kTieEps) go to fewer columns, then to
  // the smaller j.
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> best(p + 1, kInf);
  std::vector<int32_t> ncols(p + 1, 0), last(p + 1, 0);
  best[0] = 0;
  for (int32_t q = 1; q <= p; ++q) {
    for (int32_t j = 1; j <= q; ++j) {
      const double cand = best[q - j] + colcost(q - j, q);
      const int32_t cand_cols = ncols[q - j] + 1;
      if (cand < best[q] - kTieEps ||
          (cand <= best[q] + kTieEps && cand_cols < ncols[q])) {
        best[q] = cand;
        ncols[q] = cand_cols;
        last[q] = j;
      }
    }
  }
  ColumnLayout layout;
  layout.speeds = s;
  std::vector<std::vector<int32_t>> cols;
  for (int32_t q = p; q > 0;) {
    const int32_t j = last[q];
    cols.emplace_back(order.begin() + (q - j), order.begin() + q);
    q -= j;
  }
  std::reverse(cols.begin(), cols.end());
  for (auto& col : cols) {
    double w = 0;
    for (int32_t i : col) w += s[i];
    layout.widths.push_back(w);
  }
  layout.columns = std::move(cols);
  return layout;
}

absl::StatusOr<ColumnLayout> FpmColumnBasedPartition(
    std::span<const SpeedFunction> functions, double total) {
  ASSIGN_OR_RETURN(std::vector<double> sizes, FpmBalance(functions, total));
  return ColumnBasedPartition(sizes);
}

absl::StatusOr<ColumnLayout> KalinovLastovetskyPartition(
    std::span<const double> speeds,
    const std::vector<std::vector<int32_t>>& columns) {
  ASSIGN_OR_RETURN(std::vector<double> s, NormalizeSpeeds(speeds));
  const int32_t p = static_cast<int32_t>(s.size());
  std::vector<bool> seen(p, false);
  ColumnLayout layout;
  layout.speeds = s;
  for (size_t j = 0; j < columns.size(); ++j) {
    if (columns[j].empty())
      return Invalid(absl::StrCat("column ", j, " is empty"));
    double w = 0;
    for (int32_t i : columns[j]) {
      if (i < 0 || i >= p) {
        return Invalid(absl::StrCat("column ", j, ": processor ", i,
                                    " outside [0, ", p, ")"));
      }
      if (seen[i])
        return Invalid(absl::StrCat("processor ", i, " appears twice"));
      seen[i] = true;
      w += s[i];
    }
    layout.widths.push_back(w);
  }
  for (int32_t i = 0; i < p; ++i) {
    if (!seen[i])
      return Invalid(absl::StrCat("processor ", i, " is in no column"));
  }
  layout.columns = columns;
  return layout;
}

std::pair<int32_t, int32_t> GridShape(int32_t p) {
  if (p <= 0) return {0, 0};
  int32_t r = static_cast<int32_t>(std::sqrt(static_cast<double>(p)));
  while (static_cast<int64_t>(r + 1) * (r + 1) <= p)
    ++r;  // exact floor(sqrt(p))
  while (static_cast<int64_t>(r) * r > p) --r;
  while (r > 1 && p % r != 0) --r;
  return {r, p / r};
}

absl::StatusOr<ColumnLayout> GridBasedPartition(
    std::span<const double> speeds) {
  if (speeds.empty()) return Invalid("no speeds");
  auto [r, c] = GridShape(static_cast<int32_t>(speeds.size()));
  std::vector<std::vector<int32_t>> columns(c);
  for (int32_t j = 0; j < c; ++j) {
    for (int32_t i = 0; i < r; ++i) columns[j].push_back(j * r + i);
  }
  return KalinovLastovetskyPartition(speeds, columns);
}

absl::StatusOr<std::vector<int64_t>> Apportion(std::span<const double> weights,
                                               int64_t total,
                                               int64_t min_each) {
  const int64_t n = static_cast<int64_t>(weights.size());
  if (n == 0) return Invalid("nothing to apportion");
  if (total > kMaxApportionTotal) {
    return Invalid(absl::StrCat("cannot apportion ", total,
                                " units: at most 2^52 are exact"));
  }
  int64_t least = 0;
  if (min_each < 0 || __builtin_mul_overflow(min_each, n, &least) ||
      total < least) {
    return Invalid(absl::StrCat("cannot give ", n, " parts at least ", min_each,
                                " of ", total, " units"));
  }
  double sum = 0;
  for (double w : weights) {
    if (!std::isfinite(w) || w <= 0)
      return Invalid("apportion weights must be > 0");
    sum += w;
  }
  if (!std::isfinite(sum)) return Invalid("apportion weights overflow");
  std::vector<int64_t> out(n);
  std::vector<double> frac(n);
  int64_t used = 0;
  for (int64_t i = 0; i < n; ++i) {
    // weights[i] / sum <= 1, so exact <= total <= 2^52 converts exactly.
    const double exact = weights[i] / sum * static_cast<double>(total);
    out[i] = static_cast<int64_t>(std::floor(exact));
    frac[i] = exact - static_cast<double>(out[i]);
    used += out[i];
  }
  std::vector<int64_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int64_t a, int64_t b) { return frac[a] > frac[b]; });
  // Floating error leaves used within a few units per entry of total, in
  // either direction, so these loops run O(n) times.
  for (int64_t t = 0; used < total; t = (t + 1) % n, ++used) ++out[idx[t]];
  for (int64_t t = n - 1; used > total; t = (t + n - 1) % n) {
    if (out[idx[t]] > 0) {
      --out[idx[t]];
      --used;
    }
  }
  LiftToMinimum(min_each, out);
  return out;
}

absl::StatusOr<Partition> ToIntegerPartition(const ColumnLayout& layout,
                                             int64_t rows, int64_t cols) {
  if (layout.columns.size() != layout.widths.size() || layout.columns.empty()) {
    return Invalid("malformed column layout");
  }
  if (rows > kMaxPartitionSide || cols > kMaxPartitionSide) {
    return Invalid(absl::StrCat("grid ", rows, " x ", cols,
                                " is larger than 2^31 - 1 on a side"));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> widths, Apportion(layout.widths, cols));
  Partition p;
  p.rows = rows;
  p.cols = cols;
  p.num_owners = static_cast<int32_t>(layout.speeds.size());
  int64_t col = 0;
  for (size_t j = 0; j < layout.columns.size(); ++j) {
    std::vector<double> w;
    for (int32_t i : layout.columns[j]) {
      if (i < 0 || i >= p.num_owners)
        return Invalid("column layout names an unknown processor");
      w.push_back(layout.speeds[i]);
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> heights, Apportion(w, rows));
    int64_t row = 0;
    for (size_t t = 0; t < heights.size(); ++t) {
      p.rects.push_back(
          Rect{row, col, heights[t], widths[j], layout.columns[j][t]});
      row += heights[t];
    }
    col += widths[j];
  }
  return p;
}

// ---- Square-Corner
// ---------------------------------------------------------------------------

int64_t SquareCornerSide(int64_t n, double rho) {
  return ClampSide(static_cast<double>(n) / std::sqrt(1.0 + rho), 1,
                   std::max<int64_t>(n - 1, 1));
}

double SquareCornerTvc(double n, double rho) {
  return 2 * n * n / std::sqrt(1 + rho);
}
double StraightLineTvc(double n) { return n * n; }

double SquareCornerDominantVolume(double n, double rho) {
  double x = 1 / std::sqrt(1 + rho);
  return std::max(2 * n * n * (x - x * x), 2 * n * n * x * x);
}
double StraightLineDominantVolume(double n, double rho) {
  return n * n * rho / (1 + rho);
}

double HybridThreshold(LinkModel link) {
  return link == LinkModel::kSerial ? 3.0 : 2.0;
}

MatrixShape ChooseTwoProcessorShape(double rho, LinkModel link) {
  return rho >= HybridThreshold(link) ? MatrixShape::kSquareCorner
                                      : MatrixShape::kStraightLine;
}

absl::StatusOr<Partition> SquareCornerPartition2(std::span<const double> speeds,
                                                 int64_t n) {
  if (speeds.size() != 2) {
    return Invalid(
        absl::StrCat("square-corner needs 2 speeds here, got ", speeds.size()));
  }
  RETURN_IF_ERROR(CheckSide(n, 2));
  ASSIGN_OR_RETURN(std::vector<double> s, NormalizeSpeeds(speeds));
  const int32_t fast = s[0] >= s[1] ? 0 : 1;
  const int32_t slow = 1 - fast;
  const int64_t a = SquareCornerSide(n, s[fast] / s[slow]);
  Partition p{n, n, 2, {}};
  AddRect(p, 0, 0, a, a, slow);
  AddRect(p, 0, a, a, n - a, fast);
  AddRect(p, a, 0, n - a, n, fast);
  return p;
}

absl::StatusOr<Partition> StraightLinePartition2(std::span<const double> speeds,
                                                 int64_t n) {
  if (speeds.size() != 2) {
    return Invalid(
        absl::StrCat("straight line needs 2 speeds, got ", speeds.size()));
  }
  RETURN_IF_ERROR(CheckSide(n, 2));
  ASSIGN_OR_RETURN(std::vector<double> s, NormalizeSpeeds(speeds));
  const int32_t fast = s[0] >= s[1] ? 0 : 1;
  const int32_t slow = 1 - fast;
  const int64_t w = ClampSide(static_cast<double>(n) * s[slow], 1, n - 1);
  Partition p{n, n, 2, {}};
  AddRect(p, 0, 0, n, n - w, fast);
  AddRect(p, 0, n - w, n, w, slow);
  return p;
}

bool SquareCorner3Feasible(double s1, double s2, double s3) {
  double sum = s1 + s2 + s3;
  return std::sqrt(s2 / sum) + std::sqrt(s3 / sum) <= 1.0;
}

namespace {

// The two squares [0, a)^2 (p2) and [n-b, n)^2 (p3), p1 owning the rest.
absl::StatusOr<Partition> BuildSquareCorner3(int64_t n, int64_t a, int64_t b,
                                             int32_t p1, int32_t p2,
                                             int32_t p3) {
  if (a + b > n) {
    return Invalid(
        absl::StrCat("squares of sides ", a, " and ", b, " do not fit in ", n));
  }
  Partition p{n, n, 3, {}};
  AddRect(p, 0, 0, a, a, p2);
  AddRect(p, n - b, n - b, b, b, p3);
  // The fastest processor's region, as four rectangles: right of the top
  // square, the middle band, left of the bottom square.
  AddRect(p, 0, a, a, n - a, p1);
  AddRect(p, a, 0, n - a - b, n, p1);
  AddRect(p, n - b, 0, b, n - b, p1);
  return p;
}

// Normalised speeds, ordered fastest first, after the checks shared by the
// three-processor Square-Corner partitions.
absl::StatusOr<std::pair<std::vector<double>, std::vector<int32_t>>>
SquareCorner3Speeds(std::span<const double> speeds, int64_t n) {
  if (speeds.size() != 3) {
    return Invalid(absl::StrCat("three-way square-corner needs 3 speeds, got ",
                                speeds.size()));
  }
  RETURN_IF_ERROR(CheckSide(n, 3));
  ASSIGN_OR_RETURN(std::vector<double> s, NormalizeSpeeds(speeds));
  std::vector<int32_t> order = ByDecreasingSpeed(s);
  if (!SquareCorner3Feasible(s[order[0]], s[order[1]], s[order[2]])) {
    return Invalid(absl::StrCat(
        "speeds ", s[order[0]], ":", s[order[1]], ":", s[order[2]],
        " are infeasible for square-corner (sqrt(s2) + sqrt(s3) > 1)"));
  }
  return std::make_pair(std::move(s), std::move(order));
}

}  // namespace

absl::StatusOr<Partition> SquareCornerPartition3(std::span<const double> speeds,
                                                 int64_t n) {
  ASSIGN_OR_RETURN(auto so, SquareCorner3Speeds(speeds, n));
  const auto& [s, order] = so;
  const double dn = static_cast<double>(n);
  const int64_t a = ClampSide(dn * std::sqrt(s[order[1]]), 1, n - 1);
  const int64_t b = ClampSide(dn * std::sqrt(s[order[2]]), 1, n - 1);
  return BuildSquareCorner3(n, a, b, order[0], order[1], order[2]);
}

namespace internal {

bool SquareCorner3FeasibleRatioForm(double s1, double s2, double s3) {
  return (s2 / s1) * (s3 / s1) <= 0.25;
}

double SquareCornerHalfPerimeterSum(std::span<const double> normalized_speeds) {
  double sum = 0;
  for (size_t i = 1; i < normalized_speeds.size(); ++i) {
    sum += std::sqrt(normalized_speeds[i]);
  }
  return 2.0 + 2.0 * sum;
}

double SquareCorner3FullyConnectedMargin(double s1, double s2, double s3) {
  return std::sqrt(s2) + std::sqrt(s3) - 1.0 + s1 / 2.0;
}

double SquareCorner3StarMargin(double s1, double s2, double s3) {
  return std::sqrt(s2) + std::sqrt(s3) - 1.5 + s1;
}

}  // namespace internal

}  // namespace rankmap::tiling
