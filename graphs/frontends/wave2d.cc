#include "graphs/frontends/wave2d.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"

namespace rankmap::graphs {

using tiling::ColumnTiling;

namespace {

// Where each process sits in the tiling: column index, cell index, row range.
struct Place {
  int32_t column = 0;
  int32_t cell = 0;
};

absl::StatusOr<std::vector<Place>> Places(const ColumnTiling& t) {
  // Validates sizes, coverage and the process numbering.
  RETURN_IF_ERROR(tiling::ColumnTilingPartition(t).status());
  int64_t procs = 0;
  for (const auto& c : t.columns) procs += static_cast<int64_t>(c.cells.size());
  std::vector<Place> places(procs);
  for (size_t j = 0; j < t.columns.size(); ++j) {
    for (size_t i = 0; i < t.columns[j].cells.size(); ++i) {
      places[t.columns[j].cells[i].process] = {static_cast<int32_t>(j),
                                               static_cast<int32_t>(i)};
    }
  }
  return places;
}

// Row ranges [top, bottom) of the cells of one column.
std::vector<int64_t> RowCuts(const ColumnTiling::Column& c) {
  std::vector<int64_t> cuts = {0};
  for (const auto& cell : c.cells) cuts.push_back(cuts.back() + cell.height);
  return cuts;
}

// Cells of column `other` (row cuts `cuts`) that overlap rows [top, bottom),
// top to bottom, with the overlap: from the first by binary search, so
// O(log + output).
void SideNeighbours(const ColumnTiling::Column& other,
                    const std::vector<int64_t>& cuts, int64_t top,
                    int64_t bottom, std::vector<Wave2DNeighbour>& out) {
  size_t k = std::upper_bound(cuts.begin(), cuts.end(), top) - cuts.begin() - 1;
  for (; k < other.cells.size() && cuts[k] < bottom; ++k) {
    const int64_t overlap =
        std::min(bottom, cuts[k + 1]) - std::max(top, cuts[k]);
    if (overlap > 0) out.push_back({other.cells[k].process, overlap, true});
  }
}

}  // namespace

absl::StatusOr<std::vector<std::vector<Wave2DNeighbour>>> Wave2DNeighbourhoods(
    const ColumnTiling& t) {
  ASSIGN_OR_RETURN(std::vector<Place> places, Places(t));
  std::vector<std::vector<Wave2DNeighbour>> eta(places.size());
  std::vector<std::vector<int64_t>> cuts;
  for (const auto& c : t.columns) cuts.push_back(RowCuts(c));
  std::vector<Wave2DNeighbour> side;
  for (size_t p = 0; p < places.size(); ++p) {
    const auto [j, i] = places[p];
    const ColumnTiling::Column& col = t.columns[j];
    const int64_t top = cuts[j][i], bottom = cuts[j][i + 1];
    auto& out = eta[p];
    if (i > 0) out.push_back({col.cells[i - 1].process, col.width, false});
    if (j + 1 < static_cast<int32_t>(t.columns.size())) {
      SideNeighbours(t.columns[j + 1], cuts[j + 1], top, bottom, out);
    }
    if (i + 1 < static_cast<int32_t>(col.cells.size())) {
      out.push_back({col.cells[i + 1].process, col.width, false});
    }
    if (j > 0) {
      side.clear();
      SideNeighbours(t.columns[j - 1], cuts[j - 1], top, bottom, side);
      out.insert(out.end(), side.rbegin(), side.rend());  // bottom to top
    }
  }
  return eta;
}

absl::StatusOr<int64_t> Wave2DHaloCount(const ColumnTiling& t, int32_t src,
                                        int32_t dst) {
  ASSIGN_OR_RETURN(auto eta, Wave2DNeighbourhoods(t));
  const int32_t procs = static_cast<int32_t>(eta.size());
  if (src < 0 || src >= procs || dst < 0 || dst >= procs) {
    return absl::InvalidArgumentError(
        absl::StrCat("wave2d: process pair (", src, ", ", dst, ") outside [0, ",
                     procs, ")"));
  }
  for (const Wave2DNeighbour& n : eta[src]) {
    if (n.process == dst) return n.cells;
  }
  return int64_t{0};
}

absl::StatusOr<CommGraph> Wave2DGraph(const ColumnTiling& t,
                                      double element_size) {
  if (!std::isfinite(element_size) || element_size <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "wave2d: element size ", element_size, " is not a positive number"));
  }
  ASSIGN_OR_RETURN(auto eta, Wave2DNeighbourhoods(t));
  CommGraphBuilder b(static_cast<int64_t>(eta.size()));
  for (size_t p = 0; p < eta.size(); ++p) {
    for (const Wave2DNeighbour& n : eta[p]) {
      RETURN_IF_ERROR(b.AddEdge(static_cast<int64_t>(p), n.process,
                                static_cast<double>(n.cells) * element_size));
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<Wave2DResult> Wave2DFrontend(const Wave2DOptions& o) {
  if (o.grid.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "wave2d: --grid '", absl::StrJoin(o.grid, "x"), "' needs 2 extents"));
  }
  std::vector<double> speeds = o.speeds;
  if (speeds.empty()) {
    if (o.procs < 1) {
      return absl::InvalidArgumentError(
          "wave2d: --procs or --speeds is required");
    }
    // The column DP's bound, before the speeds are made.
    if (o.procs > tiling::kMaxColumnDpProcessors) {
      return absl::InvalidArgumentError(absl::StrCat(
          "wave2d: --procs ", o.procs, " is above the column partition's ",
          "limit of ", tiling::kMaxColumnDpProcessors, " processes"));
    }
    speeds.assign(o.procs, 1.0);
  }
  Wave2DResult r;
  ASSIGN_OR_RETURN(
      r.tiling, tiling::ColumnTilingFromSpeeds(o.grid[0], o.grid[1], speeds));
  ASSIGN_OR_RETURN(r.graph, Wave2DGraph(r.tiling, o.element_size));
  return r;
}

}  // namespace rankmap::graphs
