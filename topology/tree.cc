#include "topology/tree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::topology {
namespace {

bool IsValidCost(double c) { return std::isfinite(c) && c >= 0.0; }

absl::Status CheckPairMatrix(NodeId n, int32_t k, std::span<const double> m) {
  if (static_cast<int64_t>(m.size()) != static_cast<int64_t>(k) * k) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/tree: node ", n, " has ", k,
                     " children but a pair matrix of ", m.size(), " entries"));
  }
  for (int32_t i = 0; i < k; ++i) {
    for (int32_t j = 0; j < k; ++j) {
      const double c = m[static_cast<int64_t>(i) * k + j];
      if (!IsValidCost(c) || (i == j && c != 0.0) ||
          c != m[static_cast<int64_t>(j) * k + i]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/tree: node ", n, ": pair cost (", i, ", ", j, ") = ", c,
            " must be finite, non-negative, symmetric, and zero on the "
            "diagonal"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckLink(const char* what, NodeId n, const Link& l) {
  if (l.bandwidth == 0.0 && l.latency == 0.0) return absl::OkStatus();
  if (!std::isfinite(l.bandwidth) || l.bandwidth <= 0.0 ||
      !std::isfinite(l.latency) || l.latency < 0.0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/builder: node ", n, ": ", what, " bandwidth ", l.bandwidth,
        " B/s, latency ", l.latency,
        " s: bandwidth must be finite and > 0, latency finite and >= 0"));
  }
  return absl::OkStatus();
}

// The id of `s` in `table`, added when new.
int32_t Intern(std::unordered_map<std::string, int32_t>& ids,
               std::vector<std::string>& table, const std::string& s) {
  auto [it, inserted] = ids.try_emplace(s, static_cast<int32_t>(table.size()));
  if (inserted) table.push_back(s);
  return it->second;
}

absl::Status NodeFailure(NodeId v, const char* what) {
  return absl::FailedPreconditionError(
      absl::StrCat("topology/tree: node ", v, ": ", what));
}

}  // namespace

const Link Tree::kNoLink{};

NodeId Tree::HostOf(NodeId n) const {
  if (!has_links()) return -1;
  for (NodeId v = n; v >= 0; v = parent_[v]) {
    if (loopback_[v].given()) return v;
  }
  return -1;
}

absl::StatusOr<std::vector<NodeId>> Tree::HostsAbove() const {
  const int32_t n = num_nodes();
  // Parents have larger ids, so one downward sweep from the root settles it.
  std::vector<NodeId> host(n, -1);
  for (NodeId v = n - 1; v >= 0; --v) {
    const NodeId p = parent_[v];
    const NodeId above = p >= 0 ? host[p] : -1;
    if (above >= 0 && loopback_[v].given()) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/builder: node ", v, " (", kind(v),
                       ") has a loopback but lies inside host node ", above,
                       " (", kind(above), "): hosts do not nest"));
    }
    host[v] = above >= 0 ? above : (loopback_[v].given() ? v : -1);
  }
  return host;
}

std::vector<Route> Tree::RoutesUp(const std::vector<NodeId>& host) const {
  const int32_t n = num_nodes();
  // up: the slowest route from a host (or a leaf outside hosts) below v up to
  // v, uplink of v excluded. Children before parents.
  std::vector<Route> up(n);
  std::vector<Route> via(n);  // up[v] plus v's own uplink
  for (NodeId v = 0; v < n; ++v) {
    if (host[v] >= 0 && host[v] != v) continue;
    if (!is_leaf(v) && host[v] < 0) {
      Route r{0.0, std::numeric_limits<double>::infinity()};
      for (NodeId c : children(v)) {
        r.latency = std::max(r.latency, via[c].latency);
        r.bandwidth = std::min(r.bandwidth, via[c].bandwidth);
      }
      up[v] = r;
    }
    via[v] = up[v];
    via[v].Add(uplink_[v]);
  }
  return via;
}

