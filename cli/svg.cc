#include "cli/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace rankmap::cli {
namespace {

// A perceptual-ish ramp from pale yellow (low) to dark red (high); t in [0, 1].
std::string HeatColour(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const int r = static_cast<int>(255 - 90 * t);
  const int g = static_cast<int>(245 - 225 * t);
  const int b = static_cast<int>(200 - 180 * t);
  return absl::StrFormat("#%02x%02x%02x", r, g, b);
}

// Distinct colours for groups (cycled).
const char* kGroupColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                               "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                               "#bcbd22", "#17becf"};

// Binned matrix: cell (bi, bj) sums w(u, v) over u in bin bi, v in bin bj;
// order[k] is the vertex drawn at position k.
std::vector<double> Bin(const graphs::CommGraph& g,
                        const std::vector<int32_t>& position, int32_t cells) {
  const int32_t n = g.num_vertices();
  std::vector<double> m(static_cast<size_t>(cells) * cells, 0.0);
  for (graphs::VertexId u = 0; u < n; ++u) {
    const int64_t bu = int64_t{position[u]} * cells / n;
    auto nbrs = g.neighbors(u);
    auto wgts = g.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      const int64_t bv = int64_t{position[nbrs[k]]} * cells / n;
      m[bu * cells + bv] += wgts[k];
    }
  }
  return m;
}

void DrawMatrix(std::string& out, const std::vector<double>& m, int32_t cells,
                double x0, double y0, double size, double max_log,
                const std::string& title) {
  const double cell = size / cells;
  absl::StrAppend(
      &out,
      absl::StrFormat("<g class=\"matrix\"><text x=\"%.1f\" y=\"%.1f\" "
                      "font-family=\"sans-serif\" font-size=\"14\">%s</text>\n",
                      x0, y0 - 8, title));
  absl::StrAppend(
      &out,
      absl::StrFormat("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                      "height=\"%.1f\" fill=\"white\" stroke=\"#444\"/>\n",
                      x0, y0, size, size));
  for (int32_t i = 0; i < cells; ++i) {
    for (int32_t j = 0; j < cells; ++j) {
      const double v = m[static_cast<size_t>(i) * cells + j];
      if (v <= 0.0) continue;
      const double t = max_log > 0 ? std::log1p(v) / max_log : 1.0;
      absl::StrAppend(
          &out,
          absl::StrFormat(
              "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
              "height=\"%.2f\" fill=\"%s\"><title>%g</title></rect>\n",
              x0 + j * cell, y0 + i * cell, cell, cell, HeatColour(t), v));
    }
  }
  absl::StrAppend(&out, "</g>\n");
}

}  // namespace

std::string MatrixHeatmapSvg(const graphs::CommGraph& graph,
                             const core::Mapping& mapping, int32_t max_cells) {
  const int32_t n = graph.num_vertices();
  const int32_t cells = std::max(1, std::min(n, max_cells));
  std::vector<int32_t> natural(n);
  std::iota(natural.begin(), natural.end(), 0);
  // After: processes sorted by leaf (stable, so co-located processes keep their
  // order).
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return mapping[a] < mapping[b];
  });
  std::vector<int32_t> mapped(n);
  for (int32_t k = 0; k < n; ++k) mapped[order[k]] = k;
  const std::vector<double> before = Bin(graph, natural, cells);
  const std::vector<double> after = Bin(graph, mapped, cells);
  double max_value = 0.0;
  for (double v : before) max_value = std::max(max_value, v);
  const double max_log = std::log1p(max_value);
  const double size = 480, margin = 40;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
      "height=\"%.0f\" "
      "data-processes=\"%d\" data-cells=\"%d\">\n",
      3 * margin + 2 * size, 2 * margin + size, n, cells);
  DrawMatrix(out, before, cells, margin, margin, size, max_log,
             absl::StrCat("process order (", n, " processes)"));
  DrawMatrix(out, after, cells, 2 * margin + size, margin, size, max_log,
             "ordered by mapped leaf");
  absl::StrAppend(&out, "</svg>\n");
  return out;
}

