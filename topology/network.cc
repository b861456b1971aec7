#include "topology/network.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/hwloc_import.h"
#include "topology/link.h"
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

// The tree of a spec with links: root "network" -> clusters -> node trees,
// every node a host (loopback), uplinks and pair links as the directives say.
absl::StatusOr<Tree> BuildLinkedNetwork(const std::vector<Cluster>& clusters,
                                        const ClusterLinks& defaults,
                                        const Line* links_line,
                                        const std::vector<const Line*>& rows,
                                        const std::string& src) {
  const size_t k = clusters.size();
  auto at = [&](const Line& l, int column = 0) {
    return column > 0 ? absl::StrCat(src, ":", l.number, ":", column, ": ")
                      : absl::StrCat(src, ":", l.number, ": ");
  };
  std::vector<Link> pair;
  if (links_line != nullptr) {
    if (rows.size() != k) {
      return absl::InvalidArgumentError(
          absl::StrCat(at(*links_line), "links: ", rows.size(), " rows for ", k,
                       " clusters"));
    }
    pair.assign(k * k, Link{});
    for (size_t i = 0; i < k; ++i) {
      const Line& row = *rows[i];
      if (row.tokens.size() != k) {
        return absl::InvalidArgumentError(
            absl::StrCat(at(row), "links row ", i + 1, ": expected ", k,
                         " entries, found ", row.tokens.size()));
      }
      for (size_t j = 0; j < k; ++j) {
        const Token& t = row.tokens[j];
        if ((i == j) != (t.text == "-")) {
          return absl::InvalidArgumentError(absl::StrCat(
              at(row, t.column), "links row ", i + 1, ": entry ", j + 1,
              i == j ? " is on the diagonal: write '-'"
                     : " must be a link <bandwidth>:<latency>, not '-'"));
        }
        if (i == j) continue;
        absl::StatusOr<Link> link = ParseLink(
            t.text, absl::StrCat("links entry (", i + 1, ", ", j + 1, ")"));
        if (!link.ok()) {
          return absl::InvalidArgumentError(absl::StrCat(
              at(row, t.column), std::string(link.status().message())));
        }
        pair[i * k + j] = *link;
      }
    }
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (!(pair[i * k + j] == pair[j * k + i])) {
          return absl::InvalidArgumentError(absl::StrCat(
              at(*rows[i], rows[i]->tokens[j].column),
              "links: not symmetric: entry (", i + 1, ", ", j + 1,
              ") = ", rows[i]->tokens[j].text, " but entry (", j + 1, ", ",
              i + 1, ") = ", rows[j]->tokens[i].text));
        }
      }
    }
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
      return absl::InvalidArgumentError(absl::StrCat(
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
    return absl::InvalidArgumentError(
        absl::StrCat(src, ": ", std::string(t.status().message())));
  }
  return t;
}

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
  const std::string src(source);
  auto at = [&](const Line& l, int column = 0) {
    return column > 0 ? absl::StrCat(src, ":", l.number, ":", column, ": ")
                      : absl::StrCat(src, ":", l.number, ": ");
  };
  auto error = [](std::string msg) {
    return absl::InvalidArgumentError(std::move(msg));
  };
  const std::vector<Line> lines = SplitLines(text);
  if (lines.empty() || lines[0].tokens[0].text != "network" ||
      lines[0].tokens.size() != 1) {
    return error(
        absl::StrCat(src, ":", lines.empty() ? 1 : lines[0].number,
                     ": a network spec starts with the line 'network'"));
  }
  HwlocImportOptions hw;
  hw.leaf = options.leaf;
  hw.level_costs = options.level_costs;
  hw.max_synthetic_pus = max_leaves;
  hw.max_memory_bytes = options.max_memory_bytes;
  hw.max_hwloc_work = options.max_hwloc_work;
  const int64_t budget = base::MemoryBudget(options.max_memory_bytes);
  double network_cost = -1, cluster_cost = -1, scale = 1;
  bool bandwidths = false;
  const Line* matrix_line = nullptr;
  std::vector<std::vector<double>> matrix;
  std::vector<const Line*> matrix_rows;
  std::vector<Cluster> clusters;
  std::unordered_map<std::string, int> cluster_line;  // by name
  std::map<std::string, Tree> node_trees;  // by description, loaded once
  // Node trees with every leaf at one speed (a `speed` directive), by tree and
  // speed; 0: the node's own speeds.
  std::map<std::pair<const Tree*, double>, Tree> sped_trees;
  double default_speed = 0, speed = 0;
  ClusterLinks default_links;
  const Line* first_link_line = nullptr;
  const Line* first_cost_line = nullptr;
  const Line* links_line = nullptr;
  std::vector<const Line*> link_rows;
  int64_t total_leaves = 0;
  int64_t total_nodes = 1;  // the root

  auto parse_cost = [&](const Line& l, const Token& t,
                        const char* field) -> absl::StatusOr<double> {
    double v;
    if (!absl::SimpleAtod(t.text, &v) || !std::isfinite(v) || v < 0) {
      return error(absl::StrCat(
          at(l, t.column), field,
          ": expected a finite non-negative number, found '", t.text, "'"));
    }
    return v;
  };
  // Node descriptions are parsed padded to their place in the file, so the
  // columns (and, for tleaf, lines) in nested errors point into the spec
  // itself.
  auto load_node = [&](const Line& l, const std::string& desc,
                       int column) -> absl::StatusOr<const Tree*> {
    auto it = node_trees.find(desc);
    if (it != node_trees.end()) return &it->second;
    absl::StatusOr<Tree> t;
    if (LooksLikeTleaf(desc)) {
      t = ParseTleaf(
          std::string(l.number - 1, '\n') + std::string(column - 1, ' ') + desc,
          src, max_leaves, options.max_memory_bytes);
      if (!t.ok()) return t.status();
    } else if (EndsWith(desc, ".xml")) {
      t = TreeFromXmlFile(JoinPath(base_dir, desc), hw);
    } else {
      t = TreeFromSynthetic(std::string(column - 1, ' ') + desc, hw);
    }
    if (!t.ok()) {
      return absl::Status(t.status().code(),
                          absl::StrCat(at(l), "node '", desc, "': ",
                                       std::string(t.status().message())));
    }
    return &node_trees.emplace(desc, *std::move(t)).first->second;
  };
  auto add_nodes = [&](const Line& l, int64_t count, const std::string& host,
                       size_t desc_token) -> absl::Status {
    const std::string desc = l.Rest(desc_token);
    if (clusters.empty()) {
      return error(
          absl::StrCat(at(l), "node line before any 'cluster <name>' line"));
    }
    if (desc.empty())
      return error(absl::StrCat(at(l), "missing node description"));
    ASSIGN_OR_RETURN(const Tree* tree,
                     load_node(l, desc, l.tokens[desc_token].column));
    if (speed > 0) {
      auto it = sped_trees.find({tree, speed});
      if (it == sped_trees.end()) {
        ASSIGN_OR_RETURN(Tree sped, tree->WithSpeeds(std::vector<double>(
                                        tree->num_leaves(), speed)));
        it = sped_trees.emplace(std::pair(tree, speed), std::move(sped)).first;
      }
      tree = &it->second;
    }
    total_leaves += count * tree->num_leaves();
    if (total_leaves > max_leaves) {
      return error(absl::StrCat(at(l), "more than ", max_leaves,
                                " leaves in the network"));
    }
    total_nodes = base::SaturatingMulAdd(count, tree->num_nodes(), total_nodes);
    RETURN_IF_ERROR(CheckTreeSize(absl::StrCat(at(l), "network"), total_nodes,
                                  total_leaves, budget));
    Cluster& c = clusters.back();
    for (int64_t i = 0; i < count; ++i) {
      c.nodes.emplace_back(
          host.empty() ? absl::StrCat(c.name, "-", c.nodes.size()) : host,
          tree);
    }
    return absl::OkStatus();
  };

  for (size_t li = 1; li < lines.size(); ++li) {
    const Line& l = lines[li];
    const std::vector<Token>& tok = l.tokens;
    const std::string& word = tok[0].text;
    if (word == "leaf") {
      if (tok.size() != 2 || (tok[1].text != "pu" && tok[1].text != "core")) {
        return error(absl::StrCat(at(l, tok.size() > 1 ? tok[1].column : 1),
                                  "leaf: expected 'pu' or 'core'"));
      }
      if (!node_trees.empty())
        return error(absl::StrCat(at(l), "leaf: must come before the nodes"));
      hw.leaf = tok[1].text == "core" ? LeafKind::kCore : LeafKind::kPu;
    } else if (word == "level_costs") {
      if (tok.size() != 2)
        return error(
            absl::StrCat(at(l), "level_costs: expected one name=cost list"));
      if (!node_trees.empty()) {
        return error(
            absl::StrCat(at(l), "level_costs: must come before the nodes"));
      }
      hw.level_costs = tok[1].text;
    } else if (word == "cost") {
      if (tok.size() != 3 ||
          (tok[1].text != "network" && tok[1].text != "cluster")) {
        return error(absl::StrCat(
            at(l, tok.size() > 1 ? tok[1].column : 1),
            "cost: expected 'cost network <c>' or 'cost cluster <c>'"));
      }
      ASSIGN_OR_RETURN(double c,
                       parse_cost(l, tok[2],
                                  tok[1].text == "network" ? "cost network"
                                                           : "cost cluster"));
      (tok[1].text == "network" ? network_cost : cluster_cost) = c;
      if (first_cost_line == nullptr) first_cost_line = &l;
    } else if (word == "link") {
      if (tok.size() != 3 ||
          (tok[1].text != "node" && tok[1].text != "cluster" &&
           tok[1].text != "network")) {
        return error(absl::StrCat(at(l, tok.size() > 1 ? tok[1].column : 1),
                                  "link: expected 'link node|cluster|network "
                                  "<bandwidth>:<latency>'"));
      }
      absl::StatusOr<Link> link =
          ParseLink(tok[2].text, absl::StrCat("link ", tok[1].text));
      if (!link.ok()) {
        return error(absl::StrCat(at(l, tok[2].column),
                                  std::string(link.status().message())));
      }
      ClusterLinks& target =
          clusters.empty() ? default_links : clusters.back().links;
      (tok[1].text == "node"      ? target.node
       : tok[1].text == "cluster" ? target.cluster
                                  : target.network) = *link;
      if (first_link_line == nullptr) first_link_line = &l;
    } else if (word == "links") {
      if (links_line != nullptr) {
        return error(absl::StrCat(at(l),
                                  "links: a second matrix (the first "
                                  "is on line ",
                                  links_line->number, ")"));
      }
      if (tok.size() != 1) {
        return error(absl::StrCat(at(l, tok[1].column), "links: unexpected '",
                                  tok[1].text, "'"));
      }
      links_line = &l;
      if (first_link_line == nullptr) first_link_line = &l;
      while (li + 1 < lines.size() && LooksLikeLinkRow(lines[li + 1]))
        link_rows.push_back(&lines[++li]);
      if (link_rows.empty())
        return error(absl::StrCat(at(l), "links: no matrix rows follow"));
    } else if (word == "speed") {
      double v = 0;
      if (tok.size() != 2 || !absl::SimpleAtod(tok[1].text, &v) ||
          !std::isfinite(v) || v <= 0) {
        return error(absl::StrCat(
            at(l, tok.size() > 1 ? tok[1].column : 1),
            "speed: expected one finite number > 0, found '", l.Rest(1), "'"));
      }
      speed = v;
      if (clusters.empty()) default_speed = v;
    } else if (word == "cluster" || word == "switch") {
      if (tok.size() != 2) {
        return error(
            absl::StrCat(at(l), word, ": expected '", word, " <name>'"));
      }
      const auto [it, fresh] = cluster_line.emplace(tok[1].text, l.number);
      if (!fresh) {
        return error(absl::StrCat(at(l, tok[1].column), "cluster '",
                                  tok[1].text, "' already defined on line ",
                                  it->second));
      }
      ++total_nodes;
      speed = default_speed;
      clusters.push_back({tok[1].text, l.number, word, {}, {}});
    } else if (word == "node") {
      if (tok.size() < 3)
        return error(
            absl::StrCat(at(l), "node: expected 'node <host> <description>'"));
      RETURN_IF_ERROR(add_nodes(l, 1, tok[1].text, 2));
    } else if (tok.size() >= 2 && tok[1].text == "x") {
      int64_t n = 0;
      if (!absl::SimpleAtoi(word, &n) || n < 1 || n > kMaxNodesPerLine) {
        return error(absl::StrCat(at(l, tok[0].column),
                                  "node count: expected an integer in [1, ",
                                  kMaxNodesPerLine, "], found '", word, "'"));
      }
      RETURN_IF_ERROR(add_nodes(l, n, "", 2));
    } else if (word == "costs" || word == "bandwidths") {
      if (matrix_line != nullptr) {
        return error(absl::StrCat(at(l), word,
                                  ": a second matrix (the first is on line ",
                                  matrix_line->number, ")"));
      }
      bandwidths = word == "bandwidths";
      if (tok.size() > 2 || (tok.size() == 2 && !bandwidths)) {
        return error(absl::StrCat(at(l, tok.back().column), word,
                                  ": unexpected '", tok.back().text, "'"));
      }
      if (tok.size() == 2) {
        double s;
        if (!absl::SimpleAtod(tok[1].text, &s) || !std::isfinite(s) || s <= 0) {
          return error(absl::StrCat(
              at(l, tok[1].column),
              "bandwidths: scale must be a positive number, found '",
              tok[1].text, "'"));
        }
        scale = s;
      }
      matrix_line = &l;
      if (first_cost_line == nullptr) first_cost_line = &l;
      while (li + 1 < lines.size() && AllNumbers(lines[li + 1])) {
        const Line& row = lines[++li];
        std::vector<double> values;
        for (const Token& t : row.tokens) {
          double v;
          absl::SimpleAtod(t.text, &v);
          if (!std::isfinite(v) || v < 0 || (bandwidths && v == 0)) {
            return error(absl::StrCat(
                at(row, t.column), word, " row ", matrix.size() + 1,
                ": entry '", t.text, "' must be ",
                bandwidths ? "positive" : "non-negative", " and finite"));
          }
          values.push_back(v);
        }
        matrix.push_back(std::move(values));
        matrix_rows.push_back(&row);
      }
      if (matrix.empty())
        return error(absl::StrCat(at(l), word, ": no matrix rows follow"));
    } else {
      return error(
          absl::StrCat(at(l, tok[0].column), "unknown directive '", word, "'"));
    }
  }
  if (clusters.empty())
    return error(absl::StrCat(src, ": no 'cluster <name>' line"));
  for (const Cluster& c : clusters) {
    if (c.nodes.empty()) {
      return error(absl::StrCat(src, ":", c.line, ": cluster '", c.name,
                                "' has no nodes"));
    }
  }
  const size_t k = clusters.size();
  if (first_link_line != nullptr) {
    if (first_cost_line != nullptr) {
      return error(absl::StrCat(
          at(*first_cost_line), "costs are derived from the links (line ",
          first_link_line->number,
          "): remove the cost, costs and bandwidths directives"));
    }
    return BuildLinkedNetwork(clusters, default_links, links_line, link_rows,
                              src);
  }
  std::vector<double> own_cost(k,
                               -1);  // per-cluster cost from a matrix diagonal
  std::vector<double> pair;
  if (matrix_line != nullptr) {
    const char* name = bandwidths ? "bandwidths" : "costs";
    if (matrix.size() != k) {
      return error(absl::StrCat(at(*matrix_line), name, ": ", matrix.size(),
                                " rows for ", k, " clusters"));
    }
    for (size_t i = 0; i < k; ++i) {
      if (matrix[i].size() != k) {
        return error(absl::StrCat(at(*matrix_rows[i]), name, " row ", i + 1,
                                  ": expected ", k, " numbers, found ",
                                  matrix[i].size()));
      }
    }
    pair.assign(k * k, 0.0);
    for (size_t i = 0; i < k; ++i) {
      for (size_t j = 0; j < k; ++j) {
        if (matrix[i][j] != matrix[j][i]) {
          return error(absl::StrCat(
              at(*matrix_rows[i], matrix_rows[i]->tokens[j].column), name,
              ": not symmetric: entry (", i + 1, ", ", j + 1,
              ") = ", matrix_rows[i]->tokens[j].text, " but entry (", j + 1,
              ", ", i + 1, ") = ", matrix_rows[j]->tokens[i].text));
        }
        const double c = bandwidths ? scale / matrix[i][j] : matrix[i][j];
        if (!std::isfinite(c)) {
          return error(absl::StrCat(
              at(*matrix_rows[i], matrix_rows[i]->tokens[j].column), name,
              ": entry (", i + 1, ", ", j + 1, ") gives a non-finite cost"));
        }
        if (i == j) {
          if (matrix[i][i] != 0) own_cost[i] = c;
        } else {
          pair[i * k + j] = c;
        }
      }
    }
  }
  double max_root = 0;
  for (const auto& [desc, tree] : node_trees)
    max_root = std::max(max_root, tree.cost(tree.root()));
  if (cluster_cost < 0) cluster_cost = std::max(10.0, 10 * max_root);
  if (network_cost < 0) network_cost = 10 * cluster_cost;
  if (!pair.empty()) network_cost = *std::max_element(pair.begin(), pair.end());
  TreeBuilder b;
  const NodeId root = b.AddRoot("network", network_cost);
  for (size_t i = 0; i < k; ++i) {
    const NodeId c = b.AddChild(root, clusters[i].kind,
                                own_cost[i] >= 0 ? own_cost[i] : cluster_cost);
    for (const auto& [host, tree] : clusters[i].nodes)
      AppendSubtree(b, c, *tree, host);
  }
  if (!pair.empty()) b.SetPairCosts(root, std::move(pair));
  return std::move(b).Build();
}

absl::StatusOr<Tree> ReadNetworkSpecFile(const std::string& path,
                                         const LoadOptions& options) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "network spec"));
  const size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "" : path.substr(0, slash);
  return ParseNetworkSpec(text, path, dir, options);
}

}  // namespace rankmap::topology
