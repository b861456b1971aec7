// n-to-1 mapping for partitioners: more processes (vertices, with weights)
// than slots; each leaf l receives vertex weight at most
// PartitionLoadBounds(tree, graph, options.imbalance)[l].
//
// Runs four multisections (core/initial/multisection.h, MultisectionPartition:
// two ways of spending the imbalance over the levels, all of it where needed or
// (1 + imbalance)^(1 / height) per level; two METIS seeds each), repairs each
// (RepairLeafLoads) and, when options.refine.enabled, refines it
// (core/refine/partition_refine.h: label propagation, then FM on pair levels),
// and keeps the lowest J (ties: first). With options.threads >= 2 each
// attempt's refinement overlaps the next METIS run; the attempts are
// independent, so the result does not depend on the thread count.
//
//   MappingOptions o;  // o.imbalance = 0.03
//   ASSIGN_OR_RETURN(Mapping p, PartitionMap(tree, mesh, o));
//   // ValidatePartitionMapping(tree, mesh, p, o.imbalance) is OK.
#ifndef RANKMAP_CORE_STRATEGIES_PARTITION_MAP_H_
#define RANKMAP_CORE_STRATEGIES_PARTITION_MAP_H_

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Contract: the result passes ValidatePartitionMapping with options.imbalance
// whenever that is achievable; otherwise (a single vertex heavier than a
// leaf's bound) that check's error. Requires a tree with capacity (Map checks).
// Time 4x one multisection plus the refinements.
absl::StatusOr<Mapping> PartitionMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_STRATEGIES_PARTITION_MAP_H_
