// Tree: where processes can run, as a rooted tree whose leaves are execution
// slots (PUs or cores of nodes, nodes under switches or clusters).
//
// Numbering: leaves are [0, num_leaves()) in logical left-to-right order
// (hwloc's logical PU order, and Scotch/TopoMatch tleaf mixed-radix numbering);
// internal nodes follow, numbered so that parent(i) > i; the root is
// num_nodes() - 1. The leaves below any node form a contiguous range
// [leaf_begin(n), leaf_end(n)).
//
// Costs: Distance(a, b) for leaves a != b is cost(LCA(a, b)), or the entry of
// the LCA's child-pair matrix for the two children on the paths to a and b when
// the LCA carries one (per-cluster-pair costs of a heterogeneous network). For
// trees described by per-level link costs (tleaf `c1 .. cL`), cost(node at
// depth d) is the sum of the link costs from its leaves up to it, c_{d+1} + ...
// + c_L, so distances agree 1:1 with Scotch and TopoMatch.
//
// Links (optional, topology/link.h): a node may carry the link up to its parent
// (uplink), a loopback (the link between two processes inside it; a node with a
// loopback is a host, a machine of a simulated platform) and, for a node with
// child-pair costs, one link per child pair. Hosts do not nest. When any link
// is given, TreeBuilder::Build derives every cost from the links:
//   * a node above the hosts costs the RouteCost of the slowest route between
//     two of its leaves: the uplinks from a host up to the node on both sides
//     (plus the pair link between the two children, which gives one pair cost
//     per child pair), taking the largest latency sums and the smallest
//     bandwidth found among its children;
//   * a host costs the RouteCost of its loopback;
//   * a node inside a host keeps its given cost scaled by the same factor as
//     the host's (cost(host) / given cost(host)), so hwloc levels keep their
//     ratios under the loopback; when the host's given cost is 0 they all get
//     the host's cost.
// Links that are not given (a switch without a modelled uplink) are simply not
// on the route.
//
// Trees may be unbalanced (different arities under different parents, leaves at
// different depths). Each leaf has a capacity (processes it can take: 1, k when
// oversubscribed, 0 when unavailable), an hwloc os_index (physical id, used
// only for binding; -1 if unknown), the os indexes of every PU it covers (a
// core leaf covers its hardware threads), its hwloc logical index on its host
// (-1 if unknown; launchers that number CPUs logically need it) and an
// optional host name.
//
// Usage:
//   TreeBuilder b;
//   NodeId root = b.AddRoot("Machine", 11);
//   for (int s = 0; s < 2; ++s) {
//     NodeId sock = b.AddChild(root, "Package", 1);
//     for (int c = 0; c < 2; ++c) b.AddChild(sock, "Core");
//   }
//   // Same tree as Tree::FromLevels({2, 2}, {10, 1}):
//   ASSIGN_OR_RETURN(Tree t, std::move(b).Build());
#ifndef RANKMAP_TOPOLOGY_TREE_H_
#define RANKMAP_TOPOLOGY_TREE_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "topology/link.h"

namespace rankmap::topology {

using NodeId = int32_t;
using LeafId = int32_t;

class Tree {
 public:
  Tree() = default;

  // A balanced tree from top-down arities and per-level link costs (the tleaf
  // model): arities[i] children per node at depth i, link_costs[i] the cost of
  // a link between depth i and depth i+1. Errors: empty or mismatched vectors,
  // arity < 1, negative or non-finite cost, more than 2^31 leaves.
  static absl::StatusOr<Tree> FromLevels(std::span<const int64_t> arities,
                                         std::span<const double> link_costs);

  int32_t num_leaves() const { return num_leaves_; }
  int32_t num_nodes() const { return static_cast<int32_t>(parent_.size()); }
  NodeId root() const { return num_nodes() - 1; }
  bool is_leaf(NodeId n) const { return n < num_leaves_; }
  // -1 for the root.
  NodeId parent(NodeId n) const { return parent_[n]; }
  // Root has depth 0.
  int32_t depth(NodeId n) const { return depth_[n]; }
  // Largest leaf depth.
  int32_t height() const { return height_; }
  std::span<const NodeId> children(NodeId n) const {
    return {children_.data() + child_begin_[n],
            static_cast<size_t>(child_begin_[n + 1] - child_begin_[n])};
  }
  int32_t num_children(NodeId n) const {
    return child_begin_[n + 1] - child_begin_[n];
  }
  // Position of n among its parent's children.
  int32_t child_rank(NodeId n) const { return child_rank_[n]; }
  LeafId leaf_begin(NodeId n) const { return leaf_begin_[n]; }
  LeafId leaf_end(NodeId n) const { return leaf_end_[n]; }

