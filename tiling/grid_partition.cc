#include "tiling/grid_partition.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"

namespace rankmap::tiling {
namespace {

constexpr int64_t kMaxProcesses = std::numeric_limits<int32_t>::max();
// Ghost regions (up to 27 periodic copies of a box) then sum below 2^63.
constexpr int64_t kMaxGridCells = int64_t{1} << 56;

absl::Status Invalid(std::string_view context, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(context), ": ", what));
}

// The cuts of a tensor partition (if any): strictly increasing over each
// extent, and the boxes their blocks in row-major order, which the neighbour
// search relies on.
absl::Status CheckCuts(const GridPartition& p) {
  constexpr std::string_view kCtx = "stencil/partition";
  if (p.cuts.empty()) return absl::OkStatus();
  if (static_cast<int32_t>(p.cuts.size()) != p.dims) {
    return Invalid(kCtx, absl::StrCat("expected ", p.dims, " cut lists, found ",
                                      p.cuts.size()));
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
        return Invalid(kCtx,
                       absl::StrCat("box of process ", r,
                                    " is not its row-major block of the cuts"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateGridPartition(const GridPartition& p) {
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
    if (cells > kMaxGridCells / p.extent[d]) {
      return Invalid(kCtx, "the grid has more than 2^56 cells");
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
  return CheckCuts(p);
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

absl::StatusOr<GridPartition> TileGrid(const GridTilingOptions& o) {
  constexpr std::string_view kCtx = "stencil";
  const int64_t dims = static_cast<int64_t>(o.grid.size());
  if (dims != 2 && dims != 3) {
    return Invalid(kCtx,
                   absl::StrCat("--grid needs 2 or 3 extents, found ", dims));
  }
  int64_t cells = 1;
  for (int64_t e : o.grid) {
    if (e < 1)
      return Invalid(kCtx,
                     absl::StrCat("--grid extent ", e, " is not positive"));
    if (cells > kMaxGridCells / e) {
      return Invalid(kCtx, absl::StrCat("--grid ", absl::StrJoin(o.grid, "x"),
                                        " has more than 2^56 cells"));
    }
    cells *= e;
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
        fixed = base::SaturatingMulAdd(fixed, d);
      }
    }
    const int64_t procs = o.procs != 0 ? o.procs : (any_free ? 0 : fixed);
    if (procs == 0)
      return Invalid(kCtx, "--procs is needed to choose the process grid");
    ASSIGN_OR_RETURN(pg, DimsCreate(procs, std::move(pg)));
  }
  // The boxes, sized before BlockPartition makes them.
  int64_t procs = 1;
  for (int64_t d : pg) procs = base::SaturatingMulAdd(procs, d);
  RETURN_IF_ERROR(
      base::CheckMemory(absl::StrCat("stencil: ", procs, " processes"),
                        base::SaturatingMulAdd(procs, sizeof(GridBox)),
                        base::MemoryBudget(o.max_memory_bytes)));
  return BlockPartition(o.grid, pg);
}

}  // namespace rankmap::tiling
