#include "topology/slurm_topology.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "topology/hostlist.h"

namespace rankmap::topology {
namespace {

struct Entry {
  std::string name;
  int32_t line = 0;
  bool scontrol = false;  // the line has Level=
  std::vector<std::string> nodes;
  std::vector<std::string> switches;
  double link_speed = 0;
};

// Entries by switch name.
using EntryIndex = std::unordered_map<std::string, int32_t>;

// One Key=Value field into e; k is its place on the line.
absl::Status Field(const base::Line& l, size_t k, std::string_view source,
                   Entry& e) {
  auto fail = [&](const std::string& what) {
    return base::LineError(source, l.number, what);
  };
  const std::string& tok = l.tokens[k].text;
  const size_t eq = tok.find('=');
  if (eq == std::string::npos) {
    return fail(absl::StrCat("expected Key=Value, found '", tok, "'"));
  }
  const std::string key = absl::AsciiStrToLower(tok.substr(0, eq));
  const std::string value = tok.substr(eq + 1);
  if (k == 0 && key != "switchname") {
    return fail(
        absl::StrCat("a line starts with SwitchName=, found '", tok, "'"));
  }
  if (value.empty()) return fail(absl::StrCat(tok, ": empty value"));
  if (key == "switchname") {
    if (k != 0) return fail("SwitchName= twice on one line");
    e.name = value;
  } else if (key == "nodes" || key == "switches") {
    absl::StatusOr<std::vector<std::string>> names = ExpandHostlist(value);
    if (!names.ok()) {
      return fail(
          absl::StrCat(tok.substr(0, eq), "=: ", names.status().message()));
    }
    (key == "nodes" ? e.nodes : e.switches) = *std::move(names);
  } else if (key == "linkspeed") {
    if (!absl::SimpleAtod(value, &e.link_speed) || !(e.link_speed > 0) ||
        !std::isfinite(e.link_speed)) {
      return fail(
          absl::StrCat("LinkSpeed: expected a positive number, "
                       "found '",
                       value, "'"));
    }
  } else if (key == "level") {
    e.scontrol = true;
  } else {
    return fail(absl::StrCat("unknown key '", tok.substr(0, eq),
                             "' (expected SwitchName, Switches, Nodes, "
                             "LinkSpeed)"));
  }
  return absl::OkStatus();
}

// One SwitchName= line per switch, each defined once.
absl::StatusOr<std::vector<Entry>> ReadEntries(std::string_view text,
                                               std::string_view source,
                                               EntryIndex& index) {
  std::vector<Entry> entries;
  for (const base::Line& l : base::SplitLines(text)) {
    Entry e;
    e.line = l.number;
    for (size_t k = 0; k < l.tokens.size(); ++k)
      RETURN_IF_ERROR(Field(l, k, source, e));
    if (e.nodes.empty() && e.switches.empty()) {
      return base::LineError(
          source, l.number,
          absl::StrCat("switch '", e.name,
                       "' has neither Nodes= nor Switches="));
    }
    auto [it, inserted] = index.emplace(e.name, entries.size());
    if (!inserted) {
      return base::LineError(
          source, l.number,
          absl::StrCat("switch '", e.name, "' already defined on line ",
                       entries[it->second].line));
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty()) {
    return base::LineError(source, 1, "no SwitchName= line");
  }
  return entries;
}

// Parents from the Switches= lists: every listed switch defined, none under
// two parents.
absl::Status LinkSwitches(const std::vector<Entry>& entries,
                          const EntryIndex& index, std::string_view source,
                          SwitchTree& net) {
  for (size_t s = 0; s < entries.size(); ++s) {
    for (const std::string& c : entries[s].switches) {
      auto it = index.find(c);
      if (it == index.end()) {
        return base::LineError(
            source, entries[s].line,
            absl::StrCat("switch '", c, "' (in Switches= of '", entries[s].name,
                         "') is not defined"));
      }
      SwitchTree::Switch& child = net.switches[it->second];
      if (child.parent >= 0) {
        return base::LineError(
            source, entries[s].line,
            absl::StrCat("switch '", c, "' is already under '",
                         entries[child.parent].name, "' (line ",
                         entries[child.parent].line, ")"));
      }
      child.parent = static_cast<int32_t>(s);
    }
  }
  return absl::OkStatus();
}

// Cycles: follow parents from every switch; a walk longer than the number
// of switches has repeated one.
absl::Status CheckNoCycle(const std::vector<Entry>& entries,
                          std::string_view source, const SwitchTree& net) {
  for (size_t s = 0; s < entries.size(); ++s) {
    int32_t x = static_cast<int32_t>(s);
    size_t steps = 0;
    while (x >= 0 && steps <= entries.size()) {
      x = net.switches[x].parent;
      ++steps;
    }
    if (x < 0) continue;
    // x is on the cycle. Listed as Switches= reads (parent first), from
    // the switch defined first.
    std::vector<int32_t> cycle = {x};
    for (int32_t y = net.switches[x].parent; y != x; y = net.switches[y].parent)
      cycle.push_back(y);
    std::reverse(cycle.begin(), cycle.end());
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()),
                cycle.end());
    std::string path;
    for (int32_t y : cycle) absl::StrAppend(&path, entries[y].name, " -> ");
    absl::StrAppend(&path, entries[cycle[0]].name);
    return base::LineError(source, entries[cycle[0]].line,
                           absl::StrCat("switches form a cycle: ", path));
  }
  return absl::OkStatus();
}

// Nodes: direct children, except scontrol's descendant lists.
absl::Status AttachSlurmNodes(const std::vector<Entry>& entries,
                              std::string_view source, SwitchTree& net) {
  std::unordered_map<std::string, int32_t> switch_of_node;
  for (size_t s = 0; s < entries.size(); ++s) {
    if (entries[s].scontrol && !entries[s].switches.empty()) continue;
    for (const std::string& node : entries[s].nodes) {
      auto [it, inserted] =
          switch_of_node.emplace(node, static_cast<int32_t>(s));
      if (!inserted) {
        return base::LineError(
            source, entries[s].line,
            absl::StrCat("node '", node, "' is already under switch '",
                         entries[it->second].name, "' (line ",
                         entries[it->second].line, ")"));
      }
      net.switches[s].hosts.push_back(node);
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool LooksLikeSlurmTopology(std::string_view text) {
  const std::vector<base::Line> lines =
      base::SplitLines(text.substr(0, std::min<size_t>(text.size(), 4096)));
  return !lines.empty() &&
         absl::StartsWithIgnoreCase(lines[0].tokens[0].text, "SwitchName=");
}

absl::StatusOr<SwitchTree> ParseSlurmTopology(std::string_view text,
                                              std::string_view source) {
  EntryIndex index;
  ASSIGN_OR_RETURN(const std::vector<Entry> entries,
                   ReadEntries(text, source, index));
  SwitchTree net;
  net.switches.resize(entries.size());
  for (size_t s = 0; s < entries.size(); ++s) {
    net.switches[s].name = entries[s].name;
    net.switches[s].link_speed = entries[s].link_speed;
  }
  RETURN_IF_ERROR(LinkSwitches(entries, index, source, net));
  RETURN_IF_ERROR(CheckNoCycle(entries, source, net));
  RETURN_IF_ERROR(AttachSlurmNodes(entries, source, net));
  return net;
}

absl::StatusOr<SwitchTree> SwitchTreeFromAddresses(
    const std::vector<std::pair<std::string, std::string>>& host_addresses,
    std::string_view pattern) {
  const std::vector<std::string> kinds =
      absl::StrSplit(std::string(pattern), '.');
  bool pattern_ok = kinds.size() >= 2 && kinds.back() == "node";
  for (size_t k = 0; k + 1 < kinds.size(); ++k)
    pattern_ok = pattern_ok && kinds[k] == "switch";
  if (!pattern_ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("SLURM_TOPOLOGY_ADDR_PATTERN '", std::string(pattern),
                     "': expected switch.[switch.]...node"));
  }
  SwitchTree net;
  std::unordered_map<std::string, int32_t> switch_index;  // by path
  std::unordered_map<std::string, std::string> address_of;
  for (const auto& [host, address] : host_addresses) {
    auto [it, inserted] = address_of.emplace(host, address);
    if (!inserted) {
      if (it->second != address) {
        return absl::InvalidArgumentError(
            absl::StrCat("SLURM_TOPOLOGY_ADDR: host '", host,
                         "' has two "
                         "addresses, '",
                         it->second, "' and '", address, "'"));
      }
      continue;
    }
    const std::vector<std::string> parts = absl::StrSplit(address, '.');
    bool ok = parts.size() == kinds.size();
    for (const std::string& part : parts) ok = ok && !part.empty();
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat(
          "SLURM_TOPOLOGY_ADDR '", address, "' of host '", host,
          "' does not fit the pattern '", std::string(pattern), "'"));
    }
    int32_t parent = -1;
    std::string path;
    for (size_t k = 0; k + 1 < parts.size(); ++k) {
      path = k == 0 ? parts[0] : absl::StrCat(path, ".", parts[k]);
      auto [s, added] = switch_index.emplace(path, net.switches.size());
      if (added) net.switches.push_back({path, parent, {}, 0});
      parent = s->second;
    }
    net.switches[parent].hosts.push_back(host);
  }
  return net;
}

}  // namespace rankmap::topology
