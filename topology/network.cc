#include "topology/network.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/host_name.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/hwloc_import.h"
#include "topology/link.h"
#include "topology/shown.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"
#include "topology/tree_size.h"

namespace rankmap::topology {
namespace {

constexpr int64_t kMaxNodesPerLine = int64_t{1} << 20;

using base::Line;
using base::SplitLines;
using base::Token;

bool AllNumbers(const Line& l) {
  for (const Token& t : l.tokens) {
    double d;
    if (!absl::SimpleAtod(t.text, &d)) return false;
  }
  return true;
}

bool LooksLikeLinkRow(const Line& l) {
  for (const Token& t : l.tokens) {
    if (t.text != "-" && t.text.find(':') == std::string::npos) return false;
  }
  return true;
}

std::string JoinPath(std::string_view dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || dir.empty()) return path;
  std::string d(dir);
  if (d.back() != '/') d += '/';
  return d + path;
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

absl::Status Error(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

// "src:line: " or "src:line:column: ".
std::string At(const std::string& src, const Line& l, int column = 0) {
  return column > 0 ? absl::StrCat(src, ":", l.number, ":", column, ": ")
                    : absl::StrCat(src, ":", l.number, ": ");
}

// The three link directives; a value not given has bandwidth 0.
struct ClusterLinks {
  Link node, cluster, network;
};

struct Cluster {
  std::string name;
  int line;
  std::string kind;  // "cluster" or "switch", as written
  // Host and tree of each node; the tree carries the speed directive's speeds.
  std::vector<std::pair<std::string, const Tree*>> nodes;
  ClusterLinks links;  // this cluster's own link directives
};

// A matrix directive ("costs", "bandwidths" or "links") and its rows.
struct MatrixLines {
  const Line* line = nullptr;
  std::vector<const Line*> rows;
};

// The `links` matrix: one link per pair of the k clusters, '-' on the
// diagonal, symmetric. Row-major k x k, the diagonal not given.
absl::StatusOr<std::vector<Link>> ParsePairLinks(const MatrixLines& m, size_t k,
                                                 const std::string& src) {
  if (m.rows.size() != k) {
    return Error(absl::StrCat(At(src, *m.line), "links: ", m.rows.size(),
                              " rows for ", k, " clusters"));
  }
  std::vector<Link> pair(k * k, Link{});
  for (size_t i = 0; i < k; ++i) {
    const Line& row = *m.rows[i];
    if (row.tokens.size() != k) {
      return Error(absl::StrCat(At(src, row), "links row ", i + 1,
                                ": expected ", k, " entries, found ",
                                row.tokens.size()));
    }
    for (size_t j = 0; j < k; ++j) {
      const Token& t = row.tokens[j];
      if ((i == j) != (t.text == "-")) {
        return Error(absl::StrCat(
            At(src, row, t.column), "links row ", i + 1, ": entry ", j + 1,
            i == j ? " is on the diagonal: write '-'"
                   : " must be a link <bandwidth>:<latency>, not '-'"));
      }
      if (i == j) continue;
      absl::StatusOr<Link> link = ParseLink(
          t.text, absl::StrCat("links entry (", i + 1, ", ", j + 1, ")"));
      if (!link.ok()) {
        return Error(absl::StrCat(At(src, row, t.column),
                                  std::string(link.status().message())));
      }
      pair[i * k + j] = *link;
    }
  }
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (!(pair[i * k + j] == pair[j * k + i])) {
        return Error(absl::StrCat(
            At(src, *m.rows[i], m.rows[i]->tokens[j].column),
            "links: not symmetric: entry (", i + 1, ", ", j + 1,
            ") = ", m.rows[i]->tokens[j].text, " but entry (", j + 1, ", ",
            i + 1, ") = ", m.rows[j]->tokens[i].text));
      }
    }
  }
  return pair;
}

// The tree of a spec with links: root "network" -> clusters -> node trees,
// every node a host (loopback), uplinks and pair links as the directives say.
absl::StatusOr<Tree> BuildLinkedNetwork(const std::vector<Cluster>& clusters,
                                        const ClusterLinks& defaults,
                                        const MatrixLines& links,
                                        const std::string& src) {
  std::vector<Link> pair;
  if (links.line != nullptr) {
    ASSIGN_OR_RETURN(pair, ParsePairLinks(links, clusters.size(), src));
  }
  TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  for (const Cluster& c : clusters) {
    auto pick = [](const Link& own, const Link& fallback) {
      return own.given() ? own : fallback;
    };
    const Link node = pick(c.links.node, defaults.node);
    const Link up = pick(c.links.cluster, defaults.cluster);
    const Link net = pick(c.links.network, defaults.network);
    const char* missing = !node.given() ? "node" : !up.given() ? "cluster" : "";
    if (*missing) {
      return Error(absl::StrCat(
          src, ":", c.line, ": cluster '", c.name, "' has no 'link ", missing,
          " <bandwidth>:<latency>' (give one before the first cluster or in "
          "its block)"));
    }
    const NodeId cn = b.AddChild(root, c.kind);
    if (net.given()) b.SetUplink(cn, net);
    for (const auto& [host, tree] : c.nodes) {
      const NodeId h = AppendSubtree(b, cn, *tree, host);
      b.SetUplink(h, up);
      b.SetLoopback(h, node);
    }
  }
  if (!pair.empty()) b.SetPairLinks(root, std::move(pair));
  absl::StatusOr<Tree> t = std::move(b).Build();
  if (!t.ok()) {
    return Error(absl::StrCat(src, ": ", std::string(t.status().message())));
  }
  return t;
}

// Reads one spec: the directives line by line, then the tree.
class SpecReader {
 public:
  SpecReader(std::string_view source, std::string_view base_dir,
             const LoadOptions& options, int64_t max_leaves)
      : src_(source),
        base_dir_(base_dir),
        max_leaves_(max_leaves),
        max_memory_bytes_(options.max_memory_bytes),
        budget_(base::MemoryBudget(options.max_memory_bytes)) {
    hw_.leaf = options.leaf;
    hw_.level_costs = options.level_costs;
    hw_.max_synthetic_pus = max_leaves;
    hw_.max_memory_bytes = options.max_memory_bytes;
    hw_.max_hwloc_work = options.max_hwloc_work;
  }

