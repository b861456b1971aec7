#include "graphs/frontends/stencil.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"

namespace rankmap::graphs {
namespace {

constexpr int64_t kMaxProcesses = std::numeric_limits<int32_t>::max();

absl::Status Invalid(std::string_view context, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(context), ": ", what));
}

int64_t Overlap(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) {
  return std::max<int64_t>(0, std::min(ahi, bhi) - std::max(alo, blo));
}

// What HaloMessages needs to know about the grid and the stencil.
struct HaloContext {
  int32_t dims = 2;
  std::array<int64_t, 3> extent = {1, 1, 1};
  std::array<bool, 3> periodic = {false, false, false};
  bool box = false;  // box stencil (diagonals) rather than star
  int64_t halo = 1;
};

// Ghost cells of `recv` that `owner`, moved by `shift` (whole periods), covers.
// The shifted owner never overlaps recv itself (callers skip the unshifted self
// pair), which lets the star's union of axis-widened boxes be counted as a
// plain sum (the widened boxes meet only in recv).
int64_t GhostCells(const HaloContext& c, const GridBox& owner,
                   const std::array<int64_t, 3>& shift, const GridBox& recv) {
  std::array<int64_t, 3> lo, hi;
  for (int d = 0; d < 3; ++d) {
    lo[d] = owner.lo[d] + shift[d] * c.extent[d];
    hi[d] = owner.hi[d] + shift[d] * c.extent[d];
  }
  if (c.box) {
    int64_t cells = 1;
    for (int d = 0; d < c.dims; ++d) {
      cells *= Overlap(lo[d], hi[d], recv.lo[d] - c.halo, recv.hi[d] + c.halo);
      if (cells == 0) return 0;
    }
    return cells;
  }
  int64_t total = 0;
  for (int e = 0; e < c.dims; ++e) {
    int64_t cells = 1;
    for (int d = 0; d < c.dims && cells > 0; ++d) {
      const int64_t widen = d == e ? c.halo : 0;
      cells *= Overlap(lo[d], hi[d], recv.lo[d] - widen, recv.hi[d] + widen);
    }
    total += cells;
  }
  return total;
}

