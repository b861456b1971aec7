#include "topology/ibnetdiscover.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "base/host_name.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "topology/shown.h"

namespace rankmap::topology {
namespace {

struct Device {
  char kind;         // 'S', 'H' (Ca), 'R'
  std::string id;    // "S-..." as quoted
  std::string host;  // Ca: first word of the node description
  int32_t line;
};

struct PortLink {
  int32_t device;  // the block's device
  std::string remote;
  int32_t line;
};

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  return s;
}

// Reads `"text"` at the front of s; false when s does not start with a quote
// or the quote is not closed.
bool TakeQuoted(std::string_view& s, std::string* out) {
  if (s.empty() || s.front() != '"') return false;
  const size_t end = s.find('"', 1);
  if (end == std::string_view::npos) return false;
  *out = std::string(s.substr(1, end - 1));
  s.remove_prefix(end + 1);
  return true;
}

// Skips "(...)" and "[...]" groups (GUIDs, external port numbers).
void SkipGroups(std::string_view& s) {
  while (!s.empty() && (s.front() == '(' || s.front() == '[')) {
    const size_t end = s.find(s.front() == '(' ? ')' : ']');
    if (end == std::string_view::npos) return;
    s.remove_prefix(end + 1);
  }
}

bool IsKeyValue(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
  return i > 0 && i < s.size() && s[i] == '=';
}

// "Switch 36 ..." / "Ca 2 ..." / "Rt 4 ...": the kind letter, else 0.
char DeviceKind(std::string_view s) {
  for (auto [word, kind] : {std::pair<std::string_view, char>{"Switch", 'S'},
                            {"Ca", 'H'},
                            {"Rt", 'R'}}) {
    if (s.starts_with(word) && s.size() > word.size() &&
        std::isspace(static_cast<unsigned char>(s[word.size()]))) {
      std::string_view rest = TrimLeft(s.substr(word.size()));
      if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0])))
        return kind;
    }
  }
  return 0;
}

// Host names compared with digit runs as numbers: node2 < node10.
bool NaturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
        ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
        ++je;
      std::string_view x(a.data() + i, ie - i), y(b.data() + j, je - j);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int32_t Find(int32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void Union(int32_t a, int32_t b) { parent_[Find(a)] = Find(b); }

 private:
  std::vector<int32_t> parent_;
};

// The devices and port links of a dump, in file order.
struct Fabric {
  std::vector<Device> devices;
  std::unordered_map<std::string, int32_t> by_id;
  std::vector<PortLink> ports;
};

// Switches linked to each device (sets: parallel cables count once).
using Adjacency = std::vector<std::set<int32_t>>;
// Each host and the switches its HCAs are linked to, by host name.
using HostSwitches = std::map<std::string, std::set<int32_t>>;

// "Switch 36 "S-..." # ..." or "Ca 1 "H-..." # "node018 HCA-1"".
absl::Status DeviceLine(const base::Line& l, std::string_view s, char kind,
                        std::string_view source, Fabric& f) {
  s = TrimLeft(s.substr(s.find_first_of(" \t")));
  while (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0])))
    s.remove_prefix(1);
  s = TrimLeft(s);
  Device d{kind, "", "", l.number};
  if (!TakeQuoted(s, &d.id) || d.id.empty())
    return base::LineError(source, l.number,
                           "device line: expected a quoted device id");
  if (kind == 'H') {
    // The node description is the first quoted string after '#'.
    std::string desc;
    const size_t hash = s.find('#');
    std::string_view c =
        hash == std::string_view::npos ? "" : TrimLeft(s.substr(hash + 1));
    if (TakeQuoted(c, &desc)) {
      std::string_view dv = TrimLeft(desc);
      d.host = std::string(dv.substr(0, dv.find_first_of(" \t")));
    }
    if (d.host.empty()) d.host = d.id;
    // Any host on the fabric sets its own description.
    if (absl::Status st = base::CheckHostName(d.host); !st.ok()) {
      return base::LineError(
          source, l.number,
          absl::StrCat(
              "Ca \"", Shown(d.id),
              "\" (the first word of its node description): ", st.message()));
    }
  }
  auto [it, inserted] = f.by_id.emplace(d.id, f.devices.size());
  if (!inserted) {
    return base::LineError(
        source, l.number,
        absl::StrCat("device \"", d.id, "\" already defined on line ",
                     f.devices[it->second].line));
  }
  f.devices.push_back(std::move(d));
  return absl::OkStatus();
}