  absl::StatusOr<Tree> Read(std::string_view text) {
    lines_ = SplitLines(text);
    if (lines_.empty() || lines_[0].tokens[0].text != "network" ||
        lines_[0].tokens.size() != 1) {
      return Error(
          absl::StrCat(src_, ":", lines_.empty() ? 1 : lines_[0].number,
                       ": a network spec starts with the line 'network'"));
    }
    for (size_t li = 1; li < lines_.size(); ++li)
      RETURN_IF_ERROR(Directive(li));
    return Finish();
  }

 private:
  // The directive on lines_[li]; matrices also take the rows below it
  // (li moves to the last one).
  absl::Status Directive(size_t& li) {
    const Line& l = lines_[li];
    const std::vector<Token>& tok = l.tokens;
    const std::string& word = tok[0].text;
    if (word == "leaf") return LeafLine(l);
    if (word == "level_costs") return LevelCostsLine(l);
    if (word == "cost") return CostLine(l);
    if (word == "link") return LinkLine(l);
    if (word == "links") return LinksMatrix(li);
    if (word == "speed") return SpeedLine(l);
    if (word == "cluster" || word == "switch") return ClusterLine(l);
    if (word == "node") {
      if (tok.size() < 3)
        return Error(absl::StrCat(
            At(src_, l), "node: expected 'node <host> <description>'"));
      return AddNodes(l, 1, tok[1].text, 2);
    }
    if (tok.size() >= 2 && tok[1].text == "x") return CountLine(l);
    if (word == "costs" || word == "bandwidths") return CostMatrix(li);
    return Error(absl::StrCat(At(src_, l, tok[0].column), "unknown directive '",
                              word, "'"));
  }

