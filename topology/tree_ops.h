// Operations on a built Tree that the engine, the CLI and the MPI layer need:
// restriction to a set of leaves, oversubscription, copying a tree under
// another (the network merge), and two outputs: JSON and a text drawing for
// `rankmap topology` (the tleaf writer lives in topology/tleaf.h).
//
//   const std::vector<LeafId> allowed = {0, 1, 8, 9};
//   ASSIGN_OR_RETURN(Tree small, Restrict(tree, allowed));  // 4 leaves
//   ASSIGN_OR_RETURN(Tree big, Oversubscribe(small, 2));    // 2 per leaf
//   std::cout << DrawTree(big);
#ifndef RANKMAP_TOPOLOGY_TREE_OPS_H_
#define RANKMAP_TOPOLOGY_TREE_OPS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::topology {

// The tree with only the `allowed` leaves (any order; duplicates are ignored).
// Leaf i of the result is the i-th smallest allowed leaf; kinds, costs, os
// indexes, PU sets, logical indexes, hosts, capacities, speeds and the
// rows/columns of child-pair matrices of the kept children are preserved, so
// distances between kept leaves are unchanged. A leaf without a logical index
// gets its leaf id in `tree` as one, so callers can still name it by the number
// they know. Internal nodes left without leaves are dropped; single-child nodes
// are kept (the levels stay where they were). Errors: empty set, leaf id out of
// range. O(nodes + |allowed| log |allowed|).
absl::StatusOr<Tree> Restrict(const Tree& tree,
                              std::span<const LeafId> allowed);

// The number each leaf of a restricted tree had in the whole one (its logical
// index, see Restrict), by leaf; empty when a leaf has none or two leaves share
// one (several hosts number their PUs alike). O(leaves log leaves).
std::vector<int32_t> NumbersBeforeRestrict(const Tree& tree);

// Every leaf with a non-zero capacity gets capacity k (k processes may share
// it, at distance 0); unavailable leaves (capacity 0) stay unavailable. Errors:
// k < 1. O(nodes).
absl::StatusOr<Tree> Oversubscribe(const Tree& tree, int32_t k);

// Adds a copy of `sub` below `parent` of the builder (as its root when parent
// is -1): kinds, costs, pair matrices, os indexes, PU sets, logical indexes,
// capacities, speeds; hosts too, replaced by `host` when it is non-empty.
// Returns the builder id of the copied root. O(nodes of sub).
NodeId AppendSubtree(TreeBuilder& builder, NodeId parent, const Tree& sub,
                     std::string_view host);

// JSON object: {"num_leaves", "num_nodes", "height", "balanced", "arities"
// (when balanced), "root": node}, node = {"id", "kind", "depth", "cost",
// "leaves": [begin, end), "capacity", "pair_costs" (when present), "children":
// [...]}, leaf = {"id", "kind", "os_index", "host", "capacity", "speed" (when
// leaves differ in speed)}. Ids are Tree ids. O(nodes + pair entries).
std::string ToJson(const Tree& tree);

// Indented text drawing: one line per internal node with its kind, cost, leaf
// range and arity; children that are all leaves are summarised ("2 x PU"), and
// a run of siblings with the same shape (kinds, costs, arities and leaf
// speeds all the way down) is drawn once followed by
// "... N more like this, leaves [b, e)". Child-pair matrices are printed under
// their node; leaf speeds when leaves differ in speed. O(nodes log nodes).
std::string DrawTree(const Tree& tree);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_TREE_OPS_H_