std::string TreeSvg(const topology::Tree& tree, const core::Mapping& mapping,
                    int32_t group_depth, int32_t max_leaves) {
  // Choose the deepest drawn level: leaves when they fit, else the deepest
  // depth with at most max_leaves nodes (nodes below it are summarised by their
  // process count).
  std::vector<int32_t> per_depth(tree.height() + 1, 0);
  for (topology::NodeId v = 0; v < tree.num_nodes(); ++v)
    ++per_depth[tree.depth(v)];
  int32_t draw_depth = tree.height();
  while (draw_depth > 0 && per_depth[draw_depth] > max_leaves) --draw_depth;
  std::vector<std::vector<int32_t>> on_leaf(tree.num_leaves());
  for (size_t p = 0; p < mapping.size(); ++p)
    on_leaf[mapping[p]].push_back(static_cast<int32_t>(p));
  // x position: bottom nodes (depth == draw_depth, or shallower leaves) spread
  // in leaf order.
  std::vector<double> x(tree.num_nodes(), 0.0), y(tree.num_nodes(), 0.0);
  std::vector<char> drawn(tree.num_nodes(), 0);
  std::vector<topology::NodeId> bottom;
  for (topology::NodeId v = 0; v < tree.num_nodes(); ++v)
    drawn[v] = tree.depth(v) <= draw_depth;
  // Bottom nodes in left-to-right order: walk leaves and take their ancestor at
  // draw_depth.
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    topology::NodeId a = l;
    while (tree.depth(a) > draw_depth) a = tree.parent(a);
    if (bottom.empty() || bottom.back() != a) bottom.push_back(a);
  }
  const double spacing = 28, level_height = 70, margin = 30;
  for (size_t k = 0; k < bottom.size(); ++k)
    x[bottom[k]] = margin + spacing * (k + 0.5);
  for (topology::NodeId v = 0; v < tree.num_nodes(); ++v) {
    if (!drawn[v]) continue;
    y[v] = margin + level_height * tree.depth(v);
    bool is_bottom = tree.is_leaf(v) || tree.depth(v) == draw_depth;
    if (!is_bottom) {
      double lo = 1e300, hi = -1e300;
      for (topology::NodeId c : tree.children(v)) {
        lo = std::min(lo, x[c]);
        hi = std::max(hi, x[c]);
      }
      x[v] = (lo + hi) / 2;
    }
  }
  const double width = 2 * margin + spacing * bottom.size();
  const double height = 2 * margin + level_height * (draw_depth + 1) + 14 * 8;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
      "height=\"%.0f\" "
      "data-drawn-nodes=\"%d\" data-processes=\"%d\">\n",
      width, height,
      static_cast<int>(std::count(drawn.begin(), drawn.end(), 1)),
      static_cast<int>(mapping.size()));
  for (topology::NodeId v = 0; v < tree.num_nodes(); ++v) {
    if (!drawn[v] || tree.parent(v) < 0) continue;
    const topology::NodeId p = tree.parent(v);
    absl::StrAppend(
        &out,
        absl::StrFormat("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                        "stroke=\"#888\"/>\n",
                        x[p], y[p], x[v], y[v]));
  }
  for (topology::NodeId v = 0; v < tree.num_nodes(); ++v) {
    if (!drawn[v]) continue;
    absl::StrAppend(
        &out, absl::StrFormat(
                  "<circle class=\"node\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
                  "fill=\"#333\"><title>%s %d (cost %g)</title></circle>\n",
                  x[v], y[v], tree.kind(v), v, tree.cost(v)));
  }
  // Processes under each bottom node, stacked, coloured by group.
  for (topology::NodeId b : bottom) {
    int32_t row = 0;
    for (topology::LeafId l = tree.leaf_begin(b); l < tree.leaf_end(b); ++l) {
      for (int32_t p : on_leaf[l]) {
        topology::NodeId g = l;
        while (g >= 0 && tree.depth(g) > group_depth) g = tree.parent(g);
        const char* colour = kGroupColours[(g < 0 ? 0 : g) % 10];
        if (row < 8) {
          absl::StrAppend(
              &out, absl::StrFormat(
                        "<text class=\"process\" x=\"%.1f\" y=\"%.1f\" "
                        "text-anchor=\"middle\" font-family=\"sans-serif\" "
                        "font-size=\"11\" fill=\"%s\">%d</text>\n",
                        x[b], y[b] + 18 + 13 * row, colour, p));
        }
        ++row;
      }
    }
    if (row > 8) {
      absl::StrAppend(
          &out,
          absl::StrFormat("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                          "font-family=\"sans-serif\" font-size=\"10\">"
                          "+%d</text>\n",
                          x[b], y[b] + 18 + 13 * 8, row - 8));
    }
  }
  absl::StrAppend(&out, "</svg>\n");
  return out;
}

}  // namespace rankmap::cli
