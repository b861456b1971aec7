#include "topology/switch_tree.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/host_name.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/hwloc_import.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"
#include "topology/tree_size.h"

namespace rankmap::topology {
namespace {

// An existing path, or one that looks like one: a synthetic string has no
// '/' and no ".xml" (so a FIFO or a missing export is named as a file).
bool LooksLikeFile(const std::string& desc) {
  return base::IsRegularFile(desc) || desc.find('/') != std::string::npos ||
         (desc.size() > 4 && desc.compare(desc.size() - 4, 4, ".xml") == 0);
}

// Host trees, loaded once per distinct file or description.
class HostTrees {
 public:
  HostTrees(std::string source, const LoadOptions& options, int64_t max_leaves)
      : source_(std::move(source)), desc_(options.node) {
    hw_.leaf = options.leaf;
    hw_.level_costs = options.level_costs;
    hw_.max_synthetic_pus = max_leaves;
    hw_.max_memory_bytes = options.max_memory_bytes;
    hw_.max_hwloc_work = options.max_hwloc_work;
    max_memory_bytes_ = options.max_memory_bytes;
    per_host_ = !desc_.empty() && base::IsDirectory(desc_);
  }

  absl::StatusOr<const Tree*> For(const std::string& host) {
    if (desc_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          source_,
          ": the hosts' hardware is not described: give a node description "
          "(--node: a directory of <host>.xml hwloc exports, an hwloc "
          "synthetic string, a tleaf, an XML file or 'this')"));
    }
    const std::string key =
        per_host_ ? absl::StrCat(desc_, "/", host, ".xml") : desc_;
    auto it = trees_.find(key);
    if (it != trees_.end()) return &it->second;
    absl::StatusOr<Tree> t;
    if (per_host_) {
      if (!base::IsRegularFile(key)) {
        return absl::NotFoundError(absl::StrCat(source_, ": host '", host,
                                                "': no hwloc export ", key));
      }
      t = TreeFromXmlFile(key, hw_);
    } else if (LooksLikeTleaf(desc_)) {
      t = ParseTleaf(desc_, "node description", int64_t{1} << 30,
                     max_memory_bytes_);
    } else if (desc_ == "this") {
      t = TreeFromThisMachine(hw_);
    } else if (LooksLikeFile(desc_)) {
      t = TreeFromXmlFile(desc_, hw_);
    } else {
      t = TreeFromSynthetic(desc_, hw_);
    }
    if (!t.ok()) {
      return absl::Status(
          t.status().code(),
          absl::StrCat(source_, ": host '", host, "': ", t.status().message()));
    }
    return &trees_.emplace(key, *std::move(t)).first->second;
  }

 private:
  std::string source_;
  std::string desc_;
  HwlocImportOptions hw_;
  int64_t max_memory_bytes_ = 0;
  bool per_host_ = false;
  std::map<std::string, Tree> trees_;
};

// The switches' children and the top switches (parent -1). Errors: a parent
// out of range or the switch itself.
absl::Status ChildrenOf(const SwitchTree& net, const std::string& src,
                        std::vector<std::vector<int32_t>>& kids,
                        std::vector<int32_t>& tops) {
  const int32_t n = static_cast<int32_t>(net.switches.size());
  kids.assign(n, {});
  for (int32_t s = 0; s < n; ++s) {
    const int32_t p = net.switches[s].parent;
    if (p < -1 || p >= n || p == s) {
      return absl::InvalidArgumentError(absl::StrCat(
          src, ": switch '", net.switches[s].name, "' has an invalid parent"));
    }
    (p < 0 ? tops : kids[p]).push_back(s);
  }
  return absl::OkStatus();
}

// "src:line: " for switch s, "src: " when its line is unknown.
std::string At(const std::string& src, const SwitchTree::Switch& s) {
  return s.line > 0 ? absl::StrCat(src, ":", s.line, ": ")
                    : absl::StrCat(src, ": ");
}

// "switches form a cycle: a -> b -> a", from a switch left unresolved.
absl::Status CycleError(const SwitchTree& net, const std::string& src,
                        int32_t s) {
  const int32_t n = static_cast<int32_t>(net.switches.size());
  // Walk parents from an unresolved switch until one repeats.
  std::vector<int32_t> seen(n, -1), path;
  while (s >= 0 && seen[s] < 0) {
    seen[s] = static_cast<int32_t>(path.size());
    path.push_back(s);
    s = net.switches[s].parent;
  }
  std::string cycle;
  if (s >= 0) {
    for (size_t k = seen[s]; k < path.size(); ++k)
      absl::StrAppend(&cycle, net.switches[path[k]].name, " -> ");
    absl::StrAppend(&cycle, net.switches[s].name);
  }
  return absl::InvalidArgumentError(
      absl::StrCat(src, ": switches form a cycle: ", cycle));
}