  absl::Status LeafLine(const Line& l) {
    const std::vector<Token>& tok = l.tokens;
    if (tok.size() != 2 || (tok[1].text != "pu" && tok[1].text != "core")) {
      return Error(absl::StrCat(At(src_, l, tok.size() > 1 ? tok[1].column : 1),
                                "leaf: expected 'pu' or 'core'"));
    }
    if (!node_trees_.empty())
      return Error(
          absl::StrCat(At(src_, l), "leaf: must come before the nodes"));
    hw_.leaf = tok[1].text == "core" ? LeafKind::kCore : LeafKind::kPu;
    return absl::OkStatus();
  }

  absl::Status LevelCostsLine(const Line& l) {
    if (l.tokens.size() != 2)
      return Error(absl::StrCat(At(src_, l),
                                "level_costs: expected one name=cost list"));
    if (!node_trees_.empty()) {
      return Error(
          absl::StrCat(At(src_, l), "level_costs: must come before the nodes"));
    }
    hw_.level_costs = l.tokens[1].text;
    return absl::OkStatus();
  }

  absl::StatusOr<double> ParseCost(const Line& l, const Token& t,
                                   const char* field) const {
    double v;
    if (!absl::SimpleAtod(t.text, &v) || !std::isfinite(v) || v < 0) {
      return Error(absl::StrCat(
          At(src_, l, t.column), field,
          ": expected a finite non-negative number, found '", t.text, "'"));
    }
    return v;
  }

  absl::Status CostLine(const Line& l) {
    const std::vector<Token>& tok = l.tokens;
    if (tok.size() != 3 ||
        (tok[1].text != "network" && tok[1].text != "cluster")) {
      return Error(absl::StrCat(
          At(src_, l, tok.size() > 1 ? tok[1].column : 1),
          "cost: expected 'cost network <c>' or 'cost cluster <c>'"));
    }
    const bool network = tok[1].text == "network";
    ASSIGN_OR_RETURN(
        double c,
        ParseCost(l, tok[2], network ? "cost network" : "cost cluster"));
    (network ? network_cost_ : cluster_cost_) = c;
    if (!network) cluster_cost_line_ = l.number;
    if (first_cost_line_ == nullptr) first_cost_line_ = &l;
    return absl::OkStatus();
  }

  absl::Status LinkLine(const Line& l) {
    const std::vector<Token>& tok = l.tokens;
    if (tok.size() != 3 || (tok[1].text != "node" && tok[1].text != "cluster" &&
                            tok[1].text != "network")) {
      return Error(absl::StrCat(At(src_, l, tok.size() > 1 ? tok[1].column : 1),
                                "link: expected 'link node|cluster|network "
                                "<bandwidth>:<latency>'"));
    }
    absl::StatusOr<Link> link =
        ParseLink(tok[2].text, absl::StrCat("link ", tok[1].text));
    if (!link.ok()) {
      return Error(absl::StrCat(At(src_, l, tok[2].column),
                                std::string(link.status().message())));
    }
    ClusterLinks& target =
        clusters_.empty() ? default_links_ : clusters_.back().links;
    (tok[1].text == "node"      ? target.node
     : tok[1].text == "cluster" ? target.cluster
                                : target.network) = *link;
    if (first_link_line_ == nullptr) first_link_line_ = &l;
    return absl::OkStatus();
  }

  absl::Status LinksMatrix(size_t& li) {
    const Line& l = lines_[li];
    if (links_.line != nullptr) {
      return Error(absl::StrCat(At(src_, l),
                                "links: a second matrix (the first "
                                "is on line ",
                                links_.line->number, ")"));
    }
    if (l.tokens.size() != 1) {
      return Error(absl::StrCat(At(src_, l, l.tokens[1].column),
                                "links: unexpected '", l.tokens[1].text, "'"));
    }
    links_.line = &l;
    if (first_link_line_ == nullptr) first_link_line_ = &l;
    while (li + 1 < lines_.size() && LooksLikeLinkRow(lines_[li + 1]))
      links_.rows.push_back(&lines_[++li]);
    if (links_.rows.empty())
      return Error(absl::StrCat(At(src_, l), "links: no matrix rows follow"));
    return absl::OkStatus();
  }