  // Cost between two distinct leaves whose LCA is n (leaves: 0).
  double cost(NodeId n) const { return cost_[n]; }
  bool has_pair_costs(NodeId n) const { return pair_begin_[n] >= 0; }
  // Child-pair cost of node n for its children of ranks i and j (requires
  // has_pair_costs(n)).
  double pair_cost(NodeId n, int32_t i, int32_t j) const {
    return pair_costs_[pair_begin_[n] +
                       static_cast<int64_t>(i) * num_children(n) + j];
  }
  // Links (see the top of this file); every accessor returns a Link that is
  // not given when the tree has no links.
  bool has_links() const { return !uplink_.empty(); }
  const Link& uplink(NodeId n) const {
    return has_links() ? uplink_[n] : kNoLink;
  }
  const Link& loopback(NodeId n) const {
    return has_links() ? loopback_[n] : kNoLink;
  }
  bool is_host(NodeId n) const { return loopback(n).given(); }
  bool has_pair_links(NodeId n) const {
    return has_links() && pair_link_begin_[n] >= 0;
  }
  // Requires has_pair_links(n).
  const Link& pair_link(NodeId n, int32_t i, int32_t j) const {
    return pair_links_[pair_link_begin_[n] +
                       static_cast<int64_t>(i) * num_children(n) + j];
  }
  // The host (node with a loopback) at or above n, or -1. O(depth).
  NodeId HostOf(NodeId n) const;
  // The slowest route between two leaves whose lowest common ancestor is n,
  // the one its cost is derived from (inside a host: the host's loopback);
  // an empty Route when the tree has no links or n is a leaf. O(1).
  Route LcaRoute(NodeId n) const {
    return has_links() ? lca_route_[n] : Route{};
  }
  // The route between leaves below children i and j of a node with pair links
  // (requires has_pair_links(n)); empty for i == j. O(1).
  Route PairRoute(NodeId n, int32_t i, int32_t j) const {
    const int64_t k = num_children(n);
    return pair_routes_[pair_begin_[n] + i * k + j];
  }

  // Level name ("Machine", "Package", "NUMANode", "Core", "PU", "switch",
  // "node", ...).
  const std::string& kind(NodeId n) const { return kinds_[kind_[n]]; }

  int32_t os_index(LeafId l) const { return os_index_[l]; }
  // PU os indexes the leaf covers, ascending: {os_index} for a PU, every
  // hardware thread for a core; empty when os_index is unknown.
  std::span<const int32_t> pus(LeafId l) const {
    return {pus_.data() + pu_begin_[l],
            static_cast<size_t>(pu_begin_[l + 1] - pu_begin_[l])};
  }
  // hwloc logical index of the leaf's object (PU or Core, as kind(l) says)
  // among the objects of that type on its host; -1 when unknown.
  int32_t logical_index(LeafId l) const { return logical_index_[l]; }
  // Empty when unknown.
  const std::string& host(LeafId l) const { return hosts_[host_[l]]; }
  int32_t capacity(LeafId l) const { return capacity_[l]; }
  // Relative speed of the leaf's processor (> 0, 1 by default).
  double speed(LeafId l) const { return speed_[l]; }
  // One speed per leaf, indexed by LeafId.
  std::span<const double> speeds() const { return speed_; }
  // True when some leaf's speed differs from another's.
  bool has_speeds() const;
  // Sum of leaf capacities below n. O(1).
  int64_t Capacity(NodeId n) const { return subtree_capacity_[n]; }

  // Lowest common ancestor of two leaves (or nodes). O(depth), no allocation.
  NodeId Lca(NodeId a, NodeId b) const {
    while (a != b) {
      if (a < b) {
        a = parent_[a];
      } else {
        b = parent_[b];
      }
    }
    return a;
  }