double Tree::DerivePairCosts(NodeId v, const std::vector<Route>& via) {
  auto kids = children(v);
  const int32_t k = static_cast<int32_t>(kids.size());
  if (pair_routes_.size() != pair_costs_.size())
    pair_routes_.assign(pair_costs_.size(), Route{});
  double worst = 0.0;
  for (int32_t i = 0; i < k; ++i) {
    for (int32_t j = 0; j < k; ++j) {
      double c = 0.0;
      const int64_t at = pair_begin_[v] + static_cast<int64_t>(i) * k + j;
      if (i != j) {
        Route r = via[kids[i]];
        r.Add(via[kids[j]]);
        r.Add(pair_link(v, i, j));
        c = RouteCost(r);
        if (c > worst) lca_route_[v] = r;
        pair_routes_[at] = r;
      }
      pair_costs_[at] = c;
      worst = std::max(worst, c);
    }
  }
  return worst;
}

// Largest two latency sums, smallest bandwidth: the slowest route between two
// children (exact when the children are alike).
Route Tree::SlowestChildRoute(NodeId v, const std::vector<Route>& via) const {
  double first = 0.0, second = 0.0;
  double bw = std::numeric_limits<double>::infinity();
  for (NodeId c : children(v)) {
    const double lat = via[c].latency;
    if (lat > first) {
      second = first;
      first = lat;
    } else if (lat > second) {
      second = lat;
    }
    bw = std::min(bw, via[c].bandwidth);
  }
  if (num_children(v) == 1) second = first;
  return Route{first + second, bw};
}

absl::Status Tree::DeriveCostsFromLinks() {
  const int32_t n = num_nodes();
  ASSIGN_OR_RETURN(const std::vector<NodeId> host, HostsAbove());
  const std::vector<Route> via = RoutesUp(host);
  const std::vector<double> given = cost_;
  lca_route_.assign(n, Route{});
  for (NodeId v = num_leaves_; v < n; ++v) {
    const NodeId h = host[v];
    if (h == v) {
      lca_route_[v].Add(loopback_[v]);
      cost_[v] = RouteCost(lca_route_[v]);
    } else if (h >= 0) {
      lca_route_[v].Add(loopback_[h]);
      const double host_cost = RouteCost(lca_route_[v]);
      cost_[v] = given[h] > 0 ? given[v] * (host_cost / given[h]) : host_cost;
    } else if (pair_link_begin_[v] >= 0) {
      cost_[v] = DerivePairCosts(v, via);
    } else {
      lca_route_[v] = SlowestChildRoute(v, via);
      cost_[v] = RouteCost(lca_route_[v]);
    }
  }
  return absl::OkStatus();
}

void Tree::Finish() {
  const int32_t n = num_nodes();
  depth_.assign(n, 0);
  child_rank_.assign(n, 0);
  for (NodeId v = n - 1; v >= 0; --v) {
    if (parent_[v] >= 0) depth_[v] = depth_[parent_[v]] + 1;
    auto kids = children(v);
    for (size_t r = 0; r < kids.size(); ++r)
      child_rank_[kids[r]] = static_cast<int32_t>(r);
  }
  height_ = 0;
  for (LeafId l = 0; l < num_leaves_; ++l)
    height_ = std::max(height_, depth_[l]);
  leaf_begin_.assign(n, std::numeric_limits<LeafId>::max());
  leaf_end_.assign(n, 0);
  subtree_capacity_.assign(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    if (v < num_leaves_) {
      leaf_begin_[v] = v;
      leaf_end_[v] = v + 1;
      subtree_capacity_[v] = capacity_[v];
    }
    const NodeId p = parent_[v];
    if (p >= 0) {
      leaf_begin_[p] = std::min(leaf_begin_[p], leaf_begin_[v]);
      leaf_end_[p] = std::max(leaf_end_[p], leaf_end_[v]);
      subtree_capacity_[p] += subtree_capacity_[v];
    }
  }
}