  absl::Status SpeedLine(const Line& l) {
    const std::vector<Token>& tok = l.tokens;
    double v = 0;
    if (tok.size() != 2 || !absl::SimpleAtod(tok[1].text, &v) ||
        !std::isfinite(v) || v <= 0) {
      return Error(absl::StrCat(
          At(src_, l, tok.size() > 1 ? tok[1].column : 1),
          "speed: expected one finite number > 0, found '", l.Rest(1), "'"));
    }
    speed_ = v;
    if (clusters_.empty()) default_speed_ = v;
    return absl::OkStatus();
  }

  absl::Status ClusterLine(const Line& l) {
    const std::vector<Token>& tok = l.tokens;
    const std::string& word = tok[0].text;
    if (tok.size() != 2) {
      return Error(
          absl::StrCat(At(src_, l), word, ": expected '", word, " <name>'"));
    }
    const auto [it, fresh] = cluster_line_.emplace(tok[1].text, l.number);
    if (!fresh) {
      return Error(absl::StrCat(At(src_, l, tok[1].column), "cluster '",
                                tok[1].text, "' already defined on line ",
                                it->second));
    }
    ++total_nodes_;
    speed_ = default_speed_;
    clusters_.push_back({tok[1].text, l.number, word, {}, {}});
    return absl::OkStatus();
  }

  absl::Status CountLine(const Line& l) {
    const std::string& word = l.tokens[0].text;
    int64_t n = 0;
    if (!absl::SimpleAtoi(word, &n) || n < 1 || n > kMaxNodesPerLine) {
      return Error(absl::StrCat(At(src_, l, l.tokens[0].column),
                                "node count: expected an integer in [1, ",
                                kMaxNodesPerLine, "], found '", word, "'"));
    }
    return AddNodes(l, n, "", 2);
  }

  absl::Status CostMatrix(size_t& li) {
    const Line& l = lines_[li];
    const std::vector<Token>& tok = l.tokens;
    const std::string& word = tok[0].text;
    if (matrix_.line != nullptr) {
      return Error(absl::StrCat(At(src_, l), word,
                                ": a second matrix (the first is on line ",
                                matrix_.line->number, ")"));
    }
    bandwidths_ = word == "bandwidths";
    if (tok.size() > 2 || (tok.size() == 2 && !bandwidths_)) {
      return Error(absl::StrCat(At(src_, l, tok.back().column), word,
                                ": unexpected '", tok.back().text, "'"));
    }
    if (tok.size() == 2) {
      double s;
      if (!absl::SimpleAtod(tok[1].text, &s) || !std::isfinite(s) || s <= 0) {
        return Error(
            absl::StrCat(At(src_, l, tok[1].column),
                         "bandwidths: scale must be a positive number, found '",
                         tok[1].text, "'"));
      }
      scale_ = s;
    }
    matrix_.line = &l;
    if (first_cost_line_ == nullptr) first_cost_line_ = &l;
    while (li + 1 < lines_.size() && AllNumbers(lines_[li + 1]))
      RETURN_IF_ERROR(MatrixRow(lines_[++li], word));
    if (matrix_values_.empty())
      return Error(absl::StrCat(At(src_, l), word, ": no matrix rows follow"));
    return absl::OkStatus();
  }

  absl::Status MatrixRow(const Line& row, const std::string& word) {
    std::vector<double> values;
    for (const Token& t : row.tokens) {
      double v;
      absl::SimpleAtod(t.text, &v);
      if (!std::isfinite(v) || v < 0 || (bandwidths_ && v == 0)) {
        return Error(absl::StrCat(
            At(src_, row, t.column), word, " row ", matrix_values_.size() + 1,
            ": entry '", t.text, "' must be ",
            bandwidths_ ? "positive" : "non-negative", " and finite"));
      }
      values.push_back(v);
    }
    matrix_values_.push_back(std::move(values));
    matrix_.rows.push_back(&row);
    return absl::OkStatus();
  }