// Switch levels bottom-up (0: no child switch; a parent one above its highest
// child) and the switches children first (Kahn's order: each switch once, so
// a chain of 200,000 switches is as fast as a flat list). Switches left over
// sit on a cycle; levels of kMaxSwitchDepth and more are refused.
absl::Status SwitchLevels(const SwitchTree& net, const std::string& src,
                          const std::vector<std::vector<int32_t>>& kids,
                          std::vector<int32_t>& level,
                          std::vector<int32_t>& order) {
  const int32_t n = static_cast<int32_t>(net.switches.size());
  level.assign(n, 0);
  std::vector<int32_t> pending(n);
  for (int32_t s = 0; s < n; ++s) {
    pending[s] = static_cast<int32_t>(kids[s].size());
    if (pending[s] == 0) order.push_back(s);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const int32_t s = order[i];
    if (level[s] >= kMaxSwitchDepth) {
      return absl::InvalidArgumentError(
          absl::StrCat(At(src, net.switches[s]), "switch '",
                       net.switches[s].name, "' has ", level[s],
                       " levels of switches below it: rankmap reads "
                       "switch trees of at most ",
                       kMaxSwitchDepth, " levels"));
    }
    const int32_t p = net.switches[s].parent;
    if (p < 0) continue;
    level[p] = std::max(level[p], level[s] + 1);
    if (--pending[p] == 0) order.push_back(p);
  }
  if (static_cast<int32_t>(order.size()) < n) {
    int32_t s = 0;
    while (pending[s] == 0) ++s;
    return CycleError(net, src, s);
  }
  return absl::OkStatus();
}

// The hosts' trees, each host under one switch, and the leaves below every
// switch.
struct HostLeaves {
  std::unordered_map<std::string, const Tree*> tree_of_host;
  std::vector<int64_t> leaves_below;
  double costliest_host = 0;
  int64_t nodes = 0;       // of the host trees, as copies
  int64_t name_bytes = 0;  // host names (topology/tree_size.h)
};

