#include "cli/pictures/tree_svg.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cli/pictures/svg_text.h"

namespace rankmap::cli::pictures {
namespace {

using topology::LeafId;
using topology::NodeId;

constexpr double kColumn = 160;  // box width
constexpr double kGap = 10;      // between columns
constexpr double kRowGap = 34;   // between rows
constexpr double kLine = 13;     // text line height
constexpr double kMargin = 16;
constexpr double kTitle = 30;
constexpr size_t kChars = 24;  // characters per line at 11 px

enum class BoxKind { kInner, kBottom, kFolded, kLeaves };

const char* KindClass(BoxKind k) {
  switch (k) {
    case BoxKind::kInner:
      return "inner";
    case BoxKind::kBottom:
      return "bottom";
    case BoxKind::kFolded:
      return "folded";
    case BoxKind::kLeaves:
      return "leaves";
  }
  return "?";
}

struct Box {
  BoxKind kind = BoxKind::kInner;
  NodeId node = -1;   // the node (inner, bottom), the first folded sibling
  int32_t count = 1;  // siblings folded into the box
  bool alike = true;  // folded siblings share one shape
  LeafId begin = 0, end = 0;
  int32_t row = 0;
  std::vector<int32_t> children;
  std::vector<std::string> lines;
  std::string tooltip;
  int64_t processes = 0;
  double x = 0;  // centre
};

class Layout {
 public:
  Layout(const topology::Tree& tree, const core::Mapping& mapping,
         const TreePictureOptions& options)
      : tree_(tree), options_(options) {
    // Processes by leaf, ascending within a leaf.
    begin_.assign(tree.num_leaves() + 1, 0);
    for (LeafId l : mapping) ++begin_[l + 1];
    for (LeafId l = 0; l < tree.num_leaves(); ++l) begin_[l + 1] += begin_[l];
    by_leaf_.resize(mapping.size());
    std::vector<int64_t> fill(begin_.begin(), begin_.end() - 1);
    for (size_t p = 0; p < mapping.size(); ++p)
      by_leaf_[fill[mapping[p]]++] = static_cast<int32_t>(p);
    // host_changes_[l]: leaves in [1, l] whose host differs from the one
    // before.
    host_changes_.assign(tree.num_leaves(), 0);
    for (LeafId l = 1; l < tree.num_leaves(); ++l) {
      host_changes_[l] =
          host_changes_[l - 1] + (tree.host(l) != tree.host(l - 1));
    }
    ComputeShapes();
  }

  std::string Draw() {
    Build();
    return Render();
  }

 private:
  bool IsBottom(NodeId v) const {
    if (tree_.is_leaf(v)) return false;
    for (NodeId c : tree_.children(v)) {
      if (!tree_.is_leaf(c)) return false;
    }
    return true;
  }

  // Shape ids (equal ids: same kinds, costs, capacities and arities all the
  // way down) and the columns each subtree needs when fully drawn.
  void ComputeShapes() {
    const int32_t n = tree_.num_nodes();
    shape_.assign(n, 0);
    columns_.assign(n, 1);
    std::map<std::string, int32_t> ids;
    for (NodeId v = 0; v < n; ++v) {  // children first
      std::string key =
          absl::StrCat(tree_.kind(v), "|", tree_.cost(v), "|",
                       tree_.has_pair_costs(v) ? "p" : "", "|",
                       tree_.is_leaf(v) ? tree_.capacity(v) : -1, "|");
      int64_t cols = 0;
      bool in_leaf_run = false;
      for (NodeId c : tree_.children(v)) {
        absl::StrAppend(&key, shape_[c], ",");
        if (tree_.is_leaf(c)) {
          if (!in_leaf_run) ++cols;
          in_leaf_run = true;
        } else {
          cols += columns_[c];
          in_leaf_run = false;
        }
      }
      if (!tree_.is_leaf(v) && !IsBottom(v))
        columns_[v] = std::min<int64_t>(cols, int64_t{1} << 40);
      shape_[v] =
          ids.emplace(key, static_cast<int32_t>(ids.size())).first->second;
    }
  }