  // Node descriptions are parsed padded to their place in the file, so the
  // columns (and, for tleaf, lines) in nested errors point into the spec
  // itself.
  absl::StatusOr<const Tree*> LoadNode(const Line& l, const std::string& desc,
                                       int column) {
    auto it = node_trees_.find(desc);
    if (it != node_trees_.end()) return &it->second;
    absl::StatusOr<Tree> t;
    if (LooksLikeTleaf(desc)) {
      t = ParseTleaf(
          std::string(l.number - 1, '\n') + std::string(column - 1, ' ') + desc,
          src_, max_leaves_, max_memory_bytes_);
      if (!t.ok()) return t.status();
    } else if (EndsWith(desc, ".xml")) {
      t = TreeFromXmlFile(JoinPath(base_dir_, desc), hw_);
    } else {
      t = TreeFromSynthetic(std::string(column - 1, ' ') + desc, hw_);
    }
    if (!t.ok()) {
      return absl::Status(t.status().code(),
                          absl::StrCat(At(src_, l), "node '", desc, "': ",
                                       std::string(t.status().message())));
    }
    return &node_trees_.emplace(desc, *std::move(t)).first->second;
  }

  // The node tree at the current speed directive's speed.
  absl::StatusOr<const Tree*> AtSpeed(const Tree* tree) {
    if (speed_ <= 0) return tree;
    auto it = sped_trees_.find({tree, speed_});
    if (it == sped_trees_.end()) {
      ASSIGN_OR_RETURN(Tree sped, tree->WithSpeeds(std::vector<double>(
                                      tree->num_leaves(), speed_)));
      it = sped_trees_.emplace(std::pair(tree, speed_), std::move(sped)).first;
    }
    return &it->second;
  }

  // The host names of the `count` nodes of a node line: `host`, or
  // <cluster>-<i> (checked on the longest: the others differ only in
  // digits). Returns the longest name's length.
  absl::StatusOr<int64_t> CheckNodeNames(const Line& l, const Cluster& c,
                                         int64_t count,
                                         const std::string& host) const {
    if (!host.empty()) {
      if (absl::Status st = base::CheckHostName(host); !st.ok()) {
        return Error(absl::StrCat(At(src_, l, l.tokens[1].column),
                                  "node: ", st.message()));
      }
      return static_cast<int64_t>(host.size());
    }
    const std::string longest = absl::StrCat(
        c.name, "-", static_cast<int64_t>(c.nodes.size()) + count - 1);
    if (absl::Status st = base::CheckHostName(longest); !st.ok()) {
      return Error(absl::StrCat(At(src_, l, l.tokens[0].column), "node names '",
                                Shown(c.name), "-<i>' of cluster line ", c.line,
                                ": ", st.message()));
    }
    return static_cast<int64_t>(longest.size());
  }