absl::Status CheckGridPartition(const GridPartition& p) {
  constexpr std::string_view kCtx = "stencil/partition";
  if (p.dims != 2 && p.dims != 3) {
    return Invalid(kCtx,
                   absl::StrCat("expected 2 or 3 dimensions, found ", p.dims));
  }
  if (static_cast<int32_t>(p.extent.size()) != p.dims) {
    return Invalid(kCtx, absl::StrCat("expected ", p.dims, " extents, found ",
                                      p.extent.size()));
  }
  int64_t cells = 1;
  for (int d = 0; d < p.dims; ++d) {
    if (p.extent[d] < 1) {
      return Invalid(kCtx,
                     absl::StrCat("extent ", p.extent[d], " of dimension ", d,
                                  " is not positive"));
    }
    if (cells > std::numeric_limits<int64_t>::max() / p.extent[d]) {
      return Invalid(kCtx, "the grid has more than 2^63 cells");
    }
    cells *= p.extent[d];
  }
  if (p.boxes.empty()) return Invalid(kCtx, "no processes");
  if (static_cast<int64_t>(p.boxes.size()) > kMaxProcesses) {
    return Invalid(kCtx, "more than 2^31 - 1 processes");
  }
  int64_t covered = 0;
  for (size_t i = 0; i < p.boxes.size(); ++i) {
    const GridBox& b = p.boxes[i];
    for (int d = 0; d < 3; ++d) {
      const int64_t ext = d < p.dims ? p.extent[d] : 1;
      if (b.lo[d] < 0 || b.hi[d] > ext || b.lo[d] >= b.hi[d]) {
        return Invalid(
            kCtx, absl::StrCat("box of process ", i, " spans [", b.lo[d], ", ",
                               b.hi[d], ") in dimension ", d, ", outside [0, ",
                               ext, ") or empty"));
      }
    }
    // Checked before adding so that overlapping boxes cannot overflow the sum.
    if (b.Volume() > cells - covered) {
      return Invalid(
          kCtx, absl::StrCat("boxes hold more cells than the grid's ", cells,
                             " (overlap)"));
    }
    covered += b.Volume();
  }
  if (covered != cells) {
    return Invalid(kCtx, absl::StrCat("boxes hold ", covered,
                                      " cells but the grid has ", cells));
  }
  if (!p.cuts.empty()) {
    if (static_cast<int32_t>(p.cuts.size()) != p.dims) {
      return Invalid(kCtx, absl::StrCat("expected ", p.dims,
                                        " cut lists, found ", p.cuts.size()));
    }
    int64_t procs = 1;
    for (int d = 0; d < p.dims; ++d) {
      const auto& cut = p.cuts[d];
      if (cut.size() < 2 || cut.front() != 0 || cut.back() != p.extent[d] ||
          !std::is_sorted(cut.begin(), cut.end()) ||
          std::adjacent_find(cut.begin(), cut.end()) != cut.end()) {
        return Invalid(kCtx, absl::StrCat("cuts of dimension ", d,
                                          " must increase strictly from 0 to ",
                                          p.extent[d]));
      }
      procs *= static_cast<int64_t>(cut.size()) - 1;
    }
    if (procs != static_cast<int64_t>(p.boxes.size())) {
      return Invalid(
          kCtx, absl::StrCat("cuts describe ", procs, " blocks but there are ",
                             p.boxes.size(), " boxes"));
    }
    // Boxes must be the blocks in row-major order, which the neighbour search
    // relies on.
    std::array<int64_t, 3> g = {1, 1, 1};
    for (int d = 0; d < p.dims; ++d)
      g[d] = static_cast<int64_t>(p.cuts[d].size()) - 1;
    for (int64_t r = 0; r < procs; ++r) {
      const int64_t c[3] = {r / (g[1] * g[2]), (r / g[2]) % g[1], r % g[2]};
      for (int d = 0; d < p.dims; ++d) {
        if (p.boxes[r].lo[d] != p.cuts[d][c[d]] ||
            p.boxes[r].hi[d] != p.cuts[d][c[d] + 1]) {
          return Invalid(
              kCtx, absl::StrCat("box of process ", r,
                                 " is not its row-major block of the cuts"));
        }
      }
    }
  }
  return absl::OkStatus();
}

// Neighbour search for tensor partitions: per dimension, the (block coordinate,
// period shift) pairs whose block reaches [lo - h, hi + h).
void AxisCandidates(const HaloContext& c, const std::vector<int64_t>& cut,
                    int d, int64_t lo, int64_t hi,
                    std::vector<std::pair<int64_t, int64_t>>& out) {
  out.clear();
  const int64_t n = c.extent[d];
  const int64_t reach = d < c.dims ? c.halo : 0;
  for (int64_t s = -1; s <= 1; ++s) {
    if (s != 0 && !(d < c.dims && c.periodic[d])) continue;
    const int64_t a = std::max<int64_t>(0, lo - reach - s * n);
    const int64_t b = std::min<int64_t>(n, hi + reach - s * n);
    if (a >= b) continue;
    const int64_t first =
        std::upper_bound(cut.begin(), cut.end(), a) - cut.begin() - 1;
    const int64_t last =
        std::upper_bound(cut.begin(), cut.end(), b - 1) - cut.begin() - 1;
    for (int64_t k = first; k <= last; ++k) out.emplace_back(k, s);
  }
}

// Sorted by src, merged: the transfers into one receiver.
void AppendMerged(int32_t dst, std::vector<std::pair<int32_t, int64_t>>& in,
                  std::vector<HaloMessage>& out) {
  std::sort(in.begin(), in.end());
  for (size_t i = 0; i < in.size();) {
    int64_t cells = 0;
    size_t j = i;
    for (; j < in.size() && in[j].first == in[i].first; ++j)
      cells += in[j].second;
    if (cells > 0) out.push_back({in[i].first, dst, cells});
    i = j;
  }
}

}  // namespace

absl::StatusOr<Stencil> ParseStencil(std::string_view text) {
  std::string_view t = text;
  for (std::string_view suffix : {"-point", "point", "pt"}) {
    if (t.size() > suffix.size() &&
        t.substr(t.size() - suffix.size()) == suffix) {
      t.remove_suffix(suffix.size());
      break;
    }
  }
  if (t == "5") return Stencil::k5Point;
  if (t == "9") return Stencil::k9Point;
  if (t == "7") return Stencil::k7Point;
  if (t == "27") return Stencil::k27Point;
  return Invalid("stencil", absl::StrCat("unknown stencil '", std::string(text),
                                         "' (expected 5, 9, 7 or 27)"));
}