  std::vector<int32_t> Processes(LeafId b, LeafId e) const {
    std::vector<int32_t> p(by_leaf_.begin() + begin_[b],
                           by_leaf_.begin() + begin_[e]);
    std::sort(p.begin(), p.end());
    return p;
  }

  // "host n0" or "hosts a-0 .. b-3 (8)"; empty without host names. O(1):
  // every node asks for its range and its parent's, on trees of any depth.
  std::string Hosts(LeafId b, LeafId e) const {
    const std::string& first = tree_.host(b);
    const std::string& last = tree_.host(e - 1);
    if (first.empty() && last.empty()) return "";
    const int64_t distinct = 1 + host_changes_[e - 1] - host_changes_[b];
    if (distinct == 1) return absl::StrCat("host ", first);
    return absl::StrCat("hosts ", first, " .. ", last, " (", distinct, ")");
  }

  void KindLines(const std::string& kind, std::vector<std::string>& lines) {
    // hwloc's merged kinds wrap at '+', two lines at most.
    std::vector<std::string> parts = absl::StrSplit(kind, '+');
    std::string line;
    int used = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
      const std::string piece =
          i + 1 < parts.size() ? parts[i] + "+" : parts[i];
      if (!line.empty() && line.size() + piece.size() > kChars) {
        if (++used == 2) break;
        lines.push_back(line);
        line.clear();
      }
      line += piece;
    }
    if (line.size() > kChars) line = line.substr(0, kChars - 2) + "..";
    lines.push_back(line);
  }

  void ProcessLines(Box& b, size_t max_lines) {
    const std::vector<int32_t> procs = Processes(b.begin, b.end);
    b.processes = static_cast<int64_t>(procs.size());
    b.lines.push_back(procs.size() == 1
                          ? "1 process"
                          : absl::StrCat(procs.size(), " processes"));
    for (std::string& l : RangeLines(procs, kChars, max_lines))
      b.lines.push_back(std::move(l));
    b.tooltip = absl::StrCat("leaves [", b.begin, ", ", b.end, "): processes ",
                             RangeText(procs));
  }

  int32_t Add(Box b) {
    boxes_.push_back(std::move(b));
    return static_cast<int32_t>(boxes_.size()) - 1;
  }

  int32_t LeavesBox(LeafId b, LeafId e, int32_t row) {
    Box box;
    box.kind = BoxKind::kLeaves;
    box.node = b;
    box.begin = b;
    box.end = e;
    box.row = row;
    box.count = e - b;
    box.lines.push_back(absl::StrCat(e - b, " x ", tree_.kind(b)));
    box.lines.push_back(absl::StrCat("leaves [", b, ", ", e, ")"));
    ProcessLines(box, 3);
    return Add(std::move(box));
  }

  Box NodeBox(NodeId v, BoxKind kind, int32_t row) {
    Box box;
    box.kind = kind;
    box.node = v;
    box.begin = tree_.leaf_begin(v);
    box.end = tree_.leaf_end(v);
    box.row = row;
    KindLines(tree_.kind(v), box.lines);
    box.lines.push_back(
        absl::StrCat("cost ", absl::StrFormat("%g", tree_.cost(v)),
                     tree_.has_pair_costs(v) ? ", pair costs" : ""));
    const std::string hosts = Hosts(box.begin, box.end);
    const NodeId p = tree_.parent(v);
    // A host line where the host changes: on the node that holds one host,
    // or on nodes spanning several.
    if (!hosts.empty() &&
        (p < 0 || Hosts(tree_.leaf_begin(p), tree_.leaf_end(p)) != hosts)) {
      box.lines.push_back(hosts);
    }
    return box;
  }

  // A box still to make: node v drawn within `budget` columns, a run of
  // `count` leaf children from v, or `count` siblings from v folded into one;
  // its id goes to slot `slot` of box `parent`'s children.
  struct Task {
    enum Kind { kNode, kLeaves, kFolded } kind;
    NodeId v;
    int32_t count;
    bool alike;
    int32_t row, budget;
    int32_t parent = -1, slot = 0;
  };