  absl::Status AddNodes(const Line& l, int64_t count, const std::string& host,
                        size_t desc_token) {
    const std::string desc = l.Rest(desc_token);
    if (clusters_.empty()) {
      return Error(absl::StrCat(At(src_, l),
                                "node line before any 'cluster <name>' line"));
    }
    if (desc.empty())
      return Error(absl::StrCat(At(src_, l), "missing node description"));
    ASSIGN_OR_RETURN(const Tree* loaded,
                     LoadNode(l, desc, l.tokens[desc_token].column));
    ASSIGN_OR_RETURN(const Tree* tree, AtSpeed(loaded));
    if (tree->cost(tree->root()) > max_root_) {
      max_root_ = tree->cost(tree->root());
      max_root_line_ = l.number;
    }
    Cluster& c = clusters_.back();
    ASSIGN_OR_RETURN(const int64_t name_length,
                     CheckNodeNames(l, c, count, host));
    total_leaves_ += count * tree->num_leaves();
    if (total_leaves_ > max_leaves_) {
      return Error(absl::StrCat(At(src_, l), "more than ", max_leaves_,
                                " leaves in the network"));
    }
    total_nodes_ =
        base::SaturatingMulAdd(count, tree->num_nodes(), total_nodes_);
    // Each node's entry and each of its leaves hold a copy of its name.
    name_bytes_ = base::SaturatingMulAdd(
        1, name_bytes_,
        HostNameBytes(count * (tree->num_leaves() + 1), name_length));
    RETURN_IF_ERROR(CheckTreeSize(absl::StrCat(At(src_, l), "network"),
                                  total_nodes_, total_leaves_, budget_,
                                  name_bytes_));
    for (int64_t i = 0; i < count; ++i) {
      c.nodes.emplace_back(
          host.empty() ? absl::StrCat(c.name, "-", c.nodes.size()) : host,
          tree);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Tree> Finish() {
    if (clusters_.empty())
      return Error(absl::StrCat(src_, ": no 'cluster <name>' line"));
    for (const Cluster& c : clusters_) {
      if (c.nodes.empty()) {
        return Error(absl::StrCat(src_, ":", c.line, ": cluster '", c.name,
                                  "' has no nodes"));
      }
    }
    if (first_link_line_ != nullptr) {
      if (first_cost_line_ != nullptr) {
        return Error(absl::StrCat(
            At(src_, *first_cost_line_),
            "costs are derived from the links (line ", first_link_line_->number,
            "): remove the cost, costs and bandwidths directives"));
      }
      return BuildLinkedNetwork(clusters_, default_links_, links_, src_);
    }
    return BuildCostNetwork();
  }

  // The costs or bandwidths matrix as pair costs (row-major k x k, zero
  // diagonal); a non-zero diagonal entry becomes own_cost[i].
  absl::StatusOr<std::vector<double>> PairCosts(
      std::vector<double>& own_cost) const {
    const size_t k = clusters_.size();
    const char* name = bandwidths_ ? "bandwidths" : "costs";
    const std::vector<std::vector<double>>& m = matrix_values_;
    const std::vector<const Line*>& rows = matrix_.rows;
    if (m.size() != k) {
      return Error(absl::StrCat(At(src_, *matrix_.line), name, ": ", m.size(),
                                " rows for ", k, " clusters"));
    }
    for (size_t i = 0; i < k; ++i) {
      if (m[i].size() != k) {
        return Error(absl::StrCat(At(src_, *rows[i]), name, " row ", i + 1,
                                  ": expected ", k, " numbers, found ",
                                  m[i].size()));
      }
    }
    std::vector<double> pair(k * k, 0.0);
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < k; ++j) {
        if (m[i][j] != m[j][i]) {
          return Error(absl::StrCat(
              At(src_, *rows[i], rows[i]->tokens[j].column), name,
              ": not symmetric: entry (", i + 1, ", ", j + 1,
              ") = ", rows[i]->tokens[j].text, " but entry (", j + 1, ", ",
              i + 1, ") = ", rows[j]->tokens[i].text));
        }
        const double c = bandwidths_ ? scale_ / m[i][j] : m[i][j];
        if (!std::isfinite(c)) {
          return Error(absl::StrCat(
              At(src_, *rows[i], rows[i]->tokens[j].column), name, ": entry (",
              i + 1, ", ", j + 1, ") gives a non-finite cost"));
        }
        if (i == j) {
          if (m[i][i] != 0) own_cost[i] = c;
        } else {
          pair[i * k + j] = c;
        }
      }
    }
    return pair;
  }

