#include "cli/mapping_reader.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/gunzip.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "cli/json_mapping.h"
#include "cli/mapping_io.h"
#include "graphs/foam_file.h"

namespace rankmap::cli {
namespace {

using base::LineError;

bool ParseIndex(std::string_view s, int64_t* out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size() && *out >= 0 &&
         *out <= INT32_MAX;
}

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' ||
                        s.front() == '\n' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  return s;
}

// One line of a rankfile: rank <r>=<host> slot=<n>[,<n>...].
struct RankfileLine {
  int64_t rank = 0;
  std::string host;
  int64_t slot = 0;  // the first number of the slot list
};

absl::StatusOr<RankfileLine> ParseRankfileLine(const base::Line& line,
                                               size_t num_lines,
                                               std::string_view name) {
  const auto bad = [&](std::string_view what) {
    return LineError(name, line.number,
                     absl::StrCat(std::string(what),
                                  " (expected 'rank <i>=<host> "
                                  "slot=<n>')"));
  };
  if (line.tokens.size() != 3 || line.tokens[0].text != "rank") {
    return bad(absl::StrCat("found '", line.text, "'"));
  }
  RankfileLine r;
  const std::string& rank_host = line.tokens[1].text;
  const size_t eq = rank_host.find('=');
  if (eq == std::string::npos ||
      !ParseIndex(std::string_view(rank_host).substr(0, eq), &r.rank) ||
      eq + 1 == rank_host.size()) {
    return bad(absl::StrCat("field 'rank': '", rank_host, "'"));
  }
  // Every rank below the largest must have its own line, so a rank beyond
  // the line count is an error before anything is sized by it.
  if (r.rank >= static_cast<int64_t>(num_lines)) {
    return LineError(
        name, line.number,
        absl::StrCat("rank ", r.rank, " but the file has ", num_lines,
                     num_lines == 1 ? " rank line" : " rank lines",
                     " (ranks 0 to ", num_lines - 1, ")"));
  }
  r.host = rank_host.substr(eq + 1);
  const std::string& slot_text = line.tokens[2].text;
  // The first number of a list ("0,8", "0-1"): a core's first PU.
  const size_t end = slot_text.find_first_of(",-", 5);
  if (slot_text.rfind("slot=", 0) != 0 ||
      !ParseIndex(
          std::string_view(slot_text).substr(
              5, end == std::string::npos ? std::string::npos : end - 5),
          &r.slot)) {
    return bad(absl::StrCat("field 'slot': '", slot_text, "'"));
  }
  return r;
}

// The leaf of `slot` among a host's `leaves`: by PU os index when the leaves
// have them and the file is not logical, else by position; -1 when none.
core::LeafId SlotLeaf(const std::vector<core::LeafId>& leaves, int64_t slot,
                      bool logical, const topology::Tree& tree) {
  bool any_os_index = false;
  for (core::LeafId l : leaves) any_os_index |= tree.os_index(l) >= 0;
  core::LeafId leaf = -1;
  if (!logical && any_os_index) {
    for (core::LeafId l : leaves) {
      if (tree.os_index(l) == slot) leaf = l;
    }
  } else if (slot < static_cast<int64_t>(leaves.size())) {
    leaf = leaves[slot];
  }
  return leaf;
}

absl::StatusOr<core::Mapping> ParseRankfile(
    const std::vector<base::Line>& lines, bool logical, std::string_view name,
    const topology::Tree& tree) {
  // Each host's leaves in leaf order.
  std::map<std::string, std::vector<core::LeafId>, std::less<>> by_host;
  for (core::LeafId l = 0; l < tree.num_leaves(); ++l) {
    const std::string& h = tree.host(l);
    by_host[h.empty() ? "localhost" : h].push_back(l);
  }
  std::vector<core::LeafId> leaf_of_rank;
  for (const base::Line& line : lines) {
    ASSIGN_OR_RETURN(const RankfileLine r,
                     ParseRankfileLine(line, lines.size(), name));
    const auto it = by_host.find(r.host);
    if (it == by_host.end()) {
      return LineError(
          name, line.number,
          absl::StrCat("host '", r.host, "' is not in the topology"));
    }
    const core::LeafId leaf = SlotLeaf(it->second, r.slot, logical, tree);
    if (leaf < 0) {
      return LineError(
          name, line.number,
          absl::StrCat("host '", r.host, "' has no slot ", r.slot));
    }
    if (r.rank >= static_cast<int64_t>(leaf_of_rank.size()))
      leaf_of_rank.resize(r.rank + 1, -1);
    if (leaf_of_rank[r.rank] >= 0) {
      return LineError(name, line.number,
                       absl::StrCat("rank ", r.rank, " is given twice"));
    }
    leaf_of_rank[r.rank] = leaf;
  }
  for (size_t r = 0; r < leaf_of_rank.size(); ++r) {
    if (leaf_of_rank[r] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(name), ": rank ", r, " is missing"));
    }
  }
  return leaf_of_rank;
}

// OpenFOAM's decomposition labelList (map --format openfoam, decomposePar
// -cellDist's cellDecomposition): the processor of each cell, a leaf of
// `tree` in its own order.
absl::StatusOr<core::Mapping> ParseFoamDecomposition(
    std::string_view text, std::string_view name, const topology::Tree& tree) {
  std::string plain;
  if (base::IsGzip(text)) {
    ASSIGN_OR_RETURN(plain, base::Gunzip(text, name, base::MemoryBudget()));
    text = plain;
  }
  ASSIGN_OR_RETURN(graphs::FoamFile file, graphs::FoamFile::Open(text, name));
  ASSIGN_OR_RETURN(
      const std::vector<int32_t> labels,
      file.ReadLabels(tree.num_leaves(), "a processor (a leaf of the tree)"));
  return core::Mapping(labels.begin(), labels.end());
}

}  // namespace

absl::StatusOr<core::Mapping> ParseAnyMapping(std::string_view text,
                                              std::string_view name,
                                              const topology::Tree& tree,
                                              const LeafNumbering& numbering) {
  if (base::IsGzip(text) || graphs::LooksLikeFoamFile(text)) {
    return ParseFoamDecomposition(text, name, tree);
  }
  const std::string_view start = TrimLeft(text);
  if (!start.empty() && start.front() == '{') {
    ASSIGN_OR_RETURN(const core::Mapping m, ParseJsonMapping(text, name));
    return numbering.FromCaller(m, name);
  }
  const std::vector<base::Line> lines = base::SplitLines(text);
  if (!lines.empty() && lines[0].tokens[0].text == "rank") {
    const bool logical = text.find("--map-by rankfile") != std::string::npos;
    return ParseRankfile(lines, logical, name, tree);
  }
  ASSIGN_OR_RETURN(const core::Mapping m, ParseMapping(text, name));
  return numbering.FromCaller(m, name);
}

absl::StatusOr<core::Mapping> ReadAnyMappingFile(
    const std::string& path, const topology::Tree& tree,
    const LeafNumbering& numbering) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "mapping file"));
  return ParseAnyMapping(text, path, tree, numbering);
}

}  // namespace rankmap::cli