  // Distance between two leaves as defined above; 0 when a == b. O(depth), no
  // allocation.
  double Distance(LeafId a, LeafId b) const {
    if (a == b) return 0.0;
    NodeId x = a, y = b, cx = a, cy = b;
    while (x != y) {
      if (x < y) {
        cx = x;
        x = parent_[x];
      } else {
        cy = y;
        y = parent_[y];
      }
    }
    if (pair_begin_[x] < 0) return cost_[x];
    return pair_cost(x, child_rank_[cx], child_rank_[cy]);
  }

  // True when every leaf has the same depth and all nodes at one depth have the
  // same arity.
  bool Balanced() const;
  // Per-depth arities (top-down) when Balanced(), else empty.
  std::vector<int32_t> Arities() const;

  // Checks every invariant listed at the top of this file.
  absl::Status Validate() const;

  // Copies of the tree with different leaf capacities. SetCapacities errors:
  // wrong length, negative value.
  absl::StatusOr<Tree> WithCapacities(std::vector<int32_t> capacities) const;
  // The same tree with new leaf speeds. Errors: wrong length, a speed that is
  // not finite and > 0. O(leaves).
  absl::StatusOr<Tree> WithSpeeds(std::vector<double> speeds) const;
  // The same tree priced differently: costs[v] for every node (leaves' are
  // ignored) and, for nodes with pair costs, pair_cost(v, i, j) for children
  // i != j. Prices the same shape by another quantity (the time objective's
  // latency and inverse-bandwidth trees, core/objective/time_objective.h).
  // Errors: wrong length, a cost that is not finite and >= 0. O(nodes + pair
  // costs).
  absl::StatusOr<Tree> WithCosts(
      std::vector<double> costs,
      const std::function<double(NodeId, int32_t, int32_t)>& pair_cost) const;
  // The same tree with new PU sets per leaf (pus[l]: os indexes, ascending,
  // non-negative). Errors: wrong length, a negative index. O(nodes + PUs).
  absl::StatusOr<Tree> WithPus(std::vector<std::vector<int32_t>> pus) const;

 private:
  friend class TreeBuilder;
  void
  Finish();  // computes derived arrays (depth, ranks, leaf ranges, capacities)
  // Replaces costs by the ones the links give (the rule at the top of this
  // file). Errors: a host inside a host.
  absl::Status DeriveCostsFromLinks();
  // Its steps: the host at or above every node (-1 above the hosts; errors:
  // nested hosts); the slowest route from a host below each node up through
  // its uplink; the pair costs of a node with pair links (returns the
  // largest); the slowest route between two children of a node.
  absl::StatusOr<std::vector<NodeId>> HostsAbove() const;
  std::vector<Route> RoutesUp(const std::vector<NodeId>& host) const;
  double DerivePairCosts(NodeId v, const std::vector<Route>& via);
  Route SlowestChildRoute(NodeId v, const std::vector<Route>& via) const;
  // Validate's steps: one node's own invariants, the link arrays, the child
  // counts and leaf ranges.
  absl::Status ValidateNode(NodeId v) const;
  absl::Status ValidateLinks() const;
  absl::Status ValidateCounts() const;