  // The tree of a spec without links: costs from the directives, defaults
  // from the nodes' root costs.
  absl::StatusOr<Tree> BuildCostNetwork() {
    const size_t k = clusters_.size();
    std::vector<double> own_cost(k, -1);  // from a matrix diagonal
    std::vector<double> pair;
    if (matrix_.line != nullptr) {
      ASSIGN_OR_RETURN(pair, PairCosts(own_cost));
    }
    RETURN_IF_ERROR(DefaultCosts());
    if (!pair.empty())
      network_cost_ = *std::max_element(pair.begin(), pair.end());
    TreeBuilder b;
    const NodeId root = b.AddRoot("network", network_cost_);
    for (size_t i = 0; i < k; ++i) {
      const NodeId c =
          b.AddChild(root, clusters_[i].kind,
                     own_cost[i] >= 0 ? own_cost[i] : cluster_cost_);
      for (const auto& [host, tree] : clusters_[i].nodes)
        AppendSubtree(b, c, *tree, host);
    }
    if (!pair.empty()) b.SetPairCosts(root, std::move(pair));
    absl::StatusOr<Tree> t = std::move(b).Build();
    if (!t.ok()) {
      return Error(absl::StrCat(src_, ": ", std::string(t.status().message())));
    }
    return t;
  }

  // cost cluster = 10 x the costliest node root (at least 10), cost network =
  // 10 x cost cluster, where not given; refused when that passes DBL_MAX.
  absl::Status DefaultCosts() {
    if (cluster_cost_ < 0) {
      cluster_cost_ = std::max(10.0, 10 * max_root_);
      cluster_cost_line_ = max_root_line_;
      if (!std::isfinite(cluster_cost_)) {
        return Error(absl::StrCat(
            src_, ":", max_root_line_,
            ": cost cluster: the default, 10 x this node's root cost (",
            FormatCost(max_root_),
            "), is not finite: give 'cost cluster <c>'"));
      }
    }
    if (network_cost_ < 0) {
      network_cost_ = 10 * cluster_cost_;
      if (!std::isfinite(network_cost_)) {
        return Error(
            absl::StrCat(src_, ":", cluster_cost_line_,
                         ": cost network: the default, 10 x cost cluster (",
                         FormatCost(cluster_cost_),
                         "), is not finite: give 'cost network <c>'"));
      }
    }
    return absl::OkStatus();
  }

  const std::string src_;
  const std::string base_dir_;
  const int64_t max_leaves_;
  const int64_t max_memory_bytes_;
  const int64_t budget_;
  HwlocImportOptions hw_;
  std::vector<Line> lines_;
  double network_cost_ = -1, cluster_cost_ = -1, scale_ = 1;
  bool bandwidths_ = false;
  MatrixLines matrix_;  // costs or bandwidths
  std::vector<std::vector<double>> matrix_values_;
  std::vector<Cluster> clusters_;
  std::unordered_map<std::string, int> cluster_line_;  // by name
  std::map<std::string, Tree> node_trees_;  // by description, loaded once
  // Node trees with every leaf at one speed (a `speed` directive), by tree and
  // speed; 0: the node's own speeds.
  std::map<std::pair<const Tree*, double>, Tree> sped_trees_;
  double default_speed_ = 0, speed_ = 0;
  ClusterLinks default_links_;
  const Line* first_link_line_ = nullptr;
  const Line* first_cost_line_ = nullptr;
  MatrixLines links_;
  int64_t total_leaves_ = 0;
  int64_t total_nodes_ = 1;  // the root
  int64_t name_bytes_ = 0;   // host names (topology/tree_size.h)
  double max_root_ = 0;      // the costliest node root, on this line
  int max_root_line_ = 0;
  int cluster_cost_line_ = 0;  // the cost cluster directive or max_root_line_
};

}  // namespace

bool LooksLikeNetworkSpec(std::string_view text) {
  const auto lines =
      SplitLines(text.substr(0, std::min<size_t>(text.size(), 4096)));
  return !lines.empty() && lines[0].tokens[0].text == "network";
}

absl::StatusOr<Tree> ParseNetworkSpec(std::string_view text,
                                      std::string_view source,
                                      std::string_view base_dir,
                                      const LoadOptions& options,
                                      int64_t max_leaves) {
  return SpecReader(source, base_dir, options, max_leaves).Read(text);
}

}  // namespace rankmap::topology
