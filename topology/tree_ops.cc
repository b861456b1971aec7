#include "topology/tree_ops.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "topology/tleaf.h"

namespace rankmap::topology {
namespace {

// Copies the nodes of `t` with keep[v] (all when keep is empty) below `parent`
// (-1: as root). With number_leaves, a leaf without a logical index gets its
// number in `t` as one (what the caller calls it after a restriction).
NodeId CopyNodes(TreeBuilder& b, NodeId parent, const Tree& t,
                 const std::vector<bool>& keep, std::string_view host,
                 bool number_leaves = false) {
  auto kept = [&](NodeId v) { return keep.empty() || keep[v]; };
  std::vector<NodeId> bid(t.num_nodes(), -1);
  std::vector<NodeId> stack = {t.root()};
  while (!stack.empty()) {
    const NodeId v = stack.back();
    stack.pop_back();
    const NodeId p = t.parent(v);
    bid[v] = p < 0 ? (parent < 0 ? b.AddRoot(t.kind(v), t.cost(v))
                                 : b.AddChild(parent, t.kind(v), t.cost(v)))
                   : b.AddChild(bid[p], t.kind(v), t.cost(v));
    if (t.has_links()) {
      if (t.uplink(v).given()) b.SetUplink(bid[v], t.uplink(v));
      if (t.loopback(v).given()) b.SetLoopback(bid[v], t.loopback(v));
    }
    if (t.is_leaf(v)) {
      b.SetOsIndex(bid[v], t.os_index(v));
      if (t.pus(v).size() > 1)
        b.SetPus(bid[v], {t.pus(v).begin(), t.pus(v).end()});
      b.SetLogicalIndex(bid[v], t.logical_index(v) < 0 && number_leaves
                                    ? v
                                    : t.logical_index(v));
      b.SetCapacity(bid[v], t.capacity(v));
      b.SetSpeed(bid[v], t.speed(v));
      if (!host.empty()) {
        b.SetHost(bid[v], host);
      } else if (!t.host(v).empty()) {
        b.SetHost(bid[v], t.host(v));
      }
      continue;
    }
    auto kids = t.children(v);
    std::vector<int32_t> ranks;
    for (int32_t r = 0; r < static_cast<int32_t>(kids.size()); ++r) {
      if (kept(kids[r])) ranks.push_back(r);
    }
    if (t.has_pair_costs(v)) {
      std::vector<double> m;
      m.reserve(ranks.size() * ranks.size());
      for (int32_t i : ranks) {
        for (int32_t j : ranks) m.push_back(t.pair_cost(v, i, j));
      }
      b.SetPairCosts(bid[v], std::move(m));
    }
    if (t.has_pair_links(v)) {
      std::vector<Link> m;
      m.reserve(ranks.size() * ranks.size());
      for (int32_t i : ranks) {
        for (int32_t j : ranks) m.push_back(t.pair_link(v, i, j));
      }
      b.SetPairLinks(bid[v], std::move(m));
    }
    for (size_t k = ranks.size(); k-- > 0;) stack.push_back(kids[ranks[k]]);
  }
  return bid[t.root()];
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppend(
              &out, "\\u00",
              absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// "  uplink 10Gbps:2us  loopback 50GBps:0s" for the links a node carries.
std::string LinkNote(const Tree& tree, NodeId v) {
  std::string out;
  if (tree.uplink(v).given())
    absl::StrAppend(&out, "  uplink ", FormatLink(tree.uplink(v)));
  if (tree.loopback(v).given())
    absl::StrAppend(&out, "  loopback ", FormatLink(tree.loopback(v)));
  return out;
}

// The fields of one node's JSON object, without the closing brace and
// children.
void JsonNodeFields(const Tree& tree, NodeId v, std::string& out) {
  absl::StrAppend(&out, "{\"id\": ", v,
                  ", \"kind\": ", JsonString(tree.kind(v)));
  if (tree.uplink(v).given())
    absl::StrAppend(&out,
                    ", \"uplink\": ", JsonString(FormatLink(tree.uplink(v))));
  if (tree.loopback(v).given())
    absl::StrAppend(
        &out, ", \"loopback\": ", JsonString(FormatLink(tree.loopback(v))));
  if (tree.is_leaf(v)) {
    absl::StrAppend(&out, ", \"os_index\": ", tree.os_index(v),
                    ", \"host\": ", JsonString(tree.host(v)),
                    ", \"capacity\": ", tree.capacity(v));
    if (tree.has_speeds())
      absl::StrAppend(&out, ", \"speed\": ", tree.speed(v));
    return;
  }
  absl::StrAppend(&out, ", \"depth\": ", tree.depth(v),
                  ", \"cost\": ", FormatCost(tree.cost(v)), ", \"leaves\": [",
                  tree.leaf_begin(v), ", ", tree.leaf_end(v),
                  "], \"capacity\": ", tree.Capacity(v));
  const int32_t k = tree.num_children(v);
  if (tree.has_pair_costs(v)) {
    out += ", \"pair_costs\": [";
    for (int32_t i = 0; i < k; ++i) {
      out += i ? ", [" : "[";
      for (int32_t j = 0; j < k; ++j)
        absl::StrAppend(&out, j ? ", " : "",
                        FormatCost(tree.pair_cost(v, i, j)));
      out += "]";
    }
    out += "]";
  }
  if (tree.has_pair_links(v)) {
    out += ", \"pair_links\": [";
    for (int32_t i = 0; i < k; ++i) {
      out += i ? ", [" : "[";
      for (int32_t j = 0; j < k; ++j) {
        absl::StrAppend(
            &out, j ? ", " : "",
            i == j ? "null" : JsonString(FormatLink(tree.pair_link(v, i, j))));
      }
      out += "]";
    }
    out += "]";
  }
}

// A node's kind, cost, links and pair matrices as one string: two nodes are
// drawn alike when these, and their children's shapes, agree.
std::string ShapeText(const Tree& tree, NodeId v) {
  std::string text = tree.kind(v);
  if (tree.has_links()) {
    absl::StrAppend(&text, "|", LinkNote(tree, v));
    if (tree.has_pair_links(v)) {
      const int32_t k = tree.num_children(v);
      for (int32_t i = 0; i < k; ++i) {
        for (int32_t j = 0; j < k; ++j) {
          if (i != j)
            absl::StrAppend(&text, "|", FormatLink(tree.pair_link(v, i, j)));
        }
      }
    }
  }
  return text;
}

// Shape id of every node, bottom-up (children have smaller ids than parents):
// equal ids draw alike.
std::vector<int32_t> Shapes(const Tree& tree) {
  std::map<std::tuple<std::string, double, std::vector<double>, int32_t, double,
                      std::vector<int32_t>>,
           int32_t>
      ids;
  std::vector<int32_t> shape(tree.num_nodes());
  for (NodeId v = 0; v < tree.num_nodes(); ++v) {
    std::vector<double> pairs;
    if (tree.has_pair_costs(v)) {
      const int32_t k = tree.num_children(v);
      for (int32_t i = 0; i < k; ++i) {
        for (int32_t j = 0; j < k; ++j)
          pairs.push_back(tree.pair_cost(v, i, j));
      }
    }
    std::vector<int32_t> kids;
    for (NodeId c : tree.children(v)) kids.push_back(shape[c]);
    auto key =
        std::make_tuple(ShapeText(tree, v), tree.cost(v), std::move(pairs),
                        tree.is_leaf(v) ? tree.capacity(v) : -1,
                        tree.is_leaf(v) ? tree.speed(v) : 0.0, std::move(kids));
    shape[v] = ids.try_emplace(std::move(key), static_cast<int32_t>(ids.size()))
                   .first->second;
  }
  return shape;
}

std::string LeafRange(const Tree& tree, NodeId a, NodeId b) {
  return absl::StrCat("leaves [", tree.leaf_begin(a), ", ", tree.leaf_end(b),
                      ")");
}

// One line per drawn node: a node and its indent, or (more > 0) a summary
// line for `more` siblings ending at `last`.
struct DrawFrame {
  NodeId v;
  int32_t indent;
  int32_t more;
  NodeId last;
};

void DrawLeaf(const Tree& tree, NodeId v, const std::string& pad,
              std::string& out) {
  absl::StrAppend(&out, pad, tree.kind(v), " leaf ", v, " (os ",
                  tree.os_index(v), ")");
  if (!tree.host(v).empty()) absl::StrAppend(&out, " host ", tree.host(v));
  if (tree.capacity(v) != 1)
    absl::StrAppend(&out, " capacity ", tree.capacity(v));
  if (tree.has_speeds()) absl::StrAppend(&out, " speed ", tree.speed(v));
  absl::StrAppend(&out, LinkNote(tree, v), "\n");
}

// "  pair costs (k x k):" or "  pair links ...", then at most 32 x 32 entries.
void DrawPairs(const Tree& tree, NodeId v, const std::string& pad,
               std::string& out) {
  const int32_t k = tree.num_children(v);
  if (tree.has_pair_costs(v)) {
    absl::StrAppend(&out, pad, "  pair costs (", k, " x ", k, "):\n");
    for (int32_t i = 0; i < k && i < 32; ++i) {
      out += pad + "   ";
      for (int32_t j = 0; j < k && j < 32; ++j)
        absl::StrAppend(&out, " ", FormatCost(tree.pair_cost(v, i, j)));
      out += k > 32 ? " ...\n" : "\n";
    }
  }
  if (tree.has_pair_links(v)) {
    absl::StrAppend(&out, pad, "  pair links (", k, " x ", k, "):\n");
    for (int32_t i = 0; i < k && i < 32; ++i) {
      out += pad + "   ";
      for (int32_t j = 0; j < k && j < 32; ++j) {
        absl::StrAppend(&out, " ",
                        i == j ? "-" : FormatLink(tree.pair_link(v, i, j)));
      }
      out += k > 32 ? " ...\n" : "\n";
    }
  }
}

// An internal node's line; children that are all leaves are summed up on it.
void DrawInnerNode(const Tree& tree, NodeId v, const std::string& pad,
                   bool all_leaves, std::string& out) {
  auto kids = tree.children(v);
  absl::StrAppend(&out, pad, tree.kind(v), "  cost ", FormatCost(tree.cost(v)),
                  "  ", LeafRange(tree, v, v), "  ");
  if (all_leaves) {
    const bool same_kind = std::all_of(kids.begin(), kids.end(), [&](NodeId c) {
      return tree.kind(c) == tree.kind(kids[0]);
    });
    absl::StrAppend(&out, kids.size(), " x ",
                    same_kind ? tree.kind(kids[0]) : "leaf");
    if (!tree.host(kids[0]).empty())
      absl::StrAppend(&out, "  host ", tree.host(kids[0]));
    if (tree.Capacity(v) != static_cast<int64_t>(kids.size()))
      absl::StrAppend(&out, "  capacity ", tree.Capacity(v));
    if (tree.has_speeds()) {
      std::vector<double> speeds;
      for (NodeId c : kids) speeds.push_back(tree.speed(c));
      std::sort(speeds.begin(), speeds.end());
      speeds.erase(std::unique(speeds.begin(), speeds.end()), speeds.end());
      absl::StrAppend(&out, "  speed ", absl::StrJoin(speeds, ","));
    }
  } else {
    absl::StrAppend(&out, kids.size(), " children");
  }
  absl::StrAppend(&out, LinkNote(tree, v), "\n");
  DrawPairs(tree, v, pad, out);
}

}  // namespace

absl::StatusOr<Tree> Restrict(const Tree& tree,
                              std::span<const LeafId> allowed) {
  if (allowed.empty())
    return absl::InvalidArgumentError("topology/restrict: no leaf allowed");
  std::vector<bool> keep(tree.num_nodes(), false);
  for (LeafId l : allowed) {
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::InvalidArgumentError(absl::StrCat("topology/restrict: leaf ",
                                                     l, " is not in [0, ",
                                                     tree.num_leaves(), ")"));
    }
    keep[l] = true;
  }
  // Parents have larger ids: one upward sweep marks every ancestor of a kept
  // leaf.
  for (NodeId v = 0; v + 1 < tree.num_nodes(); ++v) {
    if (keep[v]) keep[tree.parent(v)] = true;
  }
  TreeBuilder b;
  CopyNodes(b, -1, tree, keep, "", /*number_leaves=*/true);
  return std::move(b).Build();
}

std::vector<int32_t> NumbersBeforeRestrict(const Tree& tree) {
  std::vector<int32_t> numbers(tree.num_leaves());
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    numbers[l] = tree.logical_index(l);
  std::vector<int32_t> sorted = numbers;
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty() &&
      (sorted[0] < 0 ||
       std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())) {
    return {};
  }
  return numbers;
}

absl::StatusOr<Tree> Oversubscribe(const Tree& tree, int32_t k) {
  if (k < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/oversubscribe: capacity per leaf must be >= 1, got ", k));
  }
  std::vector<int32_t> caps(tree.num_leaves());
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    caps[l] = tree.capacity(l) > 0 ? k : 0;
  return tree.WithCapacities(std::move(caps));
}

NodeId AppendSubtree(TreeBuilder& builder, NodeId parent, const Tree& sub,
                     std::string_view host) {
  return CopyNodes(builder, parent, sub, {}, host);
}

std::string ToJson(const Tree& tree) {
  std::string out = absl::StrCat(
      "{\"num_leaves\": ", tree.num_leaves(),
      ", \"num_nodes\": ", tree.num_nodes(), ", \"height\": ", tree.height(),
      ", \"balanced\": ", tree.Balanced() ? "true" : "false");
  if (tree.Balanced()) {
    out += ", \"arities\": [";
    const auto a = tree.Arities();
    for (size_t i = 0; i < a.size(); ++i)
      absl::StrAppend(&out, i ? ", " : "", a[i]);
    out += "]";
  }
  out += ", \"root\": ";
  if (tree.num_nodes() == 0) return out + "null}";
  // Explicit stack: (node, next child rank), so deep trees cannot overflow the
  // call stack.
  std::vector<std::pair<NodeId, int32_t>> stack = {{tree.root(), -1}};
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    if (next < 0) {
      JsonNodeFields(tree, v, out);
      if (tree.is_leaf(v)) {
        out += "}";
        stack.pop_back();
        continue;
      }
      out += ", \"children\": [";
      next = 0;
    }
    if (next < tree.num_children(v)) {
      if (next > 0) out += ", ";
      const NodeId c = tree.children(v)[next++];
      stack.push_back({c, -1});
      continue;
    }
    out += "]}";
    stack.pop_back();
  }
  return out + "}";
}

