#include "topology/tleaf.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/link.h"
#include "topology/tree_size.h"

namespace rankmap::topology {
namespace {

constexpr int64_t kMaxLevels = 256;
constexpr int64_t kMaxLeaves = int64_t{1} << 30;

struct Token {
  std::string text;
  int line;
  int column;
};

std::vector<Token> Tokenize(std::string_view s) {
  std::vector<Token> out;
  int line = 1, column = 1;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      column = 1;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++column;
      ++i;
      continue;
    }
    Token t{"", line, column};
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) {
      t.text += s[i];
      ++i;
      ++column;
    }
    out.push_back(std::move(t));
  }
  return out;
}

// The link form: hosts at depth L-1 named n0, n1, ...; level L's link is their
// loopback, level i's the uplink of the nodes at depth i.
absl::StatusOr<Tree> LinkedLevels(const std::vector<int64_t>& arities,
                                  const std::vector<Link>& links) {
  const size_t levels = arities.size();
  TreeBuilder b;
  std::vector<NodeId> frontier = {b.AddRoot("level0")};
  int64_t hosts = 0;
  for (size_t d = 0; d < levels; ++d) {
    const std::string kind =
        d + 1 == levels ? "leaf" : absl::StrCat("level", d + 1);
    std::vector<NodeId> next;
    next.reserve(frontier.size() * arities[d]);
    for (NodeId p : frontier) {
      if (d + 1 == levels) b.SetLoopback(p, links[d]);
      const std::string host = absl::StrCat("n", hosts);
      for (int64_t c = 0; c < arities[d]; ++c) {
        const NodeId v = b.AddChild(p, kind);
        if (d + 1 < levels) {
          b.SetUplink(v, links[d]);
        } else {
          b.SetHost(v, host);
        }
        next.push_back(v);
      }
      if (d + 1 == levels) ++hosts;
    }
    frontier = std::move(next);
  }
  return std::move(b).Build();
}

std::string At(const std::string& src, const Token& t) {
  return absl::StrCat(src, ":", t.line, ":", t.column, ": ");
}

// L from "tleaf L ...", with exactly 2 L numbers after it.
absl::StatusOr<int64_t> TleafLevelCount(const std::vector<Token>& tokens,
                                        const std::string& src) {
  if (tokens.empty() || tokens[0].text != "tleaf") {
    const Token t = tokens.empty() ? Token{"", 1, 1} : tokens[0];
    return absl::InvalidArgumentError(absl::StrCat(
        At(src, t), "expected the word 'tleaf', found '", t.text, "'"));
  }
  if (tokens.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(At(src, tokens[0]),
                     "missing field 'L' (number of levels) after 'tleaf'"));
  }
  int64_t levels = 0;
  if (!absl::SimpleAtoi(tokens[1].text, &levels) || levels < 1 ||
      levels > kMaxLevels) {
    return absl::InvalidArgumentError(absl::StrCat(
        At(src, tokens[1]),
        "field 'L' (number of levels): expected an integer in [1, ", kMaxLevels,
        "], found '", tokens[1].text, "'"));
  }
  const size_t needed = 2 + 2 * static_cast<size_t>(levels);
  if (tokens.size() < needed) {
    const size_t k = tokens.size() - 2;  // fields present after L
    const int64_t level = static_cast<int64_t>(k / 2) + 1;
    const std::string field = absl::StrCat(k % 2 == 0 ? "a" : "c", level);
    const Token& last = tokens.back();
    return absl::InvalidArgumentError(absl::StrCat(
        src, ":", last.line, ":",
        last.column + static_cast<int>(last.text.size()), ": missing field '",
        field, "' (", k % 2 == 0 ? "arity" : "link cost", " of level ", level,
        "): 'tleaf ", levels, "' needs ", 2 * levels, " numbers, found ", k));
  }
  if (tokens.size() > needed) {
    return absl::InvalidArgumentError(absl::StrCat(
        At(src, tokens[needed]), "unexpected '", tokens[needed].text,
        "' after the ", levels, " levels of the tleaf"));
  }
  return levels;
}

