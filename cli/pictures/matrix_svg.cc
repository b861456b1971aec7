#include "cli/pictures/matrix_svg.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/pictures/svg_text.h"

namespace rankmap::cli::pictures {
namespace {

constexpr double kSize = 560;  // plot side
constexpr double kLeft = 78, kTop = 46, kBottom = 58;
constexpr double kLegend = 250;  // right of the plot
constexpr double kMinSpacing = 4;

// Kinds of the internal nodes at each depth, joined: "Package | NUMANode".
// One pass over the nodes, so trees of any depth cost O(nodes).
std::vector<std::string> KindsByDepth(const topology::Tree &tree) {
  std::vector<std::vector<std::string>> kinds(tree.height() + 1);
  std::vector<absl::flat_hash_set<std::string>> seen(tree.height() + 1);
  for (topology::NodeId v = tree.num_nodes() - 1; v >= tree.num_leaves(); --v) {
    if (seen[tree.depth(v)].insert(tree.kind(v)).second)
      kinds[tree.depth(v)].push_back(tree.kind(v));
  }
  std::vector<std::string> out;
  for (const auto &k : kinds) out.push_back(absl::StrJoin(k, " | "));
  return out;
}

// The traffic summed into cells x cells blocks of processes ordered by
// their mapped leaf.
struct CellMatrix {
  int32_t n = 0;
  int32_t cells = 1;
  std::vector<int32_t> order;  // processes by mapped leaf (stable)
  std::vector<double> sum;     // cells x cells, row-major
};

CellMatrix SumCells(const graphs::CommGraph &graph,
                    const core::Mapping &mapping, int32_t max_cells) {
  CellMatrix m;
  const int32_t n = m.n = graph.num_vertices();
  const int32_t cells = m.cells = std::max(1, std::min(n, max_cells));
  m.order.resize(n);
  std::iota(m.order.begin(), m.order.end(), 0);
  std::stable_sort(m.order.begin(), m.order.end(), [&](int32_t a, int32_t b) {
    return mapping[a] < mapping[b];
  });
  std::vector<int32_t> cell_of(n);
  for (int32_t k = 0; k < n; ++k) {
    cell_of[m.order[k]] =
        static_cast<int32_t>(static_cast<int64_t>(k) * cells / std::max(n, 1));
  }
  m.sum.assign(static_cast<size_t>(cells) * cells, 0.0);
  for (graphs::VertexId u = 0; u < n; ++u) {
    const auto nbrs = graph.neighbors(u);
    const auto wgts = graph.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k)
      m.sum[static_cast<size_t>(cell_of[u]) * cells + cell_of[nbrs[k]]] +=
          wgts[k];
  }
  return m;
}

// The colour scale: log10 of the smallest and largest nonzero cell.
struct LogScale {
  bool any = false;  // some cell has traffic
  double log_lo = 0, log_hi = 1;
  // Position of `v` on the scale, 0 to 1.
  double T(double v) const {
    const double span = std::max(log_hi - log_lo, 1e-12);
    return log_hi - log_lo < 1e-12 ? 1.0 : (std::log10(v) - log_lo) / span;
  }
};

LogScale ScaleOf(const std::vector<double> &sum) {
  double lo = INFINITY, hi = 0;
  for (double v : sum) {
    if (v > 0) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  LogScale s;
  s.any = hi > 0;
  s.log_lo = s.any ? std::log10(lo) : 0;
  s.log_hi = s.any ? std::log10(hi) : 1;
  return s;
}

// The svg element, the title, the plot's frame and its cells.
void AppendCells(const CellMatrix &m, const LogScale &scale, std::string &out) {
  const int32_t n = m.n, cells = m.cells;
  const double width = kLeft + kSize + kLegend, height = kTop + kSize + kBottom;
  absl::StrAppend(
      &out, absl::StrFormat(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\" "
                "font-size=\"11\" data-processes=\"%d\" data-cells=\"%d\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
                width, height, width, height, n, cells));
  const int32_t block = (n + cells - 1) / cells;
  absl::StrAppend(
      &out,
      absl::StrFormat(
          "<text class=\"title\" x=\"%.0f\" y=\"22\" font-size=\"13\" "
          "font-weight=\"bold\">%s</text>\n",
          kLeft,
          Escape(absl::StrCat(
              "Communication matrix: ", n, " processes ordered by mapped leaf",
              cells < n ? absl::StrCat(", cells of about ", block, " x ", block)
                        : ""))));
  const double cell = kSize / cells;
  absl::StrAppend(
      &out,
      absl::StrFormat("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
                      "height=\"%.0f\" fill=\"#ffffff\" stroke=\"#444\"/>\n"
                      "<g class=\"cells\" shape-rendering=\"crispEdges\">\n",
                      kLeft, kTop, kSize, kSize));
  for (int32_t i = 0; i < cells; ++i) {
    for (int32_t j = 0; j < cells; ++j) {
      const double v = m.sum[static_cast<size_t>(i) * cells + j];
      if (v <= 0) continue;
      absl::StrAppend(
          &out, absl::StrFormat("<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" "
                                "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                                "data-volume=\"%.6g\"/>\n",
                                kLeft + j * cell, kTop + i * cell, cell + 0.05,
                                cell + 0.05, LogColour(scale.T(v)), v));
    }
  }
  absl::StrAppend(&out, "</g>\n");
}

// What the boundary lines leave for the axes and the legend.
struct Boundaries {
  std::vector<std::string> legend_levels;  // "|stroke|name (n)" or a note
  std::vector<int32_t> ticks;  // positions of the first drawn level's lines
};

// Boundaries: depth of the LCA of neighbouring positions' leaves.
Boundaries AppendBoundaries(const topology::Tree &tree,
                            const core::Mapping &mapping, const CellMatrix &m,
                            std::string &out) {
  const int32_t n = m.n;
  const int32_t height_t = tree.height();
  std::vector<std::vector<int32_t>> at_depth(height_t);
  for (int32_t k = 1; k < n; ++k) {
    const core::LeafId a = mapping[m.order[k - 1]], b = mapping[m.order[k]];
    if (a == b) continue;
    const topology::NodeId lca = tree.Lca(a, b);
    // Between two leaves of one parent: a leaf boundary, not a block's.
    if (tree.parent(a) == lca && tree.parent(b) == lca) continue;
    at_depth[tree.depth(lca)].push_back(k);
  }
  const double pos_scale = n > 0 ? kSize / n : 0;
  Boundaries b;
  const std::vector<std::string> kinds = KindsByDepth(tree);
  size_t lines_above = 0;
  for (int32_t d = 0; d < height_t; ++d) {
    const auto &ks = at_depth[d];
    lines_above += ks.size();
    if (ks.empty()) continue;
    // Lines of this level and the levels above it, evenly spread; they
    // separate the nodes one level down.
    const size_t lines = lines_above;
    const std::string &name = kinds[d + 1];
    if (kSize / (lines + 1) < kMinSpacing) {
      b.legend_levels.push_back(
          absl::StrCat(name.size() > 20 ? name.substr(0, 18) + ".." : name,
                       ": too fine to draw"));
      continue;
    }
    if (b.ticks.empty() && ks.size() <= 16) b.ticks = ks;
    const double stroke = std::max(0.5, 2.2 - 0.6 * d);
    b.legend_levels.push_back(
        absl::StrCat("|", absl::StrFormat("%.1f", stroke), "|",
                     name.size() > 26 ? name.substr(0, 24) + ".." : name, " (",
                     lines + 1, ")"));
    for (int32_t k : ks) {
      const double p = k * pos_scale;
      absl::StrAppend(
          &out,
          absl::StrFormat(
              "<line class=\"boundary\" data-depth=\"%d\" data-pos=\"%d\" "
              "x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" "
              "stroke=\"#e8175d\" "
              "stroke-width=\"%.1f\"/>\n"
              "<line class=\"boundary\" data-depth=\"%d\" data-pos=\"%d\" "
              "x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" "
              "stroke=\"#e8175d\" "
              "stroke-width=\"%.1f\"/>\n",
              d, k, kLeft + p, kTop, kLeft + p, kTop + kSize, stroke, d, k,
              kLeft, kTop + p, kLeft + kSize, kTop + p, stroke));
    }
  }
  return b;
}

// Axes: ticks at the first drawn level's boundaries (or quarters), titles.
void AppendAxes(std::vector<int32_t> ticks, int32_t n, std::string &out) {
  const double pos_scale = n > 0 ? kSize / n : 0;
  if (ticks.empty()) {
    for (int q = 1; q < 4; ++q)
      ticks.push_back(static_cast<int32_t>(static_cast<int64_t>(n) * q / 4));
  }
  ticks.insert(ticks.begin(), 0);
  ticks.push_back(n);
  absl::StrAppend(&out, "<g class=\"axes\">\n");
  double last_x = -1e9, last_y = -1e9;
  for (int32_t k : ticks) {
    const double p = k * pos_scale;
    absl::StrAppend(
        &out,
        absl::StrFormat("<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" "
                        "y2=\"%.0f\" stroke=\"#444\"/>\n"
                        "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" "
                        "y2=\"%.2f\" stroke=\"#444\"/>\n",
                        kLeft + p, kTop + kSize, kLeft + p, kTop + kSize + 5,
                        kLeft - 5, kTop + p, kLeft, kTop + p));
    // Labels that would overlap the previous one are left out.
    if (kLeft + p - last_x >= 34) {
      absl::StrAppend(
          &out, absl::StrFormat("<text class=\"tick\" x=\"%.2f\" y=\"%.0f\" "
                                "text-anchor=\"middle\">%d</text>\n",
                                kLeft + p, kTop + kSize + 17, k));
      last_x = kLeft + p;
    }
    if (kTop + p - last_y >= 14) {
      absl::StrAppend(
          &out, absl::StrFormat("<text class=\"tick\" x=\"%.0f\" y=\"%.2f\" "
                                "text-anchor=\"end\">%d</text>\n",
                                kLeft - 8, kTop + p + 4, k));
      last_y = kTop + p;
    }
  }
  absl::StrAppend(
      &out,
      absl::StrFormat(
          "<text class=\"axis-title\" x=\"%.0f\" y=\"%.0f\" "
          "text-anchor=\"middle\">receiving process, by mapped leaf</text>\n"
          "<text class=\"axis-title\" transform=\"translate(%.0f %.0f) "
          "rotate(-90)\" text-anchor=\"middle\">sending process, by mapped "
          "leaf</text>\n</g>\n",
          kLeft + kSize / 2, kTop + kSize + 40, 18.0, kTop + kSize / 2));
}

constexpr double kLegendX = kLeft + kSize + 30;
constexpr double kBarHeight = 220, kBarWidth = 16;

// Legend: colour bar with ticks at powers of ten.
void AppendColourBar(const LogScale &scale, std::string &out) {
  const double lx = kLegendX, bar_h = kBarHeight, bar_w = kBarWidth;
  absl::StrAppend(
      &out,
      absl::StrFormat(
          "<g class=\"legend\">\n<defs><linearGradient id=\"heat\" x1=\"0\" "
          "y1=\"1\" x2=\"0\" y2=\"0\">"),
      "");
  for (int s = 0; s <= 4; ++s) {
    absl::StrAppend(&out, absl::StrFormat("<stop offset=\"%.2f\" "
                                          "stop-color=\"%s\"/>",
                                          s / 4.0, LogColour(s / 4.0)));
  }
  absl::StrAppend(
      &out, absl::StrFormat(
                "</linearGradient></defs>\n<text x=\"%.0f\" y=\"%.0f\" "
                "font-weight=\"bold\">bytes per cell (log)</text>\n"
                "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
                "fill=\"url(#heat)\" stroke=\"#444\"/>\n",
                lx, kTop + 4, lx, kTop + 14, bar_w, bar_h));
  if (!scale.any) {
    absl::StrAppend(&out, absl::StrFormat("<text x=\"%.0f\" y=\"%.0f\">no "
                                          "traffic</text>\n",
                                          lx + bar_w + 7, kTop + 30));
    return;
  }
  // Powers of ten, and the ends of the scale unless a power is near.
  std::vector<double> marks = {scale.log_lo};
  for (double e = std::ceil(scale.log_lo - 1e-9); e <= scale.log_hi + 1e-9;
       e += 1) {
    if (e - marks.back() < 0.15) marks.pop_back();
    marks.push_back(e);
  }
  if (scale.log_hi - marks.back() >= 0.15) marks.push_back(scale.log_hi);
  // At most 8 labels.
  const size_t step = (marks.size() + 7) / 8;
  for (size_t i = 0; i < marks.size(); i += step) {
    const double y = kTop + 14 + bar_h * (1 - scale.T(std::pow(10, marks[i])));
    absl::StrAppend(
        &out, absl::StrFormat(
                  "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
                  "stroke=\"#444\"/><text class=\"legend-tick\" x=\"%.0f\" "
                  "y=\"%.1f\">%s</text>\n",
                  lx + bar_w, y, lx + bar_w + 4, y, lx + bar_w + 7, y + 4,
                  Escape(Short(std::pow(10, marks[i])))));
  }
}

// Legend: the tree levels and their line widths; closes the svg.
void AppendLevels(const std::vector<std::string> &legend_levels,
                  std::string &out) {
  const double lx = kLegendX;
  double y = kTop + 14 + kBarHeight + 30;
  absl::StrAppend(&out,
                  absl::StrFormat("<text x=\"%.0f\" y=\"%.0f\" "
                                  "font-weight=\"bold\">tree levels</text>\n",
                                  lx, y));
  for (const std::string &entry : legend_levels) {
    y += 16;
    if (entry[0] == '|') {
      const size_t bar = entry.find('|', 1);
      absl::StrAppend(
          &out,
          absl::StrFormat("<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
                          "y2=\"%.0f\" stroke=\"#e8175d\" stroke-width=\"%s\"/>"
                          "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                          lx, y - 4, lx + 18, y - 4, entry.substr(1, bar - 1),
                          lx + 24, y, Escape(entry.substr(bar + 1))));
    } else {
      absl::StrAppend(&out, absl::StrFormat("<text x=\"%.0f\" y=\"%.0f\" "
                                            "fill=\"#777\">%s</text>\n",
                                            lx, y, Escape(entry)));
    }
  }
  absl::StrAppend(&out, "</g>\n</svg>\n");
}

}  // namespace

std::string MatrixSvg(const topology::Tree &tree,
                      const graphs::CommGraph &graph,
                      const core::Mapping &mapping, int32_t max_cells) {
  const CellMatrix m = SumCells(graph, mapping, max_cells);
  const LogScale scale = ScaleOf(m.sum);
  std::string out;
  AppendCells(m, scale, out);
  const Boundaries b = AppendBoundaries(tree, mapping, m, out);
  AppendAxes(b.ticks, m.n, out);
  AppendColourBar(scale, out);
  AppendLevels(b.legend_levels, out);
  return out;
}

}  // namespace rankmap::cli::pictures