  // Every box, depth first from an explicit stack (no recursion: trees can
  // be thousands of levels deep).
  void Build() {
    std::vector<Task> stack = {{Task::kNode, tree_.root(), 1, true, 0,
                                std::max(1, options_.max_columns)}};
    std::vector<Task> kids;
    while (!stack.empty()) {
      const Task t = stack.back();
      stack.pop_back();
      kids.clear();
      int32_t id = -1;
      switch (t.kind) {
        case Task::kLeaves:
          id = LeavesBox(t.v, t.v + t.count, t.row);
          break;
        case Task::kFolded:
          id = Folded(t.v, t.count, t.alike, t.row);
          break;
        case Task::kNode:
          id = NodeBoxAndChildren(t.v, t.row, t.budget, kids);
          break;
      }
      if (t.parent >= 0) boxes_[t.parent].children[t.slot] = id;
      boxes_[id].children.assign(kids.size(), -1);
      for (size_t i = kids.size(); i-- > 0;) {
        kids[i].parent = id;
        kids[i].slot = static_cast<int32_t>(i);
        stack.push_back(kids[i]);
      }
    }
  }

  // A box for node v and its whole subtree: `first` then its leaves and
  // processes.
  int32_t BottomBox(NodeId v, int32_t row, std::string first) {
    Box box = NodeBox(v, BoxKind::kBottom, row);
    box.lines.push_back(std::move(first));
    box.lines.push_back(
        absl::StrCat("leaves [", box.begin, ", ", box.end, ")"));
    ProcessLines(box, 3);
    return Add(std::move(box));
  }

  // Children as items (index among the children): a run of leaf children
  // is one item, and so is a run of one shape.
  struct Item {
    int32_t index;
    int32_t count;
    bool leaves;
  };

  std::vector<Item> ChildItems(NodeId v) const {
    const auto children = tree_.children(v);
    std::vector<Item> items;
    for (int32_t k = 0; k < static_cast<int32_t>(children.size()); ++k) {
      const bool leaf = tree_.is_leaf(children[k]);
      if (!items.empty() && items.back().leaves && leaf) {
        ++items.back().count;
      } else if (!items.empty() && !leaf && !items.back().leaves &&
                 shape_[children[items.back().index]] == shape_[children[k]]) {
        ++items.back().count;
      } else {
        items.push_back({k, 1, leaf});
      }
    }
    return items;
  }

  // The box of node v; the boxes under it go to `kids` as tasks, in order.
  int32_t NodeBoxAndChildren(NodeId v, int32_t row, int32_t budget,
                             std::vector<Task>& kids) {
    if (tree_.is_leaf(v)) return LeavesBox(v, v + 1, row);
    if (IsBottom(v)) {
      return BottomBox(v, row,
                       absl::StrCat(tree_.num_children(v), " x ",
                                    tree_.kind(tree_.children(v)[0]))
                           .substr(0, kChars));
    }
    if (budget <= 1 && columns_[v] > 1) {
      // No room below: the node stands for its whole subtree.
      return BottomBox(v, row,
                       absl::StrCat(tree_.num_children(v), " children"));
    }
    Box box = NodeBox(v, BoxKind::kInner, row);
    box.lines.push_back(
        absl::StrCat("leaves [", box.begin, ", ", box.end, ")"));
    box.processes = begin_[box.end] - begin_[box.begin];
    box.lines.push_back(absl::StrCat(box.processes, " processes"));
    const int32_t id = Add(std::move(box));
    const auto children = tree_.children(v);
    const std::vector<Item> items = ChildItems(v);
    const auto leaves = [&](const Item& it) {
      return Task{
          Task::kLeaves, children[it.index], it.count, true, row + 1, 0};
    };
    const auto node = [&](int32_t k, int32_t b) {
      return Task{Task::kNode, children[k], 1, true, row + 1, b};
    };
    const auto folded = [&](int32_t k, int32_t count, bool alike) {
      return Task{Task::kFolded, children[k], count, alike, row + 1, 0};
    };
    if (columns_[v] <= budget) {
      for (const Item& it : items) {
        if (it.leaves) {
          kids.push_back(leaves(it));
        } else {
          for (int32_t i = 0; i < it.count; ++i)
            kids.push_back(node(it.index + i, budget));
        }
      }
      return id;
    }
    int32_t needed = 0;
    for (const Item& it : items) needed += it.count > 1 && !it.leaves ? 2 : 1;
    if (needed <= budget) {
      // The first of each run drawn, the rest folded.
      const int32_t share =
          std::max(1, (budget - (needed - static_cast<int32_t>(items.size()))) /
                          static_cast<int32_t>(items.size()));
      for (const Item& it : items) {
        if (it.leaves) {
          kids.push_back(leaves(it));
          continue;
        }
        kids.push_back(node(it.index, share));
        if (it.count > 1)
          kids.push_back(folded(it.index + 1, it.count - 1, true));
      }
      return id;
    }
    // Too many different children: the first drawn, the others folded.
    const Item& first = items[0];
    kids.push_back(first.leaves ? leaves(first)
                                : node(first.index, std::max(1, budget - 1)));
    const int32_t skip = first.leaves ? first.count : 1;
    kids.push_back(folded(skip, tree_.num_children(v) - skip, false));
    return id;
  }