int32_t StencilDims(Stencil s) {
  return s == Stencil::k5Point || s == Stencil::k9Point ? 2 : 3;
}

bool StencilHasDiagonals(Stencil s) {
  return s == Stencil::k9Point || s == Stencil::k27Point;
}

absl::StatusOr<std::vector<int64_t>> DimsCreate(int64_t procs,
                                                std::vector<int64_t> dims) {
  constexpr std::string_view kCtx = "stencil/dims";
  if (procs < 1)
    return Invalid(kCtx,
                   absl::StrCat("process count ", procs, " is not positive"));
  if (procs > kMaxProcesses) {
    return Invalid(kCtx,
                   absl::StrCat("process count ", procs, " exceeds 2^31 - 1"));
  }
  if (dims.empty()) return Invalid(kCtx, "no dimensions");
  int64_t rest = procs;
  int free = 0;
  for (int64_t d : dims) {
    if (d < 0) return Invalid(kCtx, absl::StrCat("negative dimension ", d));
    if (d == 0) {
      ++free;
    } else if (rest % d != 0) {
      return Invalid(kCtx, absl::StrCat("fixed dimensions do not divide ",
                                        procs, " processes"));
    } else {
      rest /= d;
    }
  }
  if (free == 0) {
    if (rest != 1) {
      return Invalid(kCtx, absl::StrCat("process grid holds ", procs / rest,
                                        " processes, expected ", procs));
    }
    return dims;
  }
  std::vector<int64_t> divisors;
  for (int64_t k = 1; k * k <= rest; ++k) {
    if (rest % k == 0) {
      divisors.push_back(k);
      if (k != rest / k) divisors.push_back(rest / k);
    }
  }
  std::sort(divisors.begin(), divisors.end(), std::greater<>());
  // Exhaustive over non-increasing factor tuples: few divisors, few dimensions.
  std::vector<int64_t> best, cur;
  auto search = [&](auto&& self, int64_t left, int64_t cap) -> void {
    if (static_cast<int>(cur.size()) == free - 1) {
      if (left > cap) return;
      cur.push_back(left);
      if (best.empty() || cur.front() - cur.back() < best.front() - best.back())
        best = cur;
      cur.pop_back();
      return;
    }
    for (int64_t d : divisors) {
      if (d > cap || left % d != 0) continue;
      cur.push_back(d);
      self(self, left / d, d);
      cur.pop_back();
    }
  };
  search(search, rest, rest);
  size_t k = 0;
  for (int64_t& d : dims) {
    if (d == 0) d = best[k++];
  }
  return dims;
}

absl::StatusOr<std::vector<int64_t>> BlockCuts(int64_t extent, int64_t parts) {
  if (parts < 1 || parts > extent || parts > kMaxProcesses) {
    return Invalid("stencil/blocks",
                   absl::StrCat(parts, " processes along a dimension of ",
                                extent, " cells (each needs at least one)"));
  }
  std::vector<int64_t> cuts(parts + 1, 0);
  const int64_t base = extent / parts, extra = extent % parts;
  for (int64_t i = 0; i < parts; ++i)
    cuts[i + 1] = cuts[i] + base + (i < extra ? 1 : 0);
  return cuts;
}