// The levels read so far.
struct TleafLevels {
  std::vector<int64_t> arities;
  std::vector<double> costs;
  std::vector<Link> links;
  const Token* first_cost = nullptr;  // first level given as a cost
  int64_t leaves = 1;
  int64_t nodes = 1;  // a chain of arity-1 levels has levels x leaves nodes
};

// Level l's arity and its cost or link (every level one or the other).
absl::Status TleafLevel(const std::vector<Token>& tokens, int64_t l,
                        const std::string& src, int64_t max_leaves,
                        TleafLevels& out) {
  const Token& a = tokens[2 + 2 * l];
  const Token& c = tokens[3 + 2 * l];
  if (!absl::SimpleAtoi(a.text, &out.arities[l]) || out.arities[l] < 1 ||
      out.arities[l] > kMaxLeaves) {
    return absl::InvalidArgumentError(
        absl::StrCat(At(src, a), "field 'a", l + 1, "' (arity of level ", l + 1,
                     "): expected a positive integer, found '", a.text, "'"));
  }
  out.leaves *= out.arities[l];
  if (out.leaves > max_leaves) {
    return absl::InvalidArgumentError(absl::StrCat(
        At(src, a), "field 'a", l + 1, "': more than ", max_leaves, " leaves"));
  }
  out.nodes += out.leaves;
  const bool is_link = c.text.find(':') != std::string::npos;
  const bool first_is_link = l == 0 ? is_link : out.first_cost == nullptr;
  if (is_link != first_is_link) {
    return absl::InvalidArgumentError(
        absl::StrCat(At(src, c), "field 'c", l + 1, "': level ", l + 1, " is ",
                     is_link ? "a link (bandwidth:latency)" : "a cost",
                     " but level 1 is ", is_link ? "a cost" : "a link",
                     ": give every level as a cost or every level as a link"));
  }
  if (is_link) {
    absl::StatusOr<Link> link = ParseLink(
        c.text,
        absl::StrCat("field 'c", l + 1, "' (link of level ", l + 1, ")"));
    if (!link.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(At(src, c), std::string(link.status().message())));
    }
    out.links.push_back(*link);
    return absl::OkStatus();
  }
  if (out.first_cost == nullptr) out.first_cost = &c;
  if (!absl::SimpleAtod(c.text, &out.costs[l]) ||
      !std::isfinite(out.costs[l]) || out.costs[l] < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        At(src, c), "field 'c", l + 1, "' (link cost of level ", l + 1,
        "): expected a finite non-negative number, found '", c.text, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

bool LooksLikeTleaf(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
    ++i;
  text.remove_prefix(i);
  return text.substr(0, 5) == "tleaf" &&
         (text.size() == 5 ||
          std::isspace(static_cast<unsigned char>(text[5])));
}

absl::StatusOr<Tree> ParseTleaf(std::string_view text, std::string_view source,
                                int64_t max_leaves, int64_t max_memory_bytes) {
  max_leaves = std::min(max_leaves, kMaxLeaves);
  const std::string src(source);
  const std::vector<Token> tokens = Tokenize(text);
  ASSIGN_OR_RETURN(const int64_t levels, TleafLevelCount(tokens, src));
  TleafLevels parsed;
  parsed.arities.resize(levels);
  parsed.costs.resize(levels);
  for (int64_t l = 0; l < levels; ++l)
    RETURN_IF_ERROR(TleafLevel(tokens, l, src, max_leaves, parsed));
  RETURN_IF_ERROR(CheckTreeSize(absl::StrCat(At(src, tokens[0]), "tleaf"),
                                parsed.nodes, parsed.leaves,
                                base::MemoryBudget(max_memory_bytes)));
  if (parsed.links.empty())
    return Tree::FromLevels(parsed.arities, parsed.costs);
  return LinkedLevels(parsed.arities, parsed.links);
}

std::string FormatCost(double value) {
  if (std::isfinite(value) && value == std::floor(value) &&
      std::fabs(value) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(value));
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.15g", value);
  double rounded = 0;
  std::sscanf(buf, "%lf", &rounded);
  if (rounded == std::floor(rounded) && std::fabs(rounded) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(rounded));
  }
  return buf;
}

