#include "topology/slurm_topology.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <unordered_map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/host_name.h"
#include "base/lines.h"
#include "base/memory_budget.h"
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

// Names the file's hostlists may make in all (the file's limit, as one
// list's), and how many copies of them the tree's making holds at once
// (the entries, the switch tree, the node index, AttachNodes' two maps).
constexpr int64_t kMaxHostsPerFile = int64_t{1} << 22;
constexpr int64_t kNameCopies = 5;

// Reads the SwitchName= lines of one file, with the file's budget for the
// names its hostlists expand to.
class EntryReader {
 public:
  EntryReader(std::string_view source, int64_t max_memory_bytes)
      : source_(source),
        bytes_left_(base::MemoryBudget(max_memory_bytes) / kNameCopies) {}

  // One SwitchName= line per switch, each defined once.
  absl::StatusOr<std::vector<Entry>> Read(std::string_view text,
                                          EntryIndex& index) {
    std::vector<Entry> entries;
    for (const base::Line& l : base::SplitLines(text)) {
      Entry e;
      e.line = l.number;
      std::set<std::string> keys;
      for (size_t k = 0; k < l.tokens.size(); ++k)
        RETURN_IF_ERROR(Field(l, k, keys, e));
      if (e.nodes.empty() && e.switches.empty()) {
        return base::LineError(
            source_, l.number,
            absl::StrCat("switch '", e.name,
                         "' has neither Nodes= nor Switches="));
      }
      auto [it, inserted] = index.emplace(e.name, entries.size());
      if (!inserted) {
        return base::LineError(
            source_, l.number,
            absl::StrCat("switch '", e.name, "' already defined on line ",
                         entries[it->second].line));
      }
      entries.push_back(std::move(e));
    }
    if (entries.empty()) {
      return base::LineError(source_, 1, "no SwitchName= line");
    }
    return entries;
  }

 private:
  // One Key=Value field into e; k is its place on the line. Keys are
  // case-insensitive, as in Slurm, and may come once per line.
  absl::Status Field(const base::Line& l, size_t k, std::set<std::string>& keys,
                     Entry& e) {
    auto fail = [&](const std::string& what) {
      return base::LineError(source_, l.number, what);
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
    if (!keys.insert(key).second) {
      if (key == "switchname") return fail("SwitchName= twice on one line");
      return fail(absl::StrCat(tok.substr(0, eq),
                               "= twice on one line (keys are "
                               "case-insensitive)"));
    }
    if (key == "switchname") {
      e.name = value;
    } else if (key == "nodes" || key == "switches") {
      ASSIGN_OR_RETURN((key == "nodes" ? e.nodes : e.switches),
                       Names(l, tok.substr(0, eq), value, key == "nodes"));
    } else if (key == "linkspeed") {
      if (!absl::SimpleAtod(value, &e.link_speed) || !(e.link_speed > 0) ||
          !std::isfinite(e.link_speed)) {
        return fail(absl::StrCat(
            "LinkSpeed: expected a positive number, found '", value, "'"));
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

  // A Nodes= or Switches= hostlist, within what is left of the file's
  // limits; node names must be host names (base/host_name.h).
  absl::StatusOr<std::vector<std::string>> Names(const base::Line& l,
                                                 const std::string& key,
                                                 const std::string& value,
                                                 bool nodes) {
    absl::StatusOr<std::vector<std::string>> names =
        ExpandHostlist(value, hosts_left_, bytes_left_);
    if (names.status().code() == absl::StatusCode::kResourceExhausted) {
      const bool bytes = absl::StrContains(names.status().message(),
                                           "host names of more than");
      return absl::ResourceExhaustedError(absl::StrCat(
          source_, ":", l.number, ": ", key,
          "=: with the lines above, the file's hostlists ",
          bytes ? absl::StrCat("take more than ",
                               base::FormatBytes(bytes_at_start_),
                               " of names (a fifth of the memory budget: the "
                               "tree holds about five copies)")
                : absl::StrCat("name more than ", kMaxHostsPerFile,
                               " hosts and switches (the most rankmap reads "
                               "from one file)")));
    }
    if (!names.ok()) {
      return base::LineError(
          source_, l.number,
          absl::StrCat(key, "=: ", names.status().message()));
    }
    hosts_left_ -= static_cast<int64_t>(names->size());
    bytes_left_ -= HostlistBytes(*names);
    if (!nodes) return names;
    for (const std::string& name : *names) {
      if (absl::Status st = base::CheckHostName(name); !st.ok()) {
        return base::LineError(source_, l.number,
                               absl::StrCat(key, "=: ", st.message()));
      }
    }
    return names;
  }

  const std::string source_;
  int64_t hosts_left_ = kMaxHostsPerFile;
  int64_t bytes_left_;
  const int64_t bytes_at_start_ = bytes_left_;
};

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

// "switches form a cycle: a -> b -> a": the cycle through x, listed as
// Switches= reads (parent first), from the switch defined first.
absl::Status CycleError(const std::vector<Entry>& entries,
                        std::string_view source, const SwitchTree& net,
                        int32_t x) {
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

// Parents must form a forest no deeper than kMaxSwitchDepth: each switch's
// depth (switches above it) from its parent's, every switch walked once.
absl::Status CheckChains(const std::vector<Entry>& entries,
                         std::string_view source, const SwitchTree& net) {
  const int32_t n = static_cast<int32_t>(entries.size());
  std::vector<int32_t> depth(n, -1);  // -1: not yet known
  std::vector<char> on_path(n, 0);
  std::vector<int32_t> path;
  for (int32_t s = 0; s < n; ++s) {
    path.clear();
    int32_t x = s;
    while (x >= 0 && depth[x] < 0 && !on_path[x]) {
      on_path[x] = 1;
      path.push_back(x);
      x = net.switches[x].parent;
    }
    if (x >= 0 && on_path[x]) return CycleError(entries, source, net, x);
    int32_t d = x < 0 ? -1 : depth[x];
    for (size_t k = path.size(); k-- > 0;) {
      depth[path[k]] = ++d;
      on_path[path[k]] = 0;
    }
  }
  for (int32_t s = 0; s < n; ++s) {
    if (depth[s] < kMaxSwitchDepth) continue;
    return base::LineError(
        source, entries[s].line,
        absl::StrCat("switch '", entries[s].name, "' has ", depth[s],
                     " switches above it: rankmap reads Switches= chains of "
                     "at most ",
                     kMaxSwitchDepth, " switches (a tree's depth limit)"));
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
                                              std::string_view source,
                                              int64_t max_memory_bytes) {
  EntryIndex index;
  ASSIGN_OR_RETURN(const std::vector<Entry> entries,
                   EntryReader(source, max_memory_bytes).Read(text, index));
  SwitchTree net;
  net.switches.resize(entries.size());
  for (size_t s = 0; s < entries.size(); ++s) {
    net.switches[s].name = entries[s].name;
    net.switches[s].link_speed = entries[s].link_speed;
    net.switches[s].line = entries[s].line;
  }
  RETURN_IF_ERROR(LinkSwitches(entries, index, source, net));
  RETURN_IF_ERROR(CheckChains(entries, source, net));
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