absl::StatusOr<GridPartition> BlockPartition(
    std::span<const int64_t> extent, std::span<const int64_t> proc_grid) {
  constexpr std::string_view kCtx = "stencil/blocks";
  if (extent.size() != 2 && extent.size() != 3) {
    return Invalid(kCtx, absl::StrCat("expected a 2D or 3D grid, found ",
                                      extent.size(), " extents"));
  }
  if (proc_grid.size() != extent.size()) {
    return Invalid(kCtx, absl::StrCat("process grid has ", proc_grid.size(),
                                      " dimensions, the grid ", extent.size()));
  }
  GridPartition p;
  p.dims = static_cast<int32_t>(extent.size());
  p.extent.assign(extent.begin(), extent.end());
  int64_t procs = 1;
  std::array<int64_t, 3> g = {1, 1, 1};
  for (int d = 0; d < p.dims; ++d) {
    ASSIGN_OR_RETURN(std::vector<int64_t> cut,
                     BlockCuts(extent[d], proc_grid[d]));
    p.cuts.push_back(std::move(cut));
    g[d] = proc_grid[d];
    procs *= proc_grid[d];
    if (procs > kMaxProcesses)
      return Invalid(kCtx, "more than 2^31 - 1 processes");
  }
  p.boxes.resize(procs);
  for (int64_t r = 0; r < procs; ++r) {
    const int64_t c[3] = {r / (g[1] * g[2]), (r / g[2]) % g[1], r % g[2]};
    for (int d = 0; d < p.dims; ++d) {
      p.boxes[r].lo[d] = p.cuts[d][c[d]];
      p.boxes[r].hi[d] = p.cuts[d][c[d] + 1];
    }
  }
  return p;
}

absl::StatusOr<GridPartition> ColumnTilingPartition(
    const ColumnTiling& layout) {
  constexpr std::string_view kCtx = "stencil/columns";
  if (layout.rows < 1 || layout.cols < 1) {
    return Invalid(kCtx, absl::StrCat("grid ", layout.rows, " x ", layout.cols,
                                      " is empty"));
  }
  int64_t procs = 0;
  for (const auto& col : layout.columns)
    procs += static_cast<int64_t>(col.cells.size());
  if (procs == 0) return Invalid(kCtx, "no processes");
  if (procs > kMaxProcesses)
    return Invalid(kCtx, "more than 2^31 - 1 processes");
  GridPartition p;
  p.dims = 2;
  p.extent = {layout.rows, layout.cols};
  p.boxes.resize(procs);
  std::vector<bool> seen(procs, false);
  int64_t x = 0;
  for (size_t j = 0; j < layout.columns.size(); ++j) {
    const auto& col = layout.columns[j];
    if (col.width < 1 || col.width > layout.cols - x) {
      return Invalid(kCtx,
                     absl::StrCat("column ", j, " has width ", col.width));
    }
    if (col.cells.empty())
      return Invalid(kCtx, absl::StrCat("column ", j, " has no cells"));
    int64_t y = 0;
    for (size_t i = 0; i < col.cells.size(); ++i) {
      const auto& cell = col.cells[i];
      if (cell.height < 1 || cell.height > layout.rows - y) {
        return Invalid(kCtx, absl::StrCat("column ", j, " cell ", i,
                                          " has height ", cell.height));
      }
      if (cell.process < 0 || cell.process >= procs || seen[cell.process]) {
        return Invalid(
            kCtx,
            absl::StrCat("column ", j, " cell ", i, ": process ", cell.process,
                         " is out of [0, ", procs, ") or repeated"));
      }
      seen[cell.process] = true;
      GridBox& b = p.boxes[cell.process];
      b.lo = {y, x, 0};
      b.hi = {y + cell.height, x + col.width, 1};
      y += cell.height;
    }
    if (y != layout.rows) {
      return Invalid(kCtx, absl::StrCat("heights of column ", j, " sum to ", y,
                                        ", expected ", layout.rows));
    }
    x += col.width;
  }
  if (x != layout.cols) {
    return Invalid(kCtx, absl::StrCat("column widths sum to ", x, ", expected ",
                                      layout.cols));
  }
  return p;
}

absl::StatusOr<ColumnTiling> ColumnTilingFromSpeeds(
    int64_t rows, int64_t cols, std::span<const double> speeds) {
  constexpr std::string_view kCtx = "stencil/speeds";
  const int64_t n = static_cast<int64_t>(speeds.size());
  if (n == 0) return Invalid(kCtx, "no speeds");
  if (n > kMaxProcesses) return Invalid(kCtx, "more than 2^31 - 1 processes");
  if (rows < 1 || cols < 1) {
    return Invalid(kCtx, absl::StrCat("grid ", rows, " x ", cols, " is empty"));
  }
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(speeds[i]) || speeds[i] <= 0) {
      return Invalid(kCtx,
                     absl::StrCat("speed of process ", i, " is ", speeds[i],
                                  ", expected a positive number"));
    }
  }
  // The matrix front end's column-based partition (Beaumont et al.'s DP) and
  // its largest-remainder rounding; rectangles come column by column, top to
  // bottom.
  ASSIGN_OR_RETURN(ColumnLayout unit, ColumnBasedPartition(speeds));
  ASSIGN_OR_RETURN(Partition rects, ToIntegerPartition(unit, rows, cols));
  ColumnTiling tiling;
  tiling.rows = rows;
  tiling.cols = cols;
  for (const Rect& r : rects.rects) {
    if (tiling.columns.empty() || r.row == 0) {
      tiling.columns.push_back({r.width, {}});
    }
    tiling.columns.back().cells.push_back({r.owner, r.height});
  }
  return tiling;
}

