// Processes with several threads: a coarser tree whose leaves are groups of k
// consecutive leaves of one host, so a mapping onto it keeps each process's
// threads together and its cost J is computed between processes.
//
//   ASSIGN_OR_RETURN(LeafGroups g, GroupLeaves(tree, 4));
//   // g.tree: one leaf per group, PU set = the union of the group's PUs
//   // g.first[c]: the first leaf of `tree` in group c (its leaves are
//   //             first[c] .. first[c] + 3)
//
// Groups are cut in leaf order within each host (the whole tree when leaves
// have no host); a host's last leaves that do not fill a group are left out.
// A group leaf sits where its first leaf sat (topology/tree_ops.h Restrict):
// kinds, costs, links, hosts and logical index are that leaf's, so with k
// dividing the size of every level below the host (cores per L2, per socket)
// the distance between two groups is the distance between their leaves.
#ifndef RANKMAP_TOPOLOGY_LEAF_GROUPS_H_
#define RANKMAP_TOPOLOGY_LEAF_GROUPS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::topology {

struct LeafGroups {
  Tree tree;                  // one leaf per group
  std::vector<LeafId> first;  // per group leaf: its first leaf in the input
  int32_t k = 1;
};

// Errors: k < 1, no host with k leaves (the message gives the largest host's
// leaf count). O(nodes + PUs).
absl::StatusOr<LeafGroups> GroupLeaves(const Tree& tree, int32_t k);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_LEAF_GROUPS_H_
