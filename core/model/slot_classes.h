// Slot classes: processes that must run on leaves of a given class, e.g. the
// processor speed a heterogeneous partition was computed for (seeds 000
// section 3.2, 003 section II-B: "placement is fixed by the partitioning up to
// rearrangement among equal processors"). A mapping respects the classes when
// every process with a class sits on a leaf of that class.
//
//   ASSIGN_OR_RETURN(SlotClasses c, ClassesForTree(tree, process_speed));
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, options, c));
//
// Leaf speeds come from the topology (topology::Tree::speeds: hwloc CPU
// kinds, a network spec's `speed` directive); process speeds from the front
// end that computed the partition (`rankmap frontend ... --output G` writes
// G.speeds).
#ifndef RANKMAP_CORE_MODEL_SLOT_CLASSES_H_
#define RANKMAP_CORE_MODEL_SLOT_CLASSES_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

struct SlotClasses {
  std::vector<int32_t> of_process;  // class per process, -1: any leaf
  std::vector<int32_t> of_leaf;     // class per leaf

  // True when process u may run on leaf l.
  bool Allowed(int32_t u, LeafId l) const {
    return of_process[u] < 0 || of_process[u] == of_leaf[l];
  }
};

// Classes by speed: equal speeds (relative 1e-9) share a class; processes
// whose speed is 0 or negative take any leaf. Errors: a process speed that no
// leaf has (the message names it and the speeds the topology offers).
absl::StatusOr<SlotClasses> ClassesFromSpeeds(
    std::span<const double> process_speed, std::span<const double> leaf_speed);

// ClassesFromSpeeds against tree.speeds(), checked to fit: one speed per
// process and, for each speed, at least as many slots (leaf capacities) as
// processes. Errors name the speed: "speeds: 3 processes need speed 4 but the
// topology has 2 slots of that speed". O(processes x speeds + leaves).
absl::StatusOr<SlotClasses> ClassesForTree(
    const topology::Tree& tree, std::span<const double> process_speed);

// OK when the arrays have one entry per process and per leaf and every class
// has at least as many slots as processes that need it (the message names the
// class, its processes and its slots).
absl::Status ValidateSlotClasses(const topology::Tree& tree,
                                 int32_t num_processes,
                                 const SlotClasses& classes);

// OK when every process with a class sits on a leaf of that class; the error
// names the first process that does not.
absl::Status CheckClasses(const SlotClasses& classes, const Mapping& mapping);

// Moves processes that sit on a leaf of another class to the nearest free
// leaf of theirs (nearest in the tree: the smallest subtree around the old
// leaf that holds one), heaviest processes first; processes already on a leaf
// of their class stay. Requires a valid mapping and classes that fit
// (ValidateSlotClasses). O(n log leaves + misplaced * log leaves).
void RepairToClasses(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const SlotClasses& classes, Mapping* mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MODEL_SLOT_CLASSES_H_
