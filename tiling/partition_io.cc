#include "tiling/partition_io.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"

namespace rankmap::tiling {

namespace {

// A rectangle's line and the sweep's share per rectangle (its two events and
// an active-set node), for the budget check.
constexpr int64_t kBytesPerRect = sizeof(Rect) + sizeof(int64_t) + 96;

// Reads one data line into `p` (the grid or a rectangle). `rects` is the
// number of rectangle lines in the file, which bounds the processor ids.
absl::Status ParseLine(const base::LineView& l, std::string_view source,
                       int64_t rects, int64_t& grid_line, Partition& p,
                       std::vector<int64_t>& rect_line) {
  const bool is_grid = l.tokens[0] == "grid";
  int64_t v[5] = {0, 0, 0, 0, 0};
  const size_t first = is_grid ? 1 : 0;
  for (size_t k = first; k < l.tokens.size(); ++k) {
    int64_t x = 0;
    if (!base::ParseInt(l.tokens[k], &x)) {
      return base::ColumnError(source, l.number, l.columns[k],
                               absl::StrCat("expected an integer, found ",
                                            base::Quote(l.tokens[k])));
    }
    if (k - first < 5) v[k - first] = x;
  }
  const size_t count = l.tokens.size() - first;
  if (is_grid) {
    if (grid_line != 0) {
      return base::LineError(
          source, l.number,
          absl::StrCat("second grid line (first on line ", grid_line, ")"));
    }
    if (count != 2 || v[0] < 1 || v[1] < 1) {
      return base::LineError(source, l.number,
                             "expected 'grid <rows> <cols>', both >= 1");
    }
    if (v[0] > (int64_t{1} << 62) / v[1]) {
      return base::LineError(source, l.number,
                             "the grid has more than 2^62 cells");
    }
    grid_line = l.number;
    p.rows = v[0];
    p.cols = v[1];
    return absl::OkStatus();
  }
  if (grid_line == 0) {
    return base::LineError(source, l.number,
                           "expected 'grid <rows> <cols>' first");
  }
  if (count != 5) {
    return base::LineError(
        source, l.number,
        "expected '<processor> <row> <col> <height> <width>'");
  }
  // Every processor 0..P-1 owns a rectangle, so P <= the rectangle count.
  if (v[0] < 0 || v[0] >= rects) {
    return base::LineError(
        source, l.number,
        absl::StrCat("processor ", v[0], " out of range: ", rects,
                     " rectangles give processors 0 to ", rects - 1));
  }
  const Rect r{v[1], v[2], v[3], v[4], static_cast<int32_t>(v[0])};
  if (r.height < 1 || r.width < 1 || r.row < 0 || r.col < 0 ||
      r.row > p.rows - r.height || r.col > p.cols - r.width) {
    return base::LineError(source, l.number,
                           absl::StrCat("rectangle is empty or leaves the ",
                                        p.rows, " x ", p.cols, " grid"));
  }
  p.rects.push_back(r);
  rect_line.push_back(l.number);
  p.num_owners = std::max(p.num_owners, r.owner + 1);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Partition> ParsePartition(std::string_view text,
                                         std::string_view source,
                                         int64_t max_memory_bytes) {
  int64_t rects = 0;
  RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
    rects += l.tokens[0] != "grid";
    return absl::OkStatus();
  }));
  if (rects > std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(source), ": ", rects, " rectangles, above 2^31 - 1"));
  }
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat(std::string(source), ": ", rects, " rectangles"),
      base::SaturatingMulAdd(rects, kBytesPerRect),
      base::MemoryBudget(max_memory_bytes)));
  Partition p;
  p.rects.reserve(rects);
  std::vector<int64_t> rect_line;
  rect_line.reserve(rects);
  int64_t grid_line = 0;
  int64_t last_line = 1;
  RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
    last_line = l.number;
    return ParseLine(l, source, rects, grid_line, p, rect_line);
  }));
  if (grid_line == 0) return base::LineError(source, last_line, "no grid line");
  if (const auto overlap = FindOverlappingRects(p.rects)) {
    return base::LineError(source, rect_line[overlap->second],
                           absl::StrCat("rectangle overlaps the one on line ",
                                        rect_line[overlap->first]));
  }
  const std::vector<int64_t> areas = OwnerAreas(p);
  int64_t covered = 0;
  for (size_t i = 0; i < areas.size(); ++i) {
    if (areas[i] == 0) {
      return base::LineError(
          source, last_line,
          absl::StrCat("processor ", i, " has no rectangle"));
    }
    covered += areas[i];
  }
  if (covered != p.rows * p.cols) {
    return base::LineError(source, last_line,
                           absl::StrCat("rectangles cover ", covered, " of ",
                                        p.rows * p.cols, " cells"));
  }
  RETURN_IF_ERROR(ValidatePartition(p));
  return p;
}

absl::StatusOr<Partition> ReadPartitionFile(const std::string& path,
                                            int64_t max_memory_bytes) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "partition file"));
  return ParsePartition(text, path, max_memory_bytes);
}

std::string FormatPartition(const Partition& p) {
  std::string out = absl::StrCat("grid ", p.rows, " ", p.cols, "\n");
  for (const Rect& r : p.rects) {
    absl::StrAppend(&out, r.owner, " ", r.row, " ", r.col, " ", r.height, " ",
                    r.width, "\n");
  }
  return out;
}

}  // namespace rankmap::tiling
