#include "tiling/partition_io.h"

#include <algorithm>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/status_macros.h"

namespace rankmap::tiling {

absl::StatusOr<Partition> ParsePartition(std::string_view text,
                                         std::string_view source) {
  Partition p;
  int32_t grid_line = 0;
  std::vector<int32_t> rect_line;
  int32_t last_line = 1;
  for (const base::Line& l : base::SplitLines(text)) {
    last_line = l.number;
    std::vector<int64_t> v;
    const bool is_grid = l.tokens[0].text == "grid";
    for (size_t k = is_grid ? 1 : 0; k < l.tokens.size(); ++k) {
      int64_t x = 0;
      if (!absl::SimpleAtoi(l.tokens[k].text, &x)) {
        return base::ColumnError(source, l.number, l.tokens[k].column,
                                 absl::StrCat("expected an integer, found '",
                                              l.tokens[k].text, "'"));
      }
      v.push_back(x);
    }
    if (is_grid) {
      if (grid_line != 0) {
        return base::LineError(
            source, l.number,
            absl::StrCat("second grid line (first on line ", grid_line, ")"));
      }
      if (v.size() != 2 || v[0] < 1 || v[1] < 1) {
        return base::LineError(source, l.number,
                               "expected 'grid <rows> <cols>', both >= 1");
      }
      grid_line = l.number;
      p.rows = v[0];
      p.cols = v[1];
      continue;
    }
    if (grid_line == 0) {
      return base::LineError(source, l.number,
                             "expected 'grid <rows> <cols>' first");
    }
    if (v.size() != 5) {
      return base::LineError(
          source, l.number,
          "expected '<processor> <row> <col> <height> <width>'");
    }
    const Rect r{v[1], v[2], v[3], v[4], static_cast<int32_t>(v[0])};
    if (v[0] < 0 || v[0] > 1'000'000) {
      return base::LineError(source, l.number,
                             absl::StrCat("processor ", v[0], " out of range"));
    }
    if (r.height < 1 || r.width < 1 || r.row < 0 || r.col < 0 ||
        r.row > p.rows - r.height || r.col > p.cols - r.width) {
      return base::LineError(source, l.number,
                             absl::StrCat("rectangle is empty or leaves the ",
                                          p.rows, " x ", p.cols, " grid"));
    }
    for (size_t j = 0; j < p.rects.size(); ++j) {
      const Rect& o = p.rects[j];
      if (r.row < o.row + o.height && o.row < r.row + r.height &&
          r.col < o.col + o.width && o.col < r.col + r.width) {
        return base::LineError(
            source, l.number,
            absl::StrCat("rectangle overlaps the one on line ", rect_line[j]));
      }
    }
    p.rects.push_back(r);
    rect_line.push_back(l.number);
    p.num_owners = std::max(p.num_owners, r.owner + 1);
  }
  if (grid_line == 0) return base::LineError(source, last_line, "no grid line");
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

absl::StatusOr<Partition> ReadPartitionFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "partition file"));
  return ParsePartition(text, path);
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