// "[1]  "S-..."[35]  # ...": a link from the last device to another one.
absl::Status PortLine(const base::Line& l, std::string_view s,
                      std::string_view source, Fabric& f) {
  auto fail = [&](const std::string& what) {
    return base::LineError(source, l.number, what);
  };
  const size_t close = s.find(']');
  if (close == std::string_view::npos || close == 1 ||
      !std::all_of(s.begin() + 1, s.begin() + close, [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    return fail("port line: expected '[<port>]'");
  }
  if (f.devices.empty()) return fail("port line before any device line");
  s.remove_prefix(close + 1);
  SkipGroups(s);
  s = TrimLeft(s);
  std::string remote;
  if (!TakeQuoted(s, &remote) || remote.empty() || s.empty() ||
      s.front() != '[') {
    return fail(
        "port line: expected '\"<device id>\"[<port>]' after the "
        "local port");
  }
  f.ports.push_back(
      {static_cast<int32_t>(f.devices.size() - 1), remote, l.number});
  return absl::OkStatus();
}

absl::StatusOr<Fabric> ReadFabric(std::string_view text,
                                  std::string_view source) {
  Fabric f;
  for (const base::Line& l : base::SplitLines(text, 0)) {
    std::string_view s = TrimLeft(l.text);
    if (s.empty() || s.front() == '#' || IsKeyValue(s) ||
        s.starts_with("Non-Chassis Nodes") || s.starts_with("Chassis ")) {
      continue;
    }
    if (const char kind = DeviceKind(s); kind != 0) {
      RETURN_IF_ERROR(DeviceLine(l, s, kind, source, f));
      continue;
    }
    if (s.front() == '[') {
      RETURN_IF_ERROR(PortLine(l, s, source, f));
      continue;
    }
    std::string shown(s.substr(0, 40));
    return base::LineError(
        source, l.number,
        absl::StrCat("expected a device line (Switch/Ca/Rt <ports> \"<id>\"), "
                     "a port line ([<port>] \"<id>\"[<port>]) or key=value, "
                     "found '",
                     shown, s.size() > 40 ? "...'" : "'"));
  }
  return f;
}

// Both ends of every port link; links of a device to itself are dropped.
absl::StatusOr<Adjacency> LinkDevices(const Fabric& f,
                                      std::string_view source) {
  Adjacency adj(f.devices.size());
  for (const PortLink& p : f.ports) {
    auto it = f.by_id.find(p.remote);
    if (it == f.by_id.end()) {
      return base::LineError(source, p.line,
                             absl::StrCat("link to \"", p.remote,
                                          "\", which no device line defines"));
    }
    if (it->second == p.device) continue;
    adj[p.device].insert(it->second);
    adj[it->second].insert(p.device);
  }
  return adj;
}

// Hosts and the switches they hang from; every host needs one.
absl::StatusOr<HostSwitches> SwitchesOfHosts(const Fabric& f,
                                             const Adjacency& adj,
                                             std::string_view source) {
  HostSwitches switches_of_host;
  std::map<std::string, int32_t> host_line;
  for (size_t d = 0; d < f.devices.size(); ++d) {
    if (f.devices[d].kind != 'H') continue;
    auto& sw = switches_of_host[f.devices[d].host];
    host_line.emplace(f.devices[d].host, f.devices[d].line);
    for (int32_t x : adj[d]) {
      if (f.devices[x].kind == 'S') sw.insert(x);
    }
  }
  if (switches_of_host.empty()) {
    return base::LineError(source, 1, "no Ca (host) device in the dump");
  }
  for (const auto& [host, sw] : switches_of_host) {
    if (sw.empty()) {
      return base::LineError(
          source, host_line[host],
          absl::StrCat("host '", host, "' is linked to no switch"));
    }
  }
  return switches_of_host;
}

// Switch levels: hops from the switches that hold hosts (-1: not reached).
std::vector<int32_t> SwitchLevels(const Fabric& f, const Adjacency& adj,
                                  const HostSwitches& host_switches,
                                  int32_t& top_level) {
  std::vector<int32_t> level(f.devices.size(), -1);
  std::vector<int32_t> frontier;
  for (const auto& [host, sw] : host_switches) {
    for (int32_t s : sw) {
      if (level[s] < 0) {
        level[s] = 0;
        frontier.push_back(s);
      }
    }
  }
  top_level = 0;
  for (size_t i = 0; i < frontier.size(); ++i) {
    for (int32_t x : adj[frontier[i]]) {
      if (f.devices[x].kind == 'S' && level[x] < 0) {
        level[x] = level[frontier[i]] + 1;
        top_level = std::max(top_level, level[x]);
        frontier.push_back(x);
      }
    }
  }
  return level;
}

// Groups level by level (a union-find over switches): a host's switches,
// linked switches of one level, and the level-k switches around each level
// k-1 group. Each switch is visited once per level it borders: O(links).
UnionFind GroupSwitches(const Adjacency& adj, const HostSwitches& host_switches,
                        const std::vector<int32_t>& level, int32_t top_level) {
  const int32_t n = static_cast<int32_t>(adj.size());
  UnionFind uf(n);
  for (const auto& [host, sw] : host_switches) {
    for (int32_t s : sw) uf.Union(s, *sw.begin());
  }
  std::vector<std::vector<int32_t>> at_level(top_level + 1);
  for (int32_t s = 0; s < n; ++s) {
    if (level[s] < 0) continue;
    at_level[level[s]].push_back(s);
    for (int32_t x : adj[s]) {
      if (level[x] == level[s]) uf.Union(x, s);
    }
  }
  for (int32_t k = 1; k <= top_level; ++k) {
    // Level k-1 groups are final: join the level-k switches around each.
    std::map<int32_t, int32_t> first_above;  // group root -> a level-k switch
    for (int32_t s : at_level[k - 1]) {
      const int32_t g = uf.Find(s);
      for (int32_t x : adj[s]) {
        if (level[x] != k) continue;
        auto [it, inserted] = first_above.emplace(g, x);
        if (!inserted) uf.Union(x, it->second);
      }
    }
  }
  return uf;
}

// One SwitchTree switch per group, named after its first switch; hosts in
// natural order under their first switch's group.
SwitchTree GroupTree(const Fabric& f, const Adjacency& adj,
                     HostSwitches& host_switches,
                     const std::vector<int32_t>& level, UnionFind& uf,
                     std::vector<int32_t>& group_level) {
  const int32_t n = static_cast<int32_t>(f.devices.size());
  std::map<int32_t, int32_t> index_of_group;
  SwitchTree net;
  for (int32_t s = 0; s < n; ++s) {
    if (level[s] < 0) continue;
    const int32_t g = uf.Find(s);
    if (index_of_group.emplace(g, net.switches.size()).second) {
      net.switches.push_back({f.devices[s].id, -1, {}, 0, f.devices[s].line});
      group_level.push_back(level[s]);
    }
  }
  for (int32_t s = 0; s < n; ++s) {
    if (level[s] < 1) continue;
    const int32_t parent = index_of_group[uf.Find(s)];
    for (int32_t x : adj[s]) {
      if (level[x] == level[s] - 1)
        net.switches[index_of_group[uf.Find(x)]].parent = parent;
    }
  }
  std::vector<std::string> hosts;
  for (const auto& [host, sw] : host_switches) hosts.push_back(host);
  std::sort(hosts.begin(), hosts.end(), NaturalLess);
  for (const std::string& h : hosts) {
    net.switches[index_of_group[uf.Find(*host_switches[h].begin())]]
        .hosts.push_back(h);
  }
  return net;
}

// Children in the order of their first host: the groups sorted by it.
// group_level[g] orders the propagation of first hosts up the tree.
SwitchTree SortedByFirstHost(const SwitchTree& net,
                             const std::vector<int32_t>& group_level,
                             int32_t top_level) {
  std::vector<std::string> first(net.switches.size());
  std::vector<std::vector<int32_t>> by_level(top_level + 1);
  for (size_t g = 0; g < net.switches.size(); ++g) {
    if (!net.switches[g].hosts.empty()) first[g] = net.switches[g].hosts[0];
    by_level[group_level[g]].push_back(static_cast<int32_t>(g));
  }
  for (const std::vector<int32_t>& groups : by_level) {
    for (int32_t g : groups) {
      const int32_t p = net.switches[g].parent;
      if (p >= 0 && !first[g].empty() &&
          (first[p].empty() || NaturalLess(first[g], first[p]))) {
        first[p] = first[g];
      }
    }
  }
  std::vector<int32_t> order(net.switches.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return NaturalLess(first[a], first[b]);
  });
  std::vector<int32_t> new_index(order.size());
  for (size_t i = 0; i < order.size(); ++i) new_index[order[i]] = i;
  SwitchTree sorted;
  for (int32_t g : order) {
    SwitchTree::Switch sw = net.switches[g];
    if (sw.parent >= 0) sw.parent = new_index[sw.parent];
    sorted.switches.push_back(std::move(sw));
  }
  return sorted;
}

// Switch levels of kMaxSwitchDepth and more are refused (a chain of
// switches deeper than a tree's depth limit).
absl::Status CheckDepth(const Fabric& f, const std::vector<int32_t>& level,
                        std::string_view source) {
  for (size_t s = 0; s < level.size(); ++s) {
    if (level[s] < kMaxSwitchDepth) continue;
    return base::LineError(
        source, f.devices[s].line,
        absl::StrCat("switch \"", Shown(f.devices[s].id), "\" is ", level[s],
                     " switch hops from the nearest host: rankmap reads "
                     "fabrics of at most ",
                     kMaxSwitchDepth, " switch levels"));
  }
  return absl::OkStatus();
}

}  // namespace