std::string DrawTree(const Tree& tree) {
  if (tree.num_nodes() == 0) return "(empty tree)\n";
  const std::vector<int32_t> shape = Shapes(tree);
  std::string out;
  std::vector<DrawFrame> stack = {{tree.root(), 0, 0, -1}};
  while (!stack.empty()) {
    const DrawFrame f = stack.back();
    stack.pop_back();
    const std::string pad(2 * f.indent, ' ');
    if (f.more > 0) {
      absl::StrAppend(&out, pad, "... ", f.more, " more like this, ",
                      LeafRange(tree, f.v, f.last), "\n");
      continue;
    }
    const NodeId v = f.v;
    if (tree.is_leaf(v)) {
      DrawLeaf(tree, v, pad, out);
      continue;
    }
    auto kids = tree.children(v);
    const bool all_leaves = std::all_of(
        kids.begin(), kids.end(), [&](NodeId c) { return tree.is_leaf(c); });
    DrawInnerNode(tree, v, pad, all_leaves, out);
    if (all_leaves) continue;
    // Push runs in reverse so they pop in order.
    std::vector<DrawFrame> frames;
    for (size_t i = 0; i < kids.size();) {
      size_t j = i + 1;
      while (j < kids.size() && shape[kids[j]] == shape[kids[i]]) ++j;
      frames.push_back({kids[i], f.indent + 1, 0, -1});
      if (j - i > 1)
        frames.push_back({kids[i + 1], f.indent + 1,
                          static_cast<int32_t>(j - i - 1), kids[j - 1]});
      i = j;
    }
    for (size_t k = frames.size(); k-- > 0;) stack.push_back(frames[k]);
  }
  return out;
}

}  // namespace rankmap::topology