absl::StatusOr<GridPartition> MatrixPartitionBoxes(const Partition& matrix) {
  RETURN_IF_ERROR(ValidatePartition(matrix));
  GridPartition p;
  p.dims = 2;
  p.extent = {matrix.rows, matrix.cols};
  p.boxes.resize(matrix.num_owners);
  std::vector<int32_t> count(matrix.num_owners, 0);
  for (const Rect& r : matrix.rects) {
    if (++count[r.owner] > 1) {
      return Invalid("stencil/partition",
                     absl::StrCat("processor ", r.owner,
                                  " owns several rectangles; a stencil "
                                  "partition needs one box each"));
    }
    p.boxes[r.owner].lo = {r.row, r.col, 0};
    p.boxes[r.owner].hi = {r.row + r.height, r.col + r.width, 1};
  }
  for (int32_t o = 0; o < matrix.num_owners; ++o) {
    if (count[o] == 0) {
      return Invalid("stencil/partition",
                     absl::StrCat("processor ", o, " owns no rectangle"));
    }
  }
  return p;
}

absl::StatusOr<std::vector<HaloMessage>> HaloMessages(
    const GridPartition& partition, const std::vector<bool>& periodic,
    Stencil stencil, int32_t halo) {
  constexpr std::string_view kCtx = "stencil/halo";
  RETURN_IF_ERROR(CheckGridPartition(partition));
  if (StencilDims(stencil) != partition.dims) {
    return Invalid(
        kCtx, absl::StrCat("a ", StencilHasDiagonals(stencil) ? "box" : "star",
                           " stencil for ", StencilDims(stencil),
                           "D grids on a ", partition.dims, "D grid"));
  }
  if (halo < 1)
    return Invalid(kCtx, absl::StrCat("halo width ", halo, " is not positive"));
  if (!periodic.empty() &&
      static_cast<int32_t>(periodic.size()) != partition.dims) {
    return Invalid(kCtx, absl::StrCat("periodic has ", periodic.size(),
                                      " entries, the grid ", partition.dims,
                                      " dimensions"));
  }
  HaloContext c;
  c.dims = partition.dims;
  c.box = StencilHasDiagonals(stencil);
  c.halo = halo;
  for (int d = 0; d < c.dims; ++d) {
    c.extent[d] = partition.extent[d];
    c.periodic[d] = !periodic.empty() && periodic[d];
    // Wider halos would wrap more than once; three copies of the grid would not
    // suffice.
    if (c.periodic[d] && halo > c.extent[d]) {
      return Invalid(kCtx, absl::StrCat("halo width ", halo,
                                        " exceeds the periodic extent ",
                                        c.extent[d], " of dimension ", d));
    }
  }
  const int32_t procs = static_cast<int32_t>(partition.boxes.size());
  std::vector<HaloMessage> out;
  std::vector<std::pair<int32_t, int64_t>> incoming;
  if (!partition.cuts.empty()) {
    std::array<int64_t, 3> g = {1, 1, 1};
    for (int d = 0; d < c.dims; ++d)
      g[d] = static_cast<int64_t>(partition.cuts[d].size()) - 1;
    std::array<std::vector<std::pair<int64_t, int64_t>>, 3> cand;
    const std::vector<int64_t> unit = {0, 1};
    for (int32_t r = 0; r < procs; ++r) {
      const GridBox& recv = partition.boxes[r];
      for (int d = 0; d < 3; ++d) {
        AxisCandidates(c, d < c.dims ? partition.cuts[d] : unit, d, recv.lo[d],
                       recv.hi[d], cand[d]);
      }
      incoming.clear();
      for (auto [c0, s0] : cand[0]) {
        for (auto [c1, s1] : cand[1]) {
          for (auto [c2, s2] : cand[2]) {
            const int32_t src =
                static_cast<int32_t>((c0 * g[1] + c1) * g[2] + c2);
            if (src == r && s0 == 0 && s1 == 0 && s2 == 0) continue;
            const int64_t cells =
                GhostCells(c, partition.boxes[src], {s0, s1, s2}, recv);
            if (cells > 0 && src != r) incoming.emplace_back(src, cells);
          }
        }
      }
      AppendMerged(r, incoming, out);
    }
    return out;
  }
  // General boxes: test every pair (and check disjointness on the way, for
  // free).
  std::vector<std::array<int64_t, 3>> shifts;
  for (int64_t s0 = -1; s0 <= 1; ++s0) {
    for (int64_t s1 = -1; s1 <= 1; ++s1) {
      for (int64_t s2 = -1; s2 <= 1; ++s2) {
        const int64_t s[3] = {s0, s1, s2};
        bool ok = true;
        for (int d = 0; d < 3; ++d)
          ok = ok && (s[d] == 0 || (d < c.dims && c.periodic[d]));
        if (ok) shifts.push_back({s0, s1, s2});
      }
    }
  }
  for (int32_t r = 0; r < procs; ++r) {
    const GridBox& recv = partition.boxes[r];
    incoming.clear();
    for (int32_t a = 0; a < procs; ++a) {
      const GridBox& own = partition.boxes[a];
      if (a != r) {
        bool meet = true;
        for (int d = 0; d < c.dims; ++d) {
          meet =
              meet && Overlap(own.lo[d], own.hi[d], recv.lo[d], recv.hi[d]) > 0;
        }
        if (meet) {
          return Invalid(
              "stencil/partition",
              absl::StrCat("boxes of processes ", a, " and ", r, " overlap"));
        }
      }
      for (const auto& s : shifts) {
        if (a == r) continue;  // wrap onto itself: no message
        const int64_t cells = GhostCells(c, own, s, recv);
        if (cells > 0) incoming.emplace_back(a, cells);
      }
    }
    AppendMerged(r, incoming, out);
  }
  return out;
}

