#include "tiling/volume.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::tiling {
namespace {

using Interval = std::pair<int64_t, int64_t>;  // [first, second)

constexpr int64_t kMaxOracleEntries = int64_t{1} << 28;

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("tiling/volume: ", msg));
}

absl::Status CheckShapes(const Partition& a, const Partition& b,
                         const Partition& c) {
  RETURN_IF_ERROR(ValidatePartition(a));
  RETURN_IF_ERROR(ValidatePartition(b));
  RETURN_IF_ERROR(ValidatePartition(c));
  if (a.rows != c.rows || b.cols != c.cols || a.cols != b.rows) {
    return Invalid(absl::StrCat("shapes ", a.rows, "x", a.cols, " * ", b.rows,
                                "x", b.cols, " -> ", c.rows, "x", c.cols,
                                " do not multiply"));
  }
  if (a.num_owners != b.num_owners || a.num_owners != c.num_owners) {
    return Invalid("operands have different owner counts");
  }
  return absl::OkStatus();
}

std::vector<Interval> Merge(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const Interval& iv : v) {
    if (!out.empty() && iv.first <= out.back().second) {
      out.back().second = std::max(out.back().second, iv.second);
    } else {
      out.push_back(iv);
    }
  }
  return out;
}

// |[lo, hi) n union|, union sorted and disjoint.
int64_t Overlap(int64_t lo, int64_t hi, const std::vector<Interval>& u) {
  int64_t total = 0;
  auto it = std::lower_bound(
      u.begin(), u.end(), Interval{lo, lo},
      [](const Interval& x, const Interval& y) { return x.second <= y.first; });
  for (; it != u.end() && it->first < hi; ++it) {
    total += std::max<int64_t>(
        0, std::min(hi, it->second) - std::max(lo, it->first));
  }
  return total;
}

}  // namespace

int64_t VolumeMatrix::Total() const {
  int64_t t = 0;
  for (int64_t v : volume) t += v;
  return t;
}

int64_t VolumeMatrix::MaxDirected() const {
  int64_t m = 0;
  for (int64_t v : volume) m = std::max(m, v);
  return m;
}

absl::StatusOr<VolumeMatrix> MatmulVolumes(const Partition& p) {
  if (p.rows != p.cols) {
    return Invalid(
        absl::StrCat("square multiplication needs a square grid, got ", p.rows,
                     "x", p.cols));
  }
  return MatmulVolumes(p, p, p);
}

absl::StatusOr<VolumeMatrix> MatmulVolumes(const Partition& a,
                                           const Partition& b,
                                           const Partition& c) {
  RETURN_IF_ERROR(CheckShapes(a, b, c));
  const int32_t n = c.num_owners;
  std::vector<std::vector<Interval>> rows(n), cols(n);
  for (const Rect& r : c.rects) {
    rows[r.owner].push_back({r.row, r.row + r.height});
    cols[r.owner].push_back({r.col, r.col + r.width});
  }
  for (int32_t o = 0; o < n; ++o) {
    rows[o] = Merge(std::move(rows[o]));
    cols[o] = Merge(std::move(cols[o]));
  }
  VolumeMatrix v{n, std::vector<int64_t>(static_cast<size_t>(n) * n, 0)};
  // Each term is at most a rectangle's area and an entry at most the cells of
  // two operands; the checks catch grids near 2^62 cells and their total.
  bool overflow = false;
  auto add = [&](int32_t from, int32_t to, int64_t length, int64_t overlap) {
    int64_t term = 0;
    int64_t& entry = v.volume[static_cast<size_t>(from) * n + to];
    overflow |= __builtin_mul_overflow(length, overlap, &term) ||
                __builtin_add_overflow(entry, term, &entry);
  };
  for (int32_t to = 0; to < n; ++to) {
    for (const Rect& r : a.rects) {
      if (r.owner == to) continue;
      add(r.owner, to, r.width, Overlap(r.row, r.row + r.height, rows[to]));
    }
    for (const Rect& r : b.rects) {
      if (r.owner == to) continue;
      add(r.owner, to, r.height, Overlap(r.col, r.col + r.width, cols[to]));
    }
  }
  int64_t total = 0;
  for (int64_t x : v.volume)
    overflow |= __builtin_add_overflow(total, x, &total);
  if (overflow) return Invalid("the total volume exceeds 2^63 - 1 cells");
  return v;
}

