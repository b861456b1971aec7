#include "cli/pictures/svg_text.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/xml_escape.h"

namespace rankmap::cli::pictures {
namespace {

std::vector<std::string> Ranges(const std::vector<int32_t>& ids) {
  std::vector<std::string> out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out.push_back(j == i ? absl::StrCat(ids[i])
                         : absl::StrCat(ids[i], "-", ids[j]));
    i = j + 1;
  }
  return out;
}

}  // namespace

std::string Escape(std::string_view text) { return base::XmlEscape(text); }

std::string Short(double value) {
  static const char* kUnits[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (std::fabs(value) >= 1000 && u < 5) {
    value /= 1000;
    ++u;
  }
  std::string s = absl::StrFormat("%.3g", value);
  return absl::StrCat(s, kUnits[u]);
}

std::vector<std::string> RangeLines(const std::vector<int32_t>& ids,
                                    size_t width, size_t max_lines) {
  const std::vector<std::string> ranges = Ranges(ids);
  // Ranges per line, greedily.
  std::vector<std::vector<std::string>> lines;
  size_t used = 0;
  for (const std::string& r : ranges) {
    if (lines.empty() || used + 2 + r.size() > width) {
      lines.push_back({});
      used = 0;
    } else {
      used += 2;
    }
    lines.back().push_back(r);
    used += r.size();
  }
  size_t left = 0;
  if (lines.size() > max_lines) {
    for (size_t l = max_lines; l < lines.size(); ++l) left += lines[l].size();
    lines.resize(max_lines);
  }
  std::vector<std::string> out;
  for (size_t l = 0; l < lines.size(); ++l) {
    std::vector<std::string>& line = lines[l];
    const bool last = l + 1 == lines.size();
    std::string text;
    while (true) {
      text.clear();
      for (size_t k = 0; k < line.size(); ++k)
        absl::StrAppend(&text, k ? ", " : "", line[k]);
      if (!last || left == 0) break;
      const std::string more = absl::StrCat(", +", left, " more");
      if (text.size() + more.size() <= width || line.size() == 1) {
        text += more;
        break;
      }
      line.pop_back();
      ++left;
    }
    if (!last) text += ",";
    out.push_back(std::move(text));
  }
  return out;
}

std::string RangeText(const std::vector<int32_t>& ids) {
  std::string out;
  for (const std::string& r : Ranges(ids)) {
    absl::StrAppend(&out, out.empty() ? "" : ", ", r);
  }
  return out;
}

std::string LogColour(double t) {
  // viridis at 0, 0.25, 0.5, 0.75, 1.
  static constexpr double kStops[5][3] = {{68, 1, 84},
                                          {59, 82, 139},
                                          {33, 145, 140},
                                          {94, 201, 98},
                                          {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(static_cast<int>(t), 3);
  const double f = t - i;
  int rgb[3];
  for (int c = 0; c < 3; ++c) {
    rgb[c] = static_cast<int>(
        std::lround(kStops[i][c] + f * (kStops[i + 1][c] - kStops[i][c])));
  }
  return absl::StrFormat("#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

const char* GroupColour(int64_t index) {
  static const char* kColours[] = {"#dbe9f6", "#fde0c5", "#d5efcf", "#f6d2d2",
                                   "#e4dcf0", "#eedfd6", "#f9dcec", "#e6e6e6",
                                   "#f1f2c9", "#d3f0f2"};
  return kColours[((index % 10) + 10) % 10];
}

}  // namespace rankmap::cli::pictures