absl::StatusOr<Tree> Tree::FromLevels(std::span<const int64_t> arities,
                                      std::span<const double> link_costs) {
  if (arities.empty() || arities.size() != link_costs.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/levels: need as many link costs as arities, got ",
        arities.size(), " arities and ", link_costs.size(), " costs"));
  }
  int64_t leaves = 1;
  for (size_t i = 0; i < arities.size(); ++i) {
    if (arities[i] < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/levels: level ", i + 1, ": arity ", arities[i], " < 1"));
    }
    if (!IsValidCost(link_costs[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/levels: level ", i + 1, ": link cost ",
                       link_costs[i], " is negative or not finite"));
    }
    leaves *= arities[i];
    if (leaves > (int64_t{1} << 30)) {
      return absl::InvalidArgumentError(
          "topology/levels: more than 2^30 leaves");
    }
  }
  const size_t levels = arities.size();
  // cost of a node at depth d = c_{d+1} + ... + c_L
  std::vector<double> depth_cost(levels + 1, 0.0);
  for (size_t d = levels; d-- > 0;)
    depth_cost[d] = depth_cost[d + 1] + link_costs[d];
  TreeBuilder b;
  std::vector<NodeId> frontier = {
      b.AddRoot(levels == 0 ? "leaf" : "level0", depth_cost[0])};
  for (size_t d = 0; d < levels; ++d) {
    const std::string kind =
        d + 1 == levels ? "leaf" : absl::StrCat("level", d + 1);
    std::vector<NodeId> next;
    next.reserve(frontier.size() * arities[d]);
    for (NodeId p : frontier) {
      for (int64_t c = 0; c < arities[d]; ++c)
        next.push_back(b.AddChild(p, kind, depth_cost[d + 1]));
    }
    frontier = std::move(next);
  }
  return std::move(b).Build();
}

bool Tree::has_speeds() const {
  for (double s : speed_) {
    if (s != speed_[0]) return true;
  }
  return false;
}

bool Tree::Balanced() const {
  std::vector<int32_t> arity(height_ + 1, -1);
  for (NodeId v = 0; v < num_nodes(); ++v) {
    if (is_leaf(v)) {
      if (depth_[v] != height_) return false;
      continue;
    }
    int32_t& a = arity[depth_[v]];
    if (a < 0) a = num_children(v);
    if (a != num_children(v)) return false;
  }
  return true;
}

std::vector<int32_t> Tree::Arities() const {
  if (!Balanced()) return {};
  std::vector<int32_t> out;
  for (NodeId v = root(); !is_leaf(v); v = children(v)[0])
    out.push_back(num_children(v));
  return out;
}

absl::Status Tree::ValidateNode(NodeId v) const {
  const int32_t n = num_nodes();
  const bool leaf = v < num_leaves_;
  if (leaf != (num_children(v) == 0)) {
    return NodeFailure(
        v, leaf ? "leaf with children" : "internal node without children");
  }
  if (v != root() && (parent_[v] <= v || parent_[v] >= n))
    return NodeFailure(v, "parent id not above own id");
  for (NodeId c : children(v)) {
    if (c < 0 || c >= n || parent_[c] != v)
      return NodeFailure(v, "children list disagrees with parents");
  }
  if (!IsValidCost(cost_[v]))
    return NodeFailure(v, "cost is negative or not finite");
  if (leaf && cost_[v] != 0.0) return NodeFailure(v, "leaf with non-zero cost");
  if (has_pair_costs(v)) {
    const int32_t k = num_children(v);
    RETURN_IF_ERROR(CheckPairMatrix(
        v, k,
        {pair_costs_.data() + pair_begin_[v], static_cast<size_t>(k) * k}));
  }
  if (leaf && capacity_[v] < 0) return NodeFailure(v, "negative capacity");
  if (leaf && !(std::isfinite(speed_[v]) && speed_[v] > 0))
    return NodeFailure(v, "speed is not finite and > 0");
  if (depth_[v] != (v == root() ? 0 : depth_[parent_[v]] + 1))
    return NodeFailure(v, "wrong depth");
  return absl::OkStatus();
}