  // `count` siblings from `from` on in one box; `alike`: the same shape as
  // the sibling drawn before them.
  int32_t Folded(NodeId from, int32_t count, bool alike, int32_t row) {
    const auto siblings = tree_.children(tree_.parent(from));
    const NodeId to = siblings[tree_.child_rank(from) + count - 1];
    Box box;
    box.kind = BoxKind::kFolded;
    box.node = from;
    box.count = count;
    box.alike = alike;
    box.row = row;
    box.begin = tree_.leaf_begin(from);
    box.end = tree_.leaf_end(to);
    box.lines.push_back(alike ? absl::StrCat("x ", count, " more like this")
                              : absl::StrCat("+ ", count, " more children"));
    if (alike) box.lines.push_back(tree_.kind(from).substr(0, kChars));
    box.lines.push_back(
        absl::StrCat("leaves [", box.begin, ", ", box.end, ")"));
    const std::string hosts = Hosts(box.begin, box.end);
    if (!hosts.empty()) box.lines.push_back(hosts.substr(0, kChars));
    ProcessLines(box, 3);
    return Add(std::move(box));
  }

  // Bottom-up x: boxes without children take the next column, parents sit
  // over the middle of their children. Depth first from an explicit stack.
  int32_t Place() {
    int32_t column = 0;
    std::vector<std::pair<int32_t, size_t>> stack = {{0, 0}};  // (box, next)
    while (!stack.empty()) {
      const int32_t id = stack.back().first;
      Box& b = boxes_[id];
      if (b.children.empty()) {
        b.x = kMargin + column * (kColumn + kGap) + kColumn / 2;
        ++column;
        stack.pop_back();
      } else if (stack.back().second < b.children.size()) {
        const int32_t c = b.children[stack.back().second++];
        stack.push_back({c, 0});
      } else {
        b.x = (boxes_[b.children.front()].x + boxes_[b.children.back()].x) / 2;
        stack.pop_back();
      }
    }
    return column;
  }

