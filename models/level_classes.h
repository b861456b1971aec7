// What each level of a topology::Tree is, for the time models: the classes
// a parameter-file selector can name (core, socket, numa, node, cluster,
// network) and the group of default parameters a level gets (cache, socket,
// node, network).
//
// Kinds come from the tree. hwloc merges levels that cover the same PUs into
// one kind joined by '+' ("Machine+Package+NUMANode+L3Cache"); such a level is
// each of its parts: `Package`, `numa` and `node` all select it. Classes of
// the parts (case-insensitive):
//   core     PU, Core, L1*, L2* caches
//   socket   Package, Socket, Die, Group*, L3* and larger caches
//   numa     NUMANode
//   node     Machine, System
//   cluster  cluster, switch (network specs)
//   network  network (the root of a network spec)
// A level whose kind says nothing (tleaf levels, a network spec's tleaf
// nodes) is classed by its place: the children of a cluster or switch are
// nodes; a level with a node below it is network; otherwise by its height
// above the leaves (1 core, 2 socket, 3 node, more network), at most socket
// under a node.
//
// Default groups: cluster and network levels, and any level with a node
// below it, are network; otherwise the innermost known part decides (caches
// and cores: cache; socket and numa: socket; node: node).
//
//   const LevelClasses lc = ClassifyLevels(tree);
//   lc.group[d]                       // defaults of depth d
//   ASSIGN_OR_RETURN(std::vector<char> on, SelectDepths(tree, lc, "Package"));
#ifndef RANKMAP_MODELS_LEVEL_CLASSES_H_
#define RANKMAP_MODELS_LEVEL_CLASSES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topology/tree.h"

namespace rankmap::models {

enum class LevelClass : uint8_t {
  kCore,
  kSocket,
  kNuma,
  kNode,
  kCluster,
  kNetwork
};

// The four groups of default parameters, fastest first.
enum class DefaultGroup : uint8_t { kCache, kSocket, kNode, kNetwork };

// "core", "socket", "numa", "node", "cluster", "network" (case-insensitive).
std::optional<LevelClass> ParseLevelClass(std::string_view name);
const char* LevelClassName(LevelClass c);

struct LevelClasses {
  // Per node (leaves: 0): bit (1 << LevelClass) for each class it has.
  std::vector<uint8_t> node_classes;
  // Per depth in [0, height): the union over its nodes.
  std::vector<uint8_t> depth_classes;
  // Per depth: the slowest default group of its nodes.
  std::vector<DefaultGroup> group;
};

// O(nodes * length of a kind).
LevelClasses ClassifyLevels(const topology::Tree& tree);

// Depths [0, height) that `selector` names as a kind, a part of a merged kind
// (`pack` and `socket` also name Package, `numa` NUMANode, `node` Machine) or
// a class; all zero when it names none. Case-insensitive. O(nodes).
std::vector<char> SelectDepthsByName(const topology::Tree& tree,
                                     const LevelClasses& classes,
                                     std::string_view selector);

// "Machine+Package (depth 0), Core (depth 1)": the distinct kinds of the
// internal levels, for messages. O(nodes).
std::string DescribeLevels(const topology::Tree& tree);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_LEVEL_CLASSES_H_