bool LooksLikeIbnetdiscover(std::string_view text) {
  for (const base::Line& l :
       base::SplitLines(text.substr(0, std::min<size_t>(text.size(), 8192)))) {
    std::string_view s = TrimLeft(l.text);
    if (s.starts_with("switchguid=") || s.starts_with("caguid=")) return true;
    if (DeviceKind(s) == 'S' || DeviceKind(s) == 'H') return true;
    if (!IsKeyValue(s)) return false;
  }
  return false;
}

absl::StatusOr<SwitchTree> ParseIbnetdiscover(std::string_view text,
                                              std::string_view source) {
  ASSIGN_OR_RETURN(const Fabric f, ReadFabric(text, source));
  ASSIGN_OR_RETURN(const Adjacency adj, LinkDevices(f, source));
  ASSIGN_OR_RETURN(HostSwitches host_switches, SwitchesOfHosts(f, adj, source));
  int32_t top_level = 0;
  const std::vector<int32_t> level =
      SwitchLevels(f, adj, host_switches, top_level);
  RETURN_IF_ERROR(CheckDepth(f, level, source));
  UnionFind uf = GroupSwitches(adj, host_switches, level, top_level);
  std::vector<int32_t> group_level;
  SwitchTree net = GroupTree(f, adj, host_switches, level, uf, group_level);
  return SortedByFirstHost(net, group_level, top_level);
}

}  // namespace rankmap::topology