// Every host name is one (base/host_name.h) and under one switch.
absl::Status CheckHosts(const SwitchTree& net, const std::string& src) {
  std::unordered_map<std::string, int32_t> switch_of_host;
  for (size_t s = 0; s < net.switches.size(); ++s) {
    const SwitchTree::Switch& sw = net.switches[s];
    for (const std::string& name : sw.hosts) {
      if (absl::Status st = base::CheckHostName(name); !st.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(At(src, sw), "switch '", sw.name,
                         "': ", std::string(st.message())));
      }
      auto [it, inserted] = switch_of_host.emplace(name, s);
      if (!inserted) {
        return absl::InvalidArgumentError(absl::StrCat(
            src, ": host '", name, "' is under two switches, '",
            net.switches[it->second].name, "' and '", sw.name, "'"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<HostLeaves> LoadHosts(
    const SwitchTree& net, const std::string& src,
    const std::vector<std::vector<int32_t>>& kids,
    const std::vector<int32_t>& order,
    const std::function<absl::StatusOr<const Tree*>(const std::string& host)>&
        host_tree,
    int64_t max_leaves) {
  HostLeaves h;
  h.leaves_below.assign(net.switches.size(), 0);
  int64_t total = 0;
  for (int32_t s : order) {
    for (const std::string& name : net.switches[s].hosts) {
      ASSIGN_OR_RETURN(const Tree* t, host_tree(name));
      h.tree_of_host[name] = t;
      h.costliest_host = std::max(h.costliest_host, t->cost(t->root()));
      h.leaves_below[s] += t->num_leaves();
      total += t->num_leaves();
      if (total > max_leaves) {
        return absl::InvalidArgumentError(
            absl::StrCat(src, ": more than ", max_leaves, " leaves"));
      }
      h.nodes += t->num_nodes();
      h.name_bytes += HostNameBytes(t->num_leaves() + 1, name.size());
    }
    for (int32_t c : kids[s]) h.leaves_below[s] += h.leaves_below[c];
  }
  if (total == 0)
    return absl::InvalidArgumentError(
        absl::StrCat(src, ": no host under any switch"));
  return h;
}

// base x 10^level, scaled by (fastest link speed / the switch's); each must
// be finite (a costly host and a high level, or link speeds far apart, pass
// DBL_MAX).
absl::StatusOr<std::vector<double>> SwitchCosts(
    const SwitchTree& net, const std::string& src,
    const std::vector<int32_t>& level, double costliest_host) {
  double fastest = 0;
  for (const SwitchTree::Switch& sw : net.switches)
    fastest = std::max(fastest, sw.link_speed);
  const double base = std::max(10.0, 10.0 * costliest_host);
  std::vector<double> cost(net.switches.size());
  for (size_t s = 0; s < net.switches.size(); ++s) {
    const SwitchTree::Switch& sw = net.switches[s];
    cost[s] = base * std::pow(10.0, level[s]);
    if (fastest > 0 && sw.link_speed > 0) cost[s] *= fastest / sw.link_speed;
    if (!std::isfinite(cost[s])) {
      return absl::InvalidArgumentError(absl::StrCat(
          At(src, sw), "switch '", sw.name, "': its cost, ", FormatCost(base),
          " (10 x the costliest host) x 10^", level[s], " (its level)",
          fastest > 0 && sw.link_speed > 0
              ? absl::StrCat(" x ", FormatCost(fastest), " / ",
                             FormatCost(sw.link_speed), " (link speeds)")
              : "",
          ", is not finite"));
    }
  }
  return cost;
}

// The switches that have hosts below them, top-down, each host's tree under
// its switch; a root "network" above several top switches.
absl::StatusOr<Tree> BuildSwitchTree(
    const SwitchTree& net, const std::string& src,
    const std::vector<std::vector<int32_t>>& kids,
    const std::vector<int32_t>& tops, const HostLeaves& h,
    const std::vector<double>& cost) {
  std::vector<int32_t> live_tops;
  double costliest_top = 0;
  for (int32_t s : tops) {
    if (h.leaves_below[s] == 0) continue;
    live_tops.push_back(s);
    costliest_top = std::max(costliest_top, cost[s]);
  }
  if (live_tops.size() > 1 && !std::isfinite(10 * costliest_top)) {
    return absl::InvalidArgumentError(absl::StrCat(
        src,
        ": the root above the top switches costs 10 x the costliest of "
        "them (",
        FormatCost(costliest_top), "), which is not finite"));
  }
  TreeBuilder b;
  std::vector<NodeId> bid(net.switches.size(), -1);
  // Top-down: parents are added before their children.
  std::vector<int32_t> stack(live_tops.rbegin(), live_tops.rend());
  const NodeId root =
      live_tops.size() > 1 ? b.AddRoot("network", 10 * costliest_top) : -1;
  while (!stack.empty()) {
    const int32_t s = stack.back();
    stack.pop_back();
    const int32_t p = net.switches[s].parent;
    const NodeId parent = p >= 0 ? bid[p] : root;
    bid[s] = parent < 0 ? b.AddRoot("switch", cost[s])
                        : b.AddChild(parent, "switch", cost[s]);
    for (const std::string& host : net.switches[s].hosts)
      AppendSubtree(b, bid[s], *h.tree_of_host.at(host), host);
    for (auto it = kids[s].rbegin(); it != kids[s].rend(); ++it) {
      if (h.leaves_below[*it] > 0) stack.push_back(*it);
    }
  }
  absl::StatusOr<Tree> t = std::move(b).Build();
  if (!t.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(src, ": ", std::string(t.status().message())));
  }
  return t;
}

}  // namespace

absl::StatusOr<Tree> AttachNodes(const SwitchTree& net, std::string_view source,
                                 const LoadOptions& options,
                                 int64_t max_leaves) {
  HostTrees host_trees(std::string(source), options, max_leaves);
  return AttachHostTrees(
      net, source,
      [&](const std::string& host) { return host_trees.For(host); }, max_leaves,
      options.max_memory_bytes);
}

absl::StatusOr<Tree> AttachHostTrees(
    const SwitchTree& net, std::string_view source,
    const std::function<absl::StatusOr<const Tree*>(const std::string& host)>&
        host_tree,
    int64_t max_leaves, int64_t max_memory_bytes) {
  const std::string src(source);
  std::vector<std::vector<int32_t>> kids;
  std::vector<int32_t> tops, level, order;
  RETURN_IF_ERROR(ChildrenOf(net, src, kids, tops));
  RETURN_IF_ERROR(SwitchLevels(net, src, kids, level, order));
  RETURN_IF_ERROR(CheckHosts(net, src));
  ASSIGN_OR_RETURN(const HostLeaves h,
                   LoadHosts(net, src, kids, order, host_tree, max_leaves));
  int64_t leaves = 0;
  for (int32_t s : tops) leaves += h.leaves_below[s];
  RETURN_IF_ERROR(CheckTreeSize(
      absl::StrCat(src, ": network"),
      base::SaturatingMulAdd(1, h.nodes,
                             static_cast<int64_t>(net.switches.size()) + 1),
      leaves, base::MemoryBudget(max_memory_bytes), h.name_bytes));
  ASSIGN_OR_RETURN(const std::vector<double> cost,
                   SwitchCosts(net, src, level, h.costliest_host));
  return BuildSwitchTree(net, src, kids, tops, h, cost);
}

}  // namespace rankmap::topology