absl::StatusOr<CommGraph> HaloGraph(const GridPartition& partition,
                                    const std::vector<bool>& periodic,
                                    Stencil stencil, int32_t halo,
                                    double element_size,
                                    std::span<const double> axis_weights) {
  if (!std::isfinite(element_size) || element_size <= 0) {
    return Invalid("stencil/halo", absl::StrCat("element size ", element_size,
                                                " is not a positive number"));
  }
  if (!axis_weights.empty()) {
    if (axis_weights.size() != static_cast<size_t>(partition.dims)) {
      return Invalid("stencil/halo",
                     absl::StrCat(axis_weights.size(), " axis weights for ",
                                  partition.dims, " dimensions"));
    }
    for (double w : axis_weights) {
      if (!std::isfinite(w) || w <= 0) {
        return Invalid(
            "stencil/halo",
            absl::StrCat("axis weight ", w, " is not a positive number"));
      }
    }
  }
  ASSIGN_OR_RETURN(std::vector<HaloMessage> msgs,
                   HaloMessages(partition, periodic, stencil, halo));
  CommGraphBuilder b(static_cast<int64_t>(partition.boxes.size()));
  b.Reserve(static_cast<int64_t>(msgs.size()));
  for (const HaloMessage& m : msgs) {
    double weight = 1.0;
    if (!axis_weights.empty()) {
      // The dimensions along which the two boxes do not overlap.
      const GridBox& s = partition.boxes[m.src];
      const GridBox& d = partition.boxes[m.dst];
      weight = 0.0;
      for (int32_t k = 0; k < partition.dims; ++k) {
        if (s.hi[k] <= d.lo[k] || d.hi[k] <= s.lo[k]) {
          weight = std::max(weight, axis_weights[k]);
        }
      }
      if (weight == 0.0) weight = 1.0;
    }
    RETURN_IF_ERROR(b.AddEdge(
        m.src, m.dst, static_cast<double>(m.cells) * element_size * weight));
  }
  return std::move(b).Build();
}