  int32_t num_leaves_ = 0;
  int32_t height_ = 0;
  std::vector<NodeId> parent_;
  std::vector<int32_t> depth_;
  std::vector<int32_t> child_begin_;  // num_nodes + 1
  std::vector<NodeId> children_;
  std::vector<int32_t> child_rank_;
  std::vector<LeafId> leaf_begin_, leaf_end_;
  std::vector<double> cost_;
  std::vector<int64_t>
      pair_begin_;  // -1 when the node has no child-pair matrix
  std::vector<double> pair_costs_;
  std::vector<int32_t> kind_;
  std::vector<std::string> kinds_;
  std::vector<int32_t> os_index_;
  std::vector<int32_t> pu_begin_;  // num_leaves + 1, into pus_
  std::vector<int32_t> pus_;
  std::vector<int32_t> logical_index_;
  std::vector<int32_t> host_;
  std::vector<std::string> hosts_;
  std::vector<int32_t> capacity_;
  std::vector<double> speed_;
  std::vector<int64_t> subtree_capacity_;
  // Empty when the tree has no links, else one entry per node.
  std::vector<Link> uplink_, loopback_;
  std::vector<int64_t> pair_link_begin_;  // -1: no pair links
  std::vector<Link> pair_links_;
  std::vector<Route> lca_route_;
  std::vector<Route> pair_routes_;  // parallel to pair_costs_ with pair links
  static const Link kNoLink;
};

// Builds a Tree from nodes added top-down in any order; children keep insertion
// order, nodes without children become leaves. Builder ids are not Tree ids:
// Build() renumbers (see TreeBuilder::tree_id after Build).
class TreeBuilder {
 public:
  NodeId AddRoot(std::string_view kind, double cost = 0.0);
  // Errors are deferred to Build(): an unknown parent is reported there.
  NodeId AddChild(NodeId parent, std::string_view kind, double cost = 0.0);
  void SetCost(NodeId n, double cost);
  // Row-major k x k matrix for a node with k children; symmetric, zero
  // diagonal.
  void SetPairCosts(NodeId n, std::vector<double> matrix);
  void SetOsIndex(NodeId leaf, int32_t os_index);
  // Every PU os index of a leaf (a core's hardware threads); unset, a leaf with
  // an os index covers that PU alone.
  void SetPus(NodeId leaf, std::vector<int32_t> pu_os_indexes);
  void SetLogicalIndex(NodeId leaf, int32_t logical_index);
  void SetHost(NodeId leaf, std::string_view host);
  void SetCapacity(NodeId leaf, int32_t capacity);
  // Relative processor speed of a leaf (default 1).
  void SetSpeed(NodeId leaf, double speed);
  // Links (see the top of this file). Pair links: row-major k x k for a node
  // with k children, symmetric; the diagonal is ignored.
  void SetUplink(NodeId n, const Link& link);
  void SetLoopback(NodeId n, const Link& link);
  void SetPairLinks(NodeId n, std::vector<Link> matrix);
  int32_t num_nodes() const { return static_cast<int32_t>(parent_.size()); }

  // Errors: no root or several roots, bad parent ids, negative/non-finite
  // costs, malformed pair matrices, negative capacities, speeds that are not
  // finite and > 0, negative PU os indexes, no leaves; with links: a bandwidth
  // that is not finite and > 0 or a negative latency, a pair-link matrix of the
  // wrong size or not symmetric, a host inside a host.
  absl::StatusOr<Tree> Build() &&;

 private:
  using HostIds = std::unordered_map<std::string, int32_t>;
  // The steps of Build. count[v]..count[v+1] index v's children in kids.
  absl::Status ChildLists(std::vector<int32_t>& count,
                          std::vector<NodeId>& kids) const;
  // Tree ids by builder id: leaves first in DFS order, then internal nodes in
  // post-order.
  std::vector<NodeId> Renumber(const std::vector<int32_t>& count,
                               const std::vector<NodeId>& kids,
                               int32_t num_leaves) const;
  absl::Status CopyNodes(Tree& t, const std::vector<NodeId>& new_id,
                         const std::vector<int32_t>& count,
                         std::vector<NodeId>& leaf_of) const;
  absl::Status CopyLeaf(Tree& t, NodeId v, NodeId id, HostIds& host_ids) const;
  void CopyPus(Tree& t, const std::vector<NodeId>& leaf_of) const;
  void CopyChildren(Tree& t, const std::vector<NodeId>& new_id,
                    const std::vector<int32_t>& count,
                    const std::vector<NodeId>& kids) const;
  absl::Status CheckPairLinks(NodeId v, int32_t k) const;
  absl::Status CopyLinks(Tree& t, const std::vector<NodeId>& new_id,
                         const std::vector<int32_t>& count) const;

  std::vector<NodeId> parent_;
  std::vector<std::string> kind_;
  std::vector<double> cost_;
  std::vector<std::vector<double>> pairs_;
  std::vector<int32_t> os_index_;
  // Sparse: only leaves whose PU set is not {os_index} (core leaves).
  std::unordered_map<NodeId, std::vector<int32_t>> pus_;
  std::vector<int32_t> logical_index_;
  std::vector<std::string> host_;
  std::vector<int32_t> capacity_;
  std::vector<double> speed_;
  std::vector<Link> uplink_, loopback_;
  std::vector<std::vector<Link>> pair_links_;
  bool has_links_ = false;
  int32_t roots_ = 0;
};

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_TREE_H_