absl::Status Tree::ValidateLinks() const {
  const int32_t n = num_nodes();
  if (static_cast<int32_t>(uplink_.size()) != n ||
      static_cast<int32_t>(loopback_.size()) != n ||
      static_cast<int32_t>(pair_link_begin_.size()) != n) {
    return absl::FailedPreconditionError(
        "topology/tree: link array sizes disagree");
  }
  for (NodeId v = 0; v < n; ++v) {
    if (pair_link_begin_[v] >= 0 && pair_begin_[v] < 0)
      return NodeFailure(v, "pair links without pair costs");
    if (loopback_[v].given() && parent_[v] >= 0 && HostOf(parent_[v]) >= 0) {
      return NodeFailure(v, "host inside a host");
    }
  }
  return absl::OkStatus();
}

absl::Status Tree::ValidateCounts() const {
  const int32_t n = num_nodes();
  std::vector<int32_t> seen_children(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    if (v != root()) ++seen_children[parent_[v]];
  }
  for (NodeId v = 0; v < n; ++v) {
    if (seen_children[v] != num_children(v))
      return NodeFailure(v, "child count disagrees with parents");
    if (v > 0 && v < num_leaves_ && leaf_begin_[v] != v)
      return NodeFailure(v, "leaf range");
  }
  // Leaves below each node must be contiguous: range size equals the number of
  // leaves below.
  std::vector<int32_t> below(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    if (v < num_leaves_) below[v] = 1;
    if (below[v] != leaf_end_[v] - leaf_begin_[v])
      return NodeFailure(v, "leaves below are not contiguous");
    if (parent_[v] >= 0) below[parent_[v]] += below[v];
  }
  return absl::OkStatus();
}

absl::Status Tree::Validate() const {
  const int32_t n = num_nodes();
  if (n == 0 || num_leaves_ < 1)
    return absl::FailedPreconditionError("topology/tree: empty tree");
  if (static_cast<int32_t>(child_begin_.size()) != n + 1 ||
      static_cast<int32_t>(cost_.size()) != n ||
      static_cast<int32_t>(capacity_.size()) != num_leaves_ ||
      static_cast<int32_t>(speed_.size()) != num_leaves_ ||
      static_cast<int32_t>(os_index_.size()) != num_leaves_ ||
      static_cast<int32_t>(logical_index_.size()) != num_leaves_ ||
      static_cast<int32_t>(pu_begin_.size()) != num_leaves_ + 1 ||
      pu_begin_.back() != static_cast<int32_t>(pus_.size())) {
    return absl::FailedPreconditionError("topology/tree: array sizes disagree");
  }
  if (parent_[root()] != -1) return NodeFailure(root(), "root has a parent");
  for (NodeId v = 0; v < n; ++v) RETURN_IF_ERROR(ValidateNode(v));
  if (has_links()) RETURN_IF_ERROR(ValidateLinks());
  return ValidateCounts();
}

absl::StatusOr<Tree> Tree::WithCapacities(
    std::vector<int32_t> capacities) const {
  if (static_cast<int32_t>(capacities.size()) != num_leaves_) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/tree: ", capacities.size(), " capacities for ",
                     num_leaves_, " leaves"));
  }
  for (size_t l = 0; l < capacities.size(); ++l) {
    if (capacities[l] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/tree: leaf ", l, ": negative capacity ", capacities[l]));
    }
  }
  Tree t = *this;
  t.capacity_ = std::move(capacities);
  t.Finish();
  return t;
}