  // One box: its rectangle, tooltip and lines, at height y0.
  void AppendBox(const Box& b, double y0, std::string& out) const {
    const double x0 = b.x - kColumn / 2;
    const double h = 10 + kLine * b.lines.size();
    std::string fill = "#f4f4f4";
    std::string stroke = "#555";
    if (b.kind == BoxKind::kBottom || b.kind == BoxKind::kLeaves) {
      NodeId g = b.begin;
      while (g >= 0 && tree_.depth(g) > options_.group_depth)
        g = tree_.parent(g);
      fill = GroupColour(g >= 0 ? tree_.child_rank(g) : 0);
    } else if (b.kind == BoxKind::kFolded) {
      fill = "#ffffff";
      stroke = "#999";
    }
    absl::StrAppend(
        &out,
        absl::StrFormat(
            "<g class=\"box %s\" data-node=\"%d\" data-count=\"%d\" "
            "data-leaves=\"%d,%d\" data-processes=\"%d\">\n"
            "<title>%s</title>\n"
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
            "rx=\"4\" fill=\"%s\" stroke=\"%s\"%s/>\n",
            KindClass(b.kind), b.node, b.count, b.begin, b.end, b.processes,
            Escape(b.tooltip.empty()
                       ? absl::StrCat(tree_.kind(b.node), " ", b.node)
                       : b.tooltip),
            x0, y0, kColumn, h, fill, stroke,
            b.kind == BoxKind::kFolded ? " stroke-dasharray=\"4 3\"" : ""));
    absl::StrAppend(
        &out, absl::StrFormat("<text x=\"%.1f\" y=\"%.1f\">", x0 + 6, y0 + 3));
    for (size_t i = 0; i < b.lines.size(); ++i) {
      const bool bold = i == 0;
      absl::StrAppend(
          &out, absl::StrFormat(
                    "<tspan x=\"%.1f\" dy=\"%.0f\"%s>%s</tspan>", x0 + 6, kLine,
                    bold ? " font-weight=\"bold\"" : "", Escape(b.lines[i])));
    }
    absl::StrAppend(&out, "</text>\n</g>\n");
  }

  std::string Render() {
    const int32_t columns = Place();
    int32_t rows = 0;
    for (const Box& b : boxes_) rows = std::max(rows, b.row + 1);
    std::vector<double> row_height(rows, 0), row_y(rows + 1, kMargin + kTitle);
    for (const Box& b : boxes_) {
      row_height[b.row] =
          std::max(row_height[b.row], 10 + kLine * b.lines.size());
    }
    for (int32_t r = 0; r < rows; ++r)
      row_y[r + 1] = row_y[r] + row_height[r] + kRowGap;
    const double width =
        std::max(420.0, 2 * kMargin + columns * (kColumn + kGap) - kGap);
    const double height = row_y[rows] - kRowGap + kMargin;
    int64_t processes = begin_.back();
    std::string out = absl::StrFormat(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
        "font-size=\"11\" data-leaves=\"%d\" data-processes=\"%d\">\n"
        "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
        "<text class=\"title\" x=\"%.0f\" y=\"%.0f\" font-size=\"13\" "
        "font-weight=\"bold\">%s</text>\n",
        width, height, width, height, tree_.num_leaves(), processes, kMargin,
        kMargin + 12,
        Escape(absl::StrCat("Tree: ", tree_.num_leaves(), " leaves, ",
                            processes, " processes",
                            Folds() ? " (repeated subtrees folded)" : "")));
    // Edges under the boxes.
    for (const Box& b : boxes_) {
      for (int32_t c : b.children) {
        const Box& k = boxes_[c];
        absl::StrAppend(
            &out,
            absl::StrFormat(
                "<line class=\"edge\" x1=\"%.1f\" y1=\"%.1f\" "
                "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"%s/>\n",
                b.x, row_y[b.row] + 10 + kLine * b.lines.size(), k.x,
                row_y[k.row],
                k.kind == BoxKind::kFolded ? " stroke-dasharray=\"4 3\"" : ""));
      }
    }
    for (const Box& b : boxes_) AppendBox(b, row_y[b.row], out);
    absl::StrAppend(&out, "</svg>\n");
    return out;
  }

  bool Folds() const {
    for (const Box& b : boxes_) {
      if (b.kind == BoxKind::kFolded) return true;
    }
    return false;
  }

  const topology::Tree& tree_;
  const TreePictureOptions options_;
  std::vector<int64_t> begin_;    // num_leaves + 1, into by_leaf_
  std::vector<int32_t> by_leaf_;  // processes by leaf
  std::vector<int32_t> shape_;
  std::vector<int64_t> columns_;
  std::vector<int64_t> host_changes_;  // num_leaves
  std::vector<Box> boxes_;
};

}  // namespace

std::string TreeSvg(const topology::Tree& tree, const core::Mapping& mapping,
                    const TreePictureOptions& options) {
  return Layout(tree, mapping, options).Draw();
}

}  // namespace rankmap::cli::pictures