namespace {

// The link form of a tree built like LinkedLevels builds (same links per
// level, hosts at depth L-1, no pair links).
absl::StatusOr<std::string> WriteLinkedTleaf(const Tree& tree) {
  const int32_t h = tree.height();
  std::vector<Link> level(h + 1);
  std::vector<bool> seen(h + 1, false);
  for (NodeId v = 0; v < tree.num_nodes(); ++v) {
    const int32_t d = tree.depth(v);
    if (tree.has_pair_links(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/tleaf: node ", v, " (", tree.kind(v), ") has pair links"));
    }
    if (tree.is_host(v) != (d == h - 1)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/tleaf: the link form needs its hosts at depth ", h - 1,
          "; node ", v, " (", tree.kind(v), ") at depth ", d,
          tree.is_host(v) ? " is a host" : " is not a host"));
    }
    // Level d's link: the uplink of depth-d nodes, the loopback for the last.
    const bool uses_uplink = d >= 1 && d <= h - 1;
    const Link l = d == h - 1 ? tree.loopback(v) : Link{};
    auto check = [&](int32_t lvl, const Link& link) -> absl::Status {
      if (!seen[lvl]) {
        seen[lvl] = true;
        level[lvl] = link;
      } else if (!(level[lvl] == link)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/tleaf: level ", lvl, " has two links (",
            FormatLink(level[lvl]), " and ", FormatLink(link), ")"));
      }
      return absl::OkStatus();
    };
    if (uses_uplink) {
      absl::Status s = check(d, tree.uplink(v));
      if (!s.ok()) return s;
    }
    if (d == h - 1) {
      absl::Status s = check(h, l);
      if (!s.ok()) return s;
    }
  }
  for (int32_t lvl = 1; lvl <= h; ++lvl) {
    if (!level[lvl].given()) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/tleaf: level ", lvl,
                       " has no link; the link form needs "
                       "one per level"));
    }
  }
  const std::vector<int32_t> arities = tree.Arities();
  std::string out = absl::StrCat("tleaf ", h);
  for (int32_t d = 1; d <= h; ++d)
    absl::StrAppend(&out, " ", arities[d - 1], " ", FormatLink(level[d]));
  return out;
}

}  // namespace

absl::StatusOr<std::string> WriteTleaf(const Tree& tree) {
  if (tree.num_nodes() == 0)
    return absl::InvalidArgumentError("topology/tleaf: empty tree");
  if (!tree.Balanced()) {
    return absl::InvalidArgumentError(
        "topology/tleaf: only balanced trees (same arity per level, leaves at "
        "one depth) have a "
        "tleaf form");
  }
  const int32_t h = tree.height();
  if (h == 0)
    return absl::InvalidArgumentError(
        "topology/tleaf: a single leaf has no tleaf form");
  if (tree.has_links()) return WriteLinkedTleaf(tree);
  std::vector<double> level_cost(h + 1, -1);
  level_cost[h] = 0;
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    if (tree.has_pair_costs(v)) {
      return absl::InvalidArgumentError(absl::StrCat("topology/tleaf: node ", v,
                                                     " (", tree.kind(v),
                                                     ") has child-pair costs"));
    }
    double& c = level_cost[tree.depth(v)];
    if (c < 0) c = tree.cost(v);
    if (c != tree.cost(v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/tleaf: nodes at depth ", tree.depth(v),
                       " have different costs (", FormatCost(c), " and ",
                       FormatCost(tree.cost(v)), ")"));
    }
  }
  const std::vector<int32_t> arities = tree.Arities();
  std::string out = absl::StrCat("tleaf ", h);
  for (int32_t d = 1; d <= h; ++d) {
    const double link = level_cost[d - 1] - level_cost[d];
    if (link < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/tleaf: cost grows with depth at depth ", d,
                       " (", FormatCost(level_cost[d - 1]), " < ",
                       FormatCost(level_cost[d]), ")"));
    }
    absl::StrAppend(&out, " ", arities[d - 1], " ", FormatCost(link));
  }
  return out;
}

}  // namespace rankmap::topology