absl::StatusOr<Tree> Tree::WithSpeeds(std::vector<double> speeds) const {
  if (static_cast<int32_t>(speeds.size()) != num_leaves_) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/tree: ", speeds.size(), " speeds for ",
                     num_leaves_, " leaves"));
  }
  for (size_t l = 0; l < speeds.size(); ++l) {
    if (!(std::isfinite(speeds[l]) && speeds[l] > 0)) {
      return absl::InvalidArgumentError(absl::StrCat("topology/tree: leaf ", l,
                                                     ": speed ", speeds[l],
                                                     " is not finite and > 0"));
    }
  }
  Tree t = *this;
  t.speed_ = std::move(speeds);
  return t;
}

absl::StatusOr<Tree> Tree::WithCosts(
    std::vector<double> costs,
    const std::function<double(NodeId, int32_t, int32_t)>& pair_cost) const {
  if (costs.size() != cost_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/tree: ", costs.size(), " costs for ",
                     cost_.size(), " nodes"));
  }
  Tree t = *this;
  t.cost_ = std::move(costs);
  for (NodeId v = 0; v < num_nodes(); ++v) {
    if (!t.is_leaf(v) && !(std::isfinite(t.cost_[v]) && t.cost_[v] >= 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/tree: node ", v, ": cost ", t.cost_[v],
                       " is negative or not finite"));
    }
    if (!has_pair_costs(v)) continue;
    const int32_t k = num_children(v);
    for (int32_t i = 0; i < k; ++i) {
      for (int32_t j = 0; j < k; ++j) {
        const double c = i == j ? 0.0 : pair_cost(v, i, j);
        if (!(std::isfinite(c) && c >= 0)) {
          return absl::InvalidArgumentError(
              absl::StrCat("topology/tree: node ", v, ": pair cost ", c,
                           " is negative or not finite"));
        }
        t.pair_costs_[pair_begin_[v] + static_cast<int64_t>(i) * k + j] = c;
      }
    }
  }
  return t;
}

absl::StatusOr<Tree> Tree::WithPus(
    std::vector<std::vector<int32_t>> pus) const {
  if (static_cast<int32_t>(pus.size()) != num_leaves_) {
    return absl::InvalidArgumentError(
        absl::StrCat("topology/tree: ", pus.size(), " PU sets for ",
                     num_leaves_, " leaves"));
  }
  Tree t = *this;
  t.pus_.clear();
  t.pu_begin_.assign(num_leaves_ + 1, 0);
  for (int32_t l = 0; l < num_leaves_; ++l) {
    for (int32_t pu : pus[l]) {
      if (pu < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/tree: leaf ", l, ": negative PU os index ", pu));
      }
      t.pus_.push_back(pu);
    }
    t.pu_begin_[l + 1] = static_cast<int32_t>(t.pus_.size());
  }
  return t;
}

NodeId TreeBuilder::AddRoot(std::string_view kind, double cost) {
  ++roots_;
  return AddChild(-1, kind, cost);
}

NodeId TreeBuilder::AddChild(NodeId parent, std::string_view kind,
                             double cost) {
  parent_.push_back(parent);
  kind_.emplace_back(kind);
  cost_.push_back(cost);
  pairs_.emplace_back();
  os_index_.push_back(-1);
  logical_index_.push_back(-1);
  host_.emplace_back();
  capacity_.push_back(1);
  speed_.push_back(1.0);
  uplink_.emplace_back();
  loopback_.emplace_back();
  pair_links_.emplace_back();
  return static_cast<NodeId>(parent_.size() - 1);
}

