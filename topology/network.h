// Network spec: a two-level network (clusters or switches over nodes) whose
// nodes are hwloc machines, merged into one heterogeneous topology::Tree.
//
// Format: text, one directive per line; '#' starts a comment; blank lines are
// ignored. Directives:
//
//   network                 first directive: marks the file as a network spec
//   leaf pu|core            leaves of hwloc nodes (default: LoadOptions::leaf)
//   level_costs numa=100    hwloc level-cost overrides for every node
//   cost network <c>        cost between leaves of different clusters
//   cost cluster <c>        cost between leaves on two nodes of one cluster
//   cluster <name>          opens a cluster; the node lines below belong to
//                           it ("switch <name>" is the same, for nodes under
//                           a switch; the tree node's kind says which)
//   node <host> <desc>      one node named <host>
//   <N> x <desc>            N identical nodes named <cluster>-<i>, i counting
//                           the nodes of the cluster from 0
//   costs                   directly followed by K lines of K numbers: the
//                           symmetric cluster-pair cost matrix (K = number of
//                           clusters, in file order)
//   speed <s>               relative processor speed (finite, > 0) of every
//                           leaf of the node lines that follow, up to the next
//                           speed line; before the first cluster line it is
//                           the default every cluster line returns to. Nodes
//                           without one keep their own speeds (hwloc CPU
//                           kinds, else 1). Speed-aware mapping keeps each
//                           process on a leaf of its speed (rankmap map
//                           --process-speeds)
//   bandwidths [<scale>]    directly followed by K lines of K numbers: the
//                           symmetric cluster-pair bandwidths; the cost is
//                           scale / b(X, Y) as a real number (scale defaults
//                           to 1: pick it so that network costs exceed the
//                           costs inside a node, 1, 11, 111, ... by default)
//
// Links (instead of costs; then cost, costs and bandwidths are refused and
// every cost is derived from the links, topology/tree.h): a link is
// "<bandwidth>:<latency>" in SimGrid units (topology/link.h).
//   link node <link>        every node's loopback (the nodes become hosts)
//   link cluster <link>     every node's uplink to its cluster switch
//   link network <link>     every cluster switch's uplink to the network
//   links                   directly followed by K lines of K tokens: the
//                           symmetric cluster-pair links ('-' on the
//                           diagonal), one link per pair of clusters
// A link directive before the first cluster line is the default; inside a
// cluster's block (after its cluster line) it applies to that cluster only.
// `link node` and `link cluster` must reach every cluster. A route between
// nodes of clusters X and Y crosses X's node uplink, X's network uplink (if
// any), the X-Y pair link (if any), then Y's. Example, two clusters of 16-core
// nodes joined by a slow wide-area link:
//   network
//   link node 40GBps:0.2us
//   link cluster 10Gbps:2us
//   cluster lyon
//   16 x core:16
//   cluster nancy
//   link cluster 1Gbps:10us      # nancy's nodes have slower NICs
//   8 x core:16
//   links
//   -               1Gbps:5ms
//   1Gbps:5ms       -
//
// A node <desc> is a tleaf line ("tleaf 2 2 10 8 1"), a path ending in ".xml"
// (an hwloc XML export, relative to the spec file's directory unless
// absolute), or else an hwloc synthetic string ("pack:2 core:6"; "core:8":
// a last level other than pu gets pu:1).
//
// The merged tree: root "network" -> one "cluster" (or "switch") node per
// cluster -> the node trees (kinds, costs and os indexes unchanged; every
// leaf's host is its node's name). Distances: inside a node, the node tree's;
// between two nodes of one cluster, the cluster cost; between clusters
// X != Y, the matrix entry when a matrix is given (a child-pair matrix on the
// root), else the network cost. A non-zero diagonal entry (X, X)
// (scale / b(X, X) for bandwidths) is cluster X's own cost and wins over
// `cost cluster`. Defaults: cost cluster = 10 x the largest node root cost
// (at least 10); cost network = 10 x cost cluster.
//
// Example: 4 clusters of 4, 5, 3 and 4 nodes with 8, 12, 4 and 8 cores, 136
// leaves, bandwidths in MB/s:
//   network
//   cluster a
//   4 x core:8
//   cluster b
//   5 x pack:2 core:6
//   cluster c
//   3 x core:4
//   cluster d
//   node d-big nodes/d.xml     # an 8-core machine exported by lstopo
//   3 x core:8
//   bandwidths 1000000
//   1000 100 50  20            # b(a, a) = 1000 inside a, b(a, b) = 100, ...
//   100  2000 40 10
//   50   40  500 25
//   20   10  25  1000
#ifndef RANKMAP_TOPOLOGY_NETWORK_H_
#define RANKMAP_TOPOLOGY_NETWORK_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "topology/load_options.h"
#include "topology/tree.h"

namespace rankmap::topology {

// True when the first directive of `text` is "network".
bool LooksLikeNetworkSpec(std::string_view text);

// Parses a spec held in memory. `source` names it in errors ("spec.net:12:5:
// ..."), `base_dir` resolves relative XML paths. Uses options.leaf and
// options.level_costs for the nodes (directives in the file win); allowed_pus
// and capacity are LoadTopology's business. Errors: unknown directive, bad
// numbers, node line outside a cluster, empty cluster, missing or refused node
// files, node names (`node <host>`, <cluster>-<i>) that are not host names
// (base/host_name.h), matrix of the wrong size or not symmetric, default
// costs past the largest double (on the line that set what they multiply),
// more than `max_leaves` leaves, and (ResourceExhausted, on the node line
// that crosses it) more nodes and name bytes than options.max_memory_bytes
// can build (topology/tree_size.h).
absl::StatusOr<Tree> ParseNetworkSpec(std::string_view text,
                                      std::string_view source,
                                      std::string_view base_dir,
                                      const LoadOptions& options = {},
                                      int64_t max_leaves = int64_t{1} << 26);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_NETWORK_H_