absl::StatusOr<VolumeMatrix> CountMatmulVolumes(const Partition& p) {
  if (p.rows != p.cols) {
    return Invalid(
        absl::StrCat("square multiplication needs a square grid, got ", p.rows,
                     "x", p.cols));
  }
  return CountMatmulVolumes(p, p, p);
}

absl::StatusOr<VolumeMatrix> CountMatmulVolumes(const Partition& a,
                                                const Partition& b,
                                                const Partition& c) {
  RETURN_IF_ERROR(CheckShapes(a, b, c));
  // The oracle's tables: a row and a column flag per owner.
  if ((c.rows + c.cols) > kMaxOracleEntries / c.num_owners) {
    return Invalid(absl::StrCat("a ", c.rows, " x ", c.cols, " grid of ",
                                c.num_owners,
                                " owners is too large to count cell by cell"));
  }
  ASSIGN_OR_RETURN(std::vector<int32_t> ma, OwnerMap(a));
  ASSIGN_OR_RETURN(std::vector<int32_t> mb, OwnerMap(b));
  ASSIGN_OR_RETURN(std::vector<int32_t> mc, OwnerMap(c));
  const int32_t n = c.num_owners;
  // touches_row[i * n + o]: owner o has a C cell in row i; likewise for
  // columns.
  std::vector<char> touches_row(static_cast<size_t>(c.rows) * n, 0);
  std::vector<char> touches_col(static_cast<size_t>(c.cols) * n, 0);
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.cols; ++j) {
      int32_t o = mc[i * c.cols + j];
      touches_row[i * n + o] = 1;
      touches_col[j * n + o] = 1;
    }
  }
  VolumeMatrix v{n, std::vector<int64_t>(static_cast<size_t>(n) * n, 0)};
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = 0; k < a.cols; ++k) {
      int32_t q = ma[i * a.cols + k];
      for (int32_t to = 0; to < n; ++to) {
        if (to != q && touches_row[i * n + to])
          ++v.volume[static_cast<size_t>(q) * n + to];
      }
    }
  }
  for (int64_t k = 0; k < b.rows; ++k) {
    for (int64_t j = 0; j < b.cols; ++j) {
      int32_t q = mb[k * b.cols + j];
      for (int32_t to = 0; to < n; ++to) {
        if (to != q && touches_col[j * n + to])
          ++v.volume[static_cast<size_t>(q) * n + to];
      }
    }
  }
  return v;
}

absl::StatusOr<int64_t> RowColumnSharingTvc(const Partition& p) {
  RETURN_IF_ERROR(ValidatePartition(p));
  if (p.rows != p.cols)
    return Invalid("row/column sharing identity needs a square grid");
  ASSIGN_OR_RETURN(std::vector<int32_t> m, OwnerMap(p));
  const int64_t n = p.rows;
  std::vector<int32_t> stamp(p.num_owners, -1);
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t distinct = 0;
    for (int64_t j = 0; j < n; ++j) {
      int32_t o = m[i * n + j];
      if (stamp[o] != i) {
        stamp[o] = static_cast<int32_t>(i);
        ++distinct;
      }
    }
    sum += distinct - 1;
  }
  std::fill(stamp.begin(), stamp.end(), -1);
  for (int64_t j = 0; j < n; ++j) {
    int64_t distinct = 0;
    for (int64_t i = 0; i < n; ++i) {
      int32_t o = m[i * n + j];
      if (stamp[o] != j) {
        stamp[o] = static_cast<int32_t>(j);
        ++distinct;
      }
    }
    sum += distinct - 1;
  }
  return n * sum;
}

}  // namespace rankmap::tiling