void TreeBuilder::SetCost(NodeId n, double cost) { cost_[n] = cost; }
void TreeBuilder::SetPairCosts(NodeId n, std::vector<double> matrix) {
  pairs_[n] = std::move(matrix);
}
void TreeBuilder::SetOsIndex(NodeId leaf, int32_t os_index) {
  os_index_[leaf] = os_index;
}
void TreeBuilder::SetPus(NodeId leaf, std::vector<int32_t> pu_os_indexes) {
  std::sort(pu_os_indexes.begin(), pu_os_indexes.end());
  pu_os_indexes.erase(std::unique(pu_os_indexes.begin(), pu_os_indexes.end()),
                      pu_os_indexes.end());
  pus_[leaf] = std::move(pu_os_indexes);
}
void TreeBuilder::SetLogicalIndex(NodeId leaf, int32_t logical_index) {
  logical_index_[leaf] = logical_index;
}
void TreeBuilder::SetHost(NodeId leaf, std::string_view host) {
  host_[leaf] = std::string(host);
}
void TreeBuilder::SetCapacity(NodeId leaf, int32_t capacity) {
  capacity_[leaf] = capacity;
}
void TreeBuilder::SetSpeed(NodeId leaf, double speed) { speed_[leaf] = speed; }
void TreeBuilder::SetUplink(NodeId n, const Link& link) {
  uplink_[n] = link;
  has_links_ = true;
}
void TreeBuilder::SetLoopback(NodeId n, const Link& link) {
  loopback_[n] = link;
  has_links_ = true;
}
void TreeBuilder::SetPairLinks(NodeId n, std::vector<Link> matrix) {
  pair_links_[n] = std::move(matrix);
  has_links_ = true;
}

absl::Status TreeBuilder::ChildLists(std::vector<int32_t>& count,
                                     std::vector<NodeId>& kids) const {
  const int32_t n = num_nodes();
  count.assign(n + 1, 0);
  for (NodeId v = 1; v < n; ++v) {
    if (parent_[v] < 0 || parent_[v] >= v) {
      return absl::InvalidArgumentError(absl::StrCat("topology/builder: node ",
                                                     v, ": parent ", parent_[v],
                                                     " not added before it"));
    }
    ++count[parent_[v] + 1];
  }
  for (NodeId v = 0; v < n; ++v) count[v + 1] += count[v];
  kids.assign(n > 0 ? n - 1 : 0, 0);
  std::vector<int32_t> pos(count.begin(), count.end() - 1);
  for (NodeId v = 1; v < n; ++v) kids[pos[parent_[v]]++] = v;
  return absl::OkStatus();
}

std::vector<NodeId> TreeBuilder::Renumber(const std::vector<int32_t>& count,
                                          const std::vector<NodeId>& kids,
                                          int32_t num_leaves) const {
  // Iterative DFS: leaves get [0, L) in visit order, internal nodes L.. in
  // post-order.
  std::vector<NodeId> new_id(num_nodes(), -1);
  int32_t next_leaf = 0, next_internal = num_leaves;
  std::vector<std::pair<NodeId, int32_t>> stack = {{0, 0}};
  while (!stack.empty()) {
    auto& [v, k] = stack.back();
    const int32_t deg = count[v + 1] - count[v];
    if (deg == 0) {
      new_id[v] = next_leaf++;
      stack.pop_back();
    } else if (k < deg) {
      const NodeId c = kids[count[v] + k++];
      stack.push_back({c, 0});
    } else {
      new_id[v] = next_internal++;
      stack.pop_back();
    }
  }
  return new_id;
}

absl::Status TreeBuilder::CopyLeaf(Tree& t, NodeId v, NodeId id,
                                   HostIds& host_ids) const {
  if (capacity_[v] < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/builder: leaf ", v, ": negative capacity ", capacity_[v]));
  }
  if (const auto it = pus_.find(v);
      it != pus_.end() && !it->second.empty() && it->second[0] < 0) {
    return absl::InvalidArgumentError(absl::StrCat("topology/builder: leaf ", v,
                                                   ": negative PU os index ",
                                                   it->second[0]));
  }
  t.os_index_[id] = os_index_[v];
  t.logical_index_[id] = logical_index_[v];
  if (!(std::isfinite(speed_[v]) && speed_[v] > 0)) {
    return absl::InvalidArgumentError(absl::StrCat("topology/builder: leaf ", v,
                                                   ": speed ", speed_[v],
                                                   " is not finite and > 0"));
  }
  t.capacity_[id] = capacity_[v];
  t.speed_[id] = speed_[v];
  if (!host_[v].empty()) t.host_[id] = Intern(host_ids, t.hosts_, host_[v]);
  return absl::OkStatus();
}