absl::StatusOr<GridPartition> StencilPartition(const StencilOptions& o) {
  constexpr std::string_view kCtx = "stencil";
  const int64_t dims = static_cast<int64_t>(o.grid.size());
  if (dims != 2 && dims != 3) {
    return Invalid(kCtx,
                   absl::StrCat("--grid needs 2 or 3 extents, found ", dims));
  }
  for (int64_t e : o.grid) {
    if (e < 1)
      return Invalid(kCtx,
                     absl::StrCat("--grid extent ", e, " is not positive"));
  }
  if (o.procs < 0)
    return Invalid(kCtx, absl::StrCat("--procs ", o.procs, " is negative"));
  if (!o.speeds.empty()) {
    if (dims != 2) return Invalid(kCtx, "--speeds needs a 2D grid");
    if (o.slabs || !o.proc_grid.empty()) {
      return Invalid(
          kCtx, "--speeds cannot be combined with --slabs or a process grid");
    }
    if (o.procs != 0 && o.procs != static_cast<int64_t>(o.speeds.size())) {
      return Invalid(kCtx,
                     absl::StrCat("--procs ", o.procs, " does not match the ",
                                  o.speeds.size(), " speeds"));
    }
    ASSIGN_OR_RETURN(ColumnTiling layout,
                     ColumnTilingFromSpeeds(o.grid[0], o.grid[1], o.speeds));
    return ColumnTilingPartition(layout);
  }
  std::vector<int64_t> pg;
  if (o.slabs) {
    if (!o.proc_grid.empty())
      return Invalid(kCtx, "--slabs cannot be combined with a process grid");
    if (o.procs == 0) return Invalid(kCtx, "--slabs needs --procs");
    pg.assign(dims, 1);
    pg[0] = o.procs;
  } else {
    pg = o.proc_grid.empty() ? std::vector<int64_t>(dims, 0) : o.proc_grid;
    if (static_cast<int64_t>(pg.size()) != dims) {
      return Invalid(kCtx, absl::StrCat("process grid has ", pg.size(),
                                        " entries, the grid ", dims));
    }
    int64_t fixed = 1;
    bool any_free = false;
    for (int64_t d : pg) {
      if (d < 0)
        return Invalid(kCtx,
                       absl::StrCat("process grid entry ", d, " is negative"));
      if (d == 0) {
        any_free = true;
      } else {
        fixed *= d;
      }
    }
    const int64_t procs = o.procs != 0 ? o.procs : (any_free ? 0 : fixed);
    if (procs == 0)
      return Invalid(kCtx, "--procs is needed to choose the process grid");
    ASSIGN_OR_RETURN(pg, DimsCreate(procs, std::move(pg)));
  }
  return BlockPartition(o.grid, pg);
}

absl::StatusOr<CommGraph> StencilGraph(const StencilOptions& o) {
  ASSIGN_OR_RETURN(Stencil stencil, ParseStencil(std::to_string(o.points)));
  if (StencilDims(stencil) != static_cast<int32_t>(o.grid.size())) {
    return Invalid("stencil",
                   absl::StrCat("a ", o.points, "-point stencil needs a ",
                                StencilDims(stencil), "D grid, --grid has ",
                                o.grid.size(), " extents"));
  }
  ASSIGN_OR_RETURN(GridPartition p, StencilPartition(o));
  return HaloGraph(p, o.periodic, stencil, o.halo, o.element_size,
                   o.axis_weights);
}

absl::StatusOr<std::vector<double>> ParseSpeeds(std::string_view text,
                                                std::string_view name) {
  std::vector<double> out;
  for (const base::Line& l : base::SplitLines(text)) {
    for (const base::Token& t : l.tokens) {
      double v = 0;
      if (!base::ParseReal(t.text, &v) || !std::isfinite(v) || v <= 0) {
        return base::LineError(
            name, l.number,
            absl::StrCat("expected a positive speed, found '", t.text, "'"));
      }
      out.push_back(v);
    }
  }
  if (out.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ": no speeds"));
  }
  return out;
}

absl::StatusOr<std::vector<double>> ReadSpeedsFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(path, "speed list"));
  return ParseSpeeds(text, path);
}

}  // namespace rankmap::graphs
