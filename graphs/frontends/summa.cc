#include "graphs/frontends/summa.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tiling/arrangement.h"

namespace rankmap::graphs {

using tiling::ArrangedColumn;
using tiling::ArrangedRect;
using tiling::Arrangement;
using tiling::Partition;
using tiling::VolumeMatrix;

namespace {

// Bounds that keep bad input from exhausting memory.
constexpr int64_t kMaxProcs = int64_t{1} << 24;
constexpr int64_t kMaxEdges = int64_t{1} << 28;

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("graphs/summa: ", msg));
}

absl::Status CheckCell(const CellSize& cell) {
  if (cell.elements_per_cell < 1 || cell.element_size < 1) {
    return Invalid(absl::StrCat("cell of ", cell.elements_per_cell,
                                " elements of ", cell.element_size, " bytes"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CommGraph> SummaGridGraph(int32_t grid_rows, int32_t grid_cols,
                                         int64_t n, PivotFlow flow,
                                         CellSize cell) {
  RETURN_IF_ERROR(CheckCell(cell));
  if (grid_rows < 1 || grid_cols < 1) {
    return Invalid(absl::StrCat("process grid ", grid_rows, " x ", grid_cols));
  }
  const int64_t procs = static_cast<int64_t>(grid_rows) * grid_cols;
  if (procs > kMaxProcs || (flow == PivotFlow::kOneToAll &&
                            procs * (grid_rows + grid_cols) > kMaxEdges)) {
    return Invalid(absl::StrCat("process grid ", grid_rows, " x ", grid_cols,
                                " is too large for this flow"));
  }
  if (n < std::max(grid_rows, grid_cols)) {
    return Invalid(
        absl::StrCat("matrix size ", n, " smaller than the process grid"));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> h,
                   tiling::Apportion(std::vector<double>(grid_rows, 1.0), n));
  ASSIGN_OR_RETURN(std::vector<int64_t> w,
                   tiling::Apportion(std::vector<double>(grid_cols, 1.0), n));
  const double bytes = cell.bytes();
  auto rank = [&](int32_t i, int32_t j) {
    return static_cast<int64_t>(i) * grid_cols + j;
  };
  CommGraphBuilder b(static_cast<int64_t>(grid_rows) * grid_cols);
  for (int32_t i = 0; i < grid_rows; ++i) {
    for (int32_t j = 0; j < grid_cols; ++j) {
      if (flow == PivotFlow::kOneToAll) {
        // A block h_i x w_j to every row mate, B block to every column mate.
        for (int32_t jj = 0; jj < grid_cols; ++jj) {
          if (jj != j)
            RETURN_IF_ERROR(
                b.AddEdge(rank(i, j), rank(i, jj), bytes * h[i] * w[j]));
        }
        for (int32_t ii = 0; ii < grid_rows; ++ii) {
          if (ii != i)
            RETURN_IF_ERROR(
                b.AddEdge(rank(i, j), rank(ii, j), bytes * h[i] * w[j]));
        }
      } else {
        const int32_t right = (j + 1) % grid_cols, down = (i + 1) % grid_rows;
        if (grid_cols > 1) {
          RETURN_IF_ERROR(b.AddEdge(rank(i, j), rank(i, right),
                                    bytes * h[i] * (n - w[right])));
        }
        if (grid_rows > 1) {
          RETURN_IF_ERROR(b.AddEdge(rank(i, j), rank(down, j),
                                    bytes * w[j] * (n - h[down])));
        }
      }
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<CommGraph> HeterogeneousSummaGraph(const tiling::Partition& p,
                                                  PivotFlow flow,
                                                  CellSize cell) {
  RETURN_IF_ERROR(CheckCell(cell));
  if (flow == PivotFlow::kOneToAll) {
    ASSIGN_OR_RETURN(VolumeMatrix v, tiling::MatmulVolumes(p, p, p));
    return VolumeGraph(v, cell);
  }
  // Ring flow: read the partition as columns of rectangles (clusters unused
  // here).
  std::vector<int32_t> zeros(std::max(p.num_owners, 0), 0);
  ASSIGN_OR_RETURN(Arrangement m, tiling::ArrangementFromPartition(p, zeros));
  const double bytes = cell.bytes();
  CommGraphBuilder b(p.num_owners);
  // Vertical rings: link t -> t+1 carries the pivot rows of every rectangle but
  // t+1's.
  for (const ArrangedColumn& col : m.columns) {
    const int32_t r = static_cast<int32_t>(col.rects.size());
    if (r < 2) continue;
    for (int32_t t = 0; t < r; ++t) {
      const ArrangedRect& to = col.rects[(t + 1) % r];
      RETURN_IF_ERROR(b.AddEdge(col.rects[t].proc, to.proc,
                                bytes * col.width * (p.rows - to.height)));
    }
  }
  // Horizontal rings, one per band of rows: link j -> j+1 carries every
  // column's piece but j+1's. Summed over the bands, the link from rectangle
  // a of column j to rectangle b of column j+1 carries their common rows, so
  // a merge of the two columns finds every link once: O(R) in all.
  const size_t c = m.columns.size();
  for (size_t j = 0; c >= 2 && j < c; ++j) {
    const ArrangedColumn& from = m.columns[j];
    const ArrangedColumn& to = m.columns[(j + 1) % c];
    size_t x = 0, y = 0;
    int64_t x_end = from.rects[0].height, y_end = to.rects[0].height;
    for (int64_t pos = 0; pos < p.rows;) {
      const int64_t e = std::min(x_end, y_end);
      RETURN_IF_ERROR(b.AddEdge(from.rects[x].proc, to.rects[y].proc,
                                bytes * (e - pos) * (p.cols - to.width)));
      pos = e;
      if (x_end == e && ++x < from.rects.size()) x_end += from.rects[x].height;
      if (y_end == e && ++y < to.rects.size()) y_end += to.rects[y].height;
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<CommGraph> VolumeGraph(const tiling::VolumeMatrix& v,
                                      CellSize cell) {
  RETURN_IF_ERROR(CheckCell(cell));
  if (v.num_owners < 0 ||
      v.volume.size() != static_cast<size_t>(v.num_owners) * v.num_owners) {
    return Invalid("malformed volume matrix");
  }
  CommGraphBuilder b(v.num_owners);
  for (int32_t from = 0; from < v.num_owners; ++from) {
    for (int32_t to = 0; to < v.num_owners; ++to) {
      if (from != to && v.at(from, to) != 0) {
        RETURN_IF_ERROR(b.AddEdge(
            from, to, static_cast<double>(v.at(from, to)) * cell.bytes()));
      }
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<CommGraph> SquareCornerGraph(const tiling::Partition& p,
                                            CellSize cell) {
  ASSIGN_OR_RETURN(VolumeMatrix v, tiling::MatmulVolumes(p));
  return VolumeGraph(v, cell);
}

}  // namespace rankmap::graphs