absl::Status TreeBuilder::CopyNodes(Tree& t, const std::vector<NodeId>& new_id,
                                    const std::vector<int32_t>& count,
                                    std::vector<NodeId>& leaf_of) const {
  const int32_t n = num_nodes();
  const int32_t num_leaves = t.num_leaves_;
  t.parent_.assign(n, -1);
  t.cost_.assign(n, 0.0);
  t.kind_.assign(n, 0);
  t.pair_begin_.assign(n, -1);
  t.os_index_.assign(num_leaves, -1);
  t.logical_index_.assign(num_leaves, -1);
  leaf_of.assign(num_leaves, -1);
  t.host_.assign(num_leaves, 0);
  t.hosts_ = {""};
  t.capacity_.assign(num_leaves, 1);
  t.speed_.assign(num_leaves, 1.0);
  t.child_begin_.assign(n + 1, 0);
  t.children_.resize(n - 1);
  HostIds kind_ids, host_ids = {{"", 0}};
  for (NodeId v = 0; v < n; ++v) {
    const NodeId id = new_id[v];
    if (!IsValidCost(cost_[v])) {
      return absl::InvalidArgumentError(
          absl::StrCat("topology/builder: node ", v, ": cost ", cost_[v],
                       " is negative or not finite"));
    }
    const int32_t deg = count[v + 1] - count[v];
    t.parent_[id] = parent_[v] < 0 ? -1 : new_id[parent_[v]];
    t.cost_[id] = deg == 0 ? 0.0 : cost_[v];
    t.kind_[id] = Intern(kind_ids, t.kinds_, kind_[v]);
    t.child_begin_[id + 1] = deg;
    if (deg == 0) {
      leaf_of[id] = v;
      RETURN_IF_ERROR(CopyLeaf(t, v, id, host_ids));
    } else if (!pairs_[v].empty()) {
      RETURN_IF_ERROR(CheckPairMatrix(v, deg, pairs_[v]));
    }
  }
  return absl::OkStatus();
}

void TreeBuilder::CopyPus(Tree& t, const std::vector<NodeId>& leaf_of) const {
  t.pu_begin_.assign(t.num_leaves_ + 1, 0);
  for (LeafId l = 0; l < t.num_leaves_; ++l) {
    const NodeId v = leaf_of[l];
    if (const auto it = pus_.find(v); it != pus_.end() && !it->second.empty()) {
      t.pus_.insert(t.pus_.end(), it->second.begin(), it->second.end());
    } else if (os_index_[v] >= 0) {
      t.pus_.push_back(os_index_[v]);
    }
    t.pu_begin_[l + 1] = static_cast<int32_t>(t.pus_.size());
  }
}

void TreeBuilder::CopyChildren(Tree& t, const std::vector<NodeId>& new_id,
                               const std::vector<int32_t>& count,
                               const std::vector<NodeId>& kids) const {
  const int32_t n = num_nodes();
  for (NodeId id = 0; id < n; ++id)
    t.child_begin_[id + 1] += t.child_begin_[id];
  for (NodeId v = 0; v < n; ++v) {
    const NodeId id = new_id[v];
    for (int32_t k = count[v]; k < count[v + 1]; ++k) {
      t.children_[t.child_begin_[id] + (k - count[v])] = new_id[kids[k]];
    }
    if (!pairs_[v].empty() && count[v + 1] > count[v]) {
      t.pair_begin_[id] = static_cast<int64_t>(t.pair_costs_.size());
      t.pair_costs_.insert(t.pair_costs_.end(), pairs_[v].begin(),
                           pairs_[v].end());
    }
  }
}

