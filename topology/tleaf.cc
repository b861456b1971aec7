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
#include "base/file.h"
#include "base/memory_budget.h"
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
  auto at = [&](const Token& t) {
    return absl::StrCat(src, ":", t.line, ":", t.column, ": ");
  };
  if (tokens.empty() || tokens[0].text != "tleaf") {
    const Token t = tokens.empty() ? Token{"", 1, 1} : tokens[0];
    return absl::InvalidArgumentError(
        absl::StrCat(at(t), "expected the word 'tleaf', found '", t.text, "'"));
  }
  if (tokens.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        at(tokens[0]), "missing field 'L' (number of levels) after 'tleaf'"));
  }
  int64_t levels = 0;
  if (!absl::SimpleAtoi(tokens[1].text, &levels) || levels < 1 ||
      levels > kMaxLevels) {
    return absl::InvalidArgumentError(absl::StrCat(
        at(tokens[1]),
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
    return absl::InvalidArgumentError(
        absl::StrCat(at(tokens[needed]), "unexpected '", tokens[needed].text,
                     "' after the ", levels, " levels of the tleaf"));
  }
  std::vector<int64_t> arities(levels);
  std::vector<double> costs(levels);
  int64_t leaves = 1;
  int64_t nodes = 1;  // a chain of arity-1 levels has levels x leaves nodes
  for (int64_t l = 0; l < levels; ++l) {
    const Token& a = tokens[2 + 2 * l];
    const Token& c = tokens[3 + 2 * l];
    if (!absl::SimpleAtoi(a.text, &arities[l]) || arities[l] < 1 ||
        arities[l] > kMaxLeaves) {
      return absl::InvalidArgumentError(
          absl::StrCat(at(a), "field 'a", l + 1, "' (arity of level ", l + 1,
                       "): expected a positive integer, found '", a.text, "'"));
    }
    leaves *= arities[l];
    if (leaves > max_leaves) {
      return absl::InvalidArgumentError(absl::StrCat(
          at(a), "field 'a", l + 1, "': more than ", max_leaves, " leaves"));
    }
    nodes += leaves;
    if (!absl::SimpleAtod(c.text, &costs[l]) || !std::isfinite(costs[l]) ||
        costs[l] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          at(c), "field 'c", l + 1, "' (link cost of level ", l + 1,
          "): expected a finite non-negative number, found '", c.text, "'"));
    }
  }
  if (absl::Status s =
          CheckTreeSize(absl::StrCat(at(tokens[0]), "tleaf"), nodes, leaves,
                        base::MemoryBudget(max_memory_bytes));
      !s.ok()) {
    return s;
  }
  return Tree::FromLevels(arities, costs);
}

absl::StatusOr<Tree> ReadTleafFile(const std::string& path) {
  absl::StatusOr<std::string> text = base::ReadFile(path, "tleaf file");
  if (!text.ok()) return text.status();
  return ParseTleaf(*text, path);
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
