// A network of switches over named hosts, as cluster tools describe it (Slurm
// topology.conf and `scontrol show topology`, InfiniBand ibnetdiscover, the
// switch path Slurm gives each task), and its merge with each host's hardware
// into one Tree.
//
//   SwitchTree net;
//   net.switches = {{"top", -1, {}}, {"s0", 0, {"tux0", "tux1"}}};
//   LoadOptions o;
//   o.node = "pack:2 core:8";                  // every host alike
//   ASSIGN_OR_RETURN(Tree t, AttachNodes(net, "topology.conf", o));
//
// The merged tree: one node per switch that has hosts below it (kind
// "switch"), each host's tree under its switch (kinds, costs and os indexes of
// the host tree; every leaf's host is the host's name), and a root "network"
// above several top switches. Costs: a switch at level k (0 for switches with
// hosts only, else 1 + the highest child switch level) costs
// base * 10^k, base = 10 x the costliest host root (at least 10); when switches
// carry link speeds, a switch's cost is multiplied by (fastest speed / its
// speed), so slower links cost more. The root over several top switches costs
// 10 x the costliest of them.
//
// Host hardware (LoadOptions::node, with LoadOptions::leaf and level_costs):
// a directory holding <host>.xml for every host (hwloc exports, one per
// machine); or one description for every host: an hwloc synthetic string, a
// tleaf, an XML file, or "this".
#ifndef RANKMAP_TOPOLOGY_SWITCH_TREE_H_
#define RANKMAP_TOPOLOGY_SWITCH_TREE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/load_options.h"
#include "topology/tree.h"

namespace rankmap::topology {

struct SwitchTree {
  struct Switch {
    std::string name;
    int32_t parent = -1;             // index into switches; -1: a top switch
    std::vector<std::string> hosts;  // attached directly, in order
    double link_speed = 0;           // > 0 when known (any unit)
    int32_t line = 0;                // where the file defines it; 0: unknown
  };
  // Parents may come before or after their children.
  std::vector<Switch> switches;
};

// The most switches on a path from a top switch down (a tree's depth limit,
// as tleaf's levels): costs grow 10x per level, so deeper chains reach
// infinite costs anyway.
inline constexpr int32_t kMaxSwitchDepth = 256;

// Errors, prefixed with `source` (and the switch's line when known): a
// parent index out of range or a cycle of parents (the message lists it),
// chains of more than kMaxSwitchDepth switches, a host name that is not a
// host name (base/host_name.h: hosts name files under LoadOptions::node), a
// host under two switches, no host at all, missing or refused host
// descriptions (the host and the file are named), more than max_leaves
// leaves, switch costs that are not finite; ResourceExhausted: a tree
// (nodes and host names, topology/tree_size.h) above options.max_memory_bytes,
// before it is built. O(switches + hosts x leaves per host).
absl::StatusOr<Tree> AttachNodes(const SwitchTree& net, std::string_view source,
                                 const LoadOptions& options,
                                 int64_t max_leaves = int64_t{1} << 26);

// The same with each host's tree from `host_tree` (called once per host; its
// errors are returned as they are), for callers that know the hosts' trees
// already (an MPI job: each host restricted to its ranks' PUs).
// max_memory_bytes: 0 for base::MemoryBudget()'s default.
absl::StatusOr<Tree> AttachHostTrees(
    const SwitchTree& net, std::string_view source,
    const std::function<absl::StatusOr<const Tree*>(const std::string& host)>&
        host_tree,
    int64_t max_leaves = int64_t{1} << 26, int64_t max_memory_bytes = 0);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_SWITCH_TREE_H_