absl::Status TreeBuilder::CheckPairLinks(NodeId v, int32_t k) const {
  const std::vector<Link>& m = pair_links_[v];
  if (static_cast<int64_t>(m.size()) != static_cast<int64_t>(k) * k) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/builder: node ", v, " has ", k,
        " children but a pair-link matrix of ", m.size(), " entries"));
  }
  for (int32_t i = 0; i < k; ++i) {
    for (int32_t j = 0; j < k; ++j) {
      const Link& l = m[static_cast<int64_t>(i) * k + j];
      if (i == j) continue;
      RETURN_IF_ERROR(CheckLink("pair link", v, l));
      if (!(l == m[static_cast<int64_t>(j) * k + i])) {
        return absl::InvalidArgumentError(
            absl::StrCat("topology/builder: node ", v, ": pair link (", i, ", ",
                         j, ") differs from pair link (", j, ", ", i, ")"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status TreeBuilder::CopyLinks(Tree& t, const std::vector<NodeId>& new_id,
                                    const std::vector<int32_t>& count) const {
  const int32_t n = num_nodes();
  t.uplink_.assign(n, Link{});
  t.loopback_.assign(n, Link{});
  t.pair_link_begin_.assign(n, -1);
  for (NodeId v = 0; v < n; ++v) {
    const NodeId id = new_id[v];
    RETURN_IF_ERROR(CheckLink("uplink", v, uplink_[v]));
    RETURN_IF_ERROR(CheckLink("loopback", v, loopback_[v]));
    t.uplink_[id] = uplink_[v];
    t.loopback_[id] = loopback_[v];
    const std::vector<Link>& m = pair_links_[v];
    if (m.empty()) continue;
    const int32_t k = count[v + 1] - count[v];
    RETURN_IF_ERROR(CheckPairLinks(v, k));
    t.pair_link_begin_[id] = static_cast<int64_t>(t.pair_links_.size());
    t.pair_links_.insert(t.pair_links_.end(), m.begin(), m.end());
    for (int32_t i = 0; i < k; ++i)
      t.pair_links_[t.pair_link_begin_[id] + static_cast<int64_t>(i) * k + i] =
          Link{};
    // Pair links price every child pair: give the node a pair-cost matrix to
    // hold those prices.
    if (t.pair_begin_[id] < 0) {
      t.pair_begin_[id] = static_cast<int64_t>(t.pair_costs_.size());
      t.pair_costs_.resize(t.pair_costs_.size() + static_cast<size_t>(k) * k,
                           0.0);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Tree> TreeBuilder::Build() && {
  const int32_t n = num_nodes();
  if (roots_ != 1 || n == 0 || parent_[0] != -1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/builder: need exactly one root, added first; got ", roots_));
  }
  std::vector<int32_t> count;
  std::vector<NodeId> kids;
  RETURN_IF_ERROR(ChildLists(count, kids));
  int32_t num_leaves = 0;
  for (NodeId v = 0; v < n; ++v) num_leaves += count[v + 1] == count[v];
  const std::vector<NodeId> new_id = Renumber(count, kids, num_leaves);
  Tree t;
  t.num_leaves_ = num_leaves;
  std::vector<NodeId> leaf_of;  // builder id of each leaf
  RETURN_IF_ERROR(CopyNodes(t, new_id, count, leaf_of));
  CopyPus(t, leaf_of);
  CopyChildren(t, new_id, count, kids);
  t.Finish();
  if (!has_links_) return t;
  RETURN_IF_ERROR(CopyLinks(t, new_id, count));
  RETURN_IF_ERROR(t.DeriveCostsFromLinks());
  return t;
}

}  // namespace rankmap::topology
