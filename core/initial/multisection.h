// Top-down multisection: map a communication graph onto a tree by recursively
// splitting the graph over the children of each tree node with METIS, heaviest
// (topmost) links first.
//
// At a node holding the process set S, the children receive parts whose sizes
// are fixed in advance: one-to-one (MultisectionMap), S is packed into the
// fewest children that hold it, shared in proportion to their capacities, so
// every child gets at most its capacity; n-to-1 (MultisectionPartition), every
// child gets a share of S's vertex weight proportional to its capacity. METIS
// (core/split/metis_split.h: target part weights equal to those shares,
// attempts by its policy) proposes the split; METIS allows some imbalance, so a
// repair step then moves the vertices whose move loses the least cut until
// every part has exactly its size (one-to-one) or is within the bound (n-to-1).
// Children with capacity 0 (restricted leaf sets) get nothing. Where a node
// carries a child-pair cost matrix (heterogeneous networks), parts of equal
// size are permuted over the children to lower sum cut(i, j) * pair_cost(i,
// j). Nodes whose children are all single-slot leaves at equal cost are filled
// directly. Refinement is not part of this file: Map (core/mapper.h) refines
// the result once.
//
// Determinism: every METIS call runs on one thread with its seed derived from
// the seed and the tree node, so the same inputs and seed give the same
// mapping on every machine.
//
// threads: subtrees are split on up to this many threads at once when METIS
// can run on several (core/split/metis_rand.h; otherwise on one). The mapping
// is the same for every thread count.
//
//   ASSIGN_OR_RETURN(Mapping m, MultisectionMap(tree, graph, {}, /*seed=*/1));
#ifndef RANKMAP_CORE_INITIAL_MULTISECTION_H_
#define RANKMAP_CORE_INITIAL_MULTISECTION_H_

#include <cstdint>
#include <span>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/model/progress.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// One-to-one multisection. Requires graph.num_vertices() <= the tree's total
// capacity (Map checks; debug builds assert). The result passes
// ValidateMapping. Time O((n + m) * height) plus the METIS calls (each
// near-linear in its subgraph). Errors: a METIS failure (with its code and
// the tree node). Progress: the share of the tree walk done (WalkTopDown).
absl::StatusOr<Mapping> MultisectionMap(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MultisectionOptions& options,
                                        uint64_t seed, int32_t threads = 1,
                                        const ProgressPhase& progress = {});

// One n-to-1 multisection: every leaf receives about its capacity share of
// the vertex weight, subtrees within the sum of their leaves' bounds
// (PartitionLoadBounds with `imbalance`). spread: also cap every level at a
// geometric share of the imbalance, (1 + imbalance)^(1 / height), instead of
// letting the top levels take all the slack. Leaves may end slightly above
// their bounds (METIS's tolerance): RepairLeafLoads fixes that.
absl::StatusOr<Mapping> MultisectionPartition(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const MultisectionOptions& options, uint64_t seed, double imbalance,
    bool spread, int32_t threads = 1, const ProgressPhase& progress = {});

// The multisection continued below a coarser mapping (the multilevel engine
// deepens its levels this way): vertex v starts at node start[v], and is split
// from there down to the leaves as MultisectionMap (imbalance < 0: exact
// sizes, by process count) or MultisectionPartition (imbalance >= 0: vertex
// weights, spread off) splits; nodes above the starts only pass their
// vertices down towards them. No start may lie below another start.
// Errors: a start out of range, one below another, in one-to-one mode more
// vertices at a start than its capacity; METIS failures.
absl::StatusOr<Mapping> MultisectionFrom(const topology::Tree& tree,
                                         const graphs::CommGraph& graph,
                                         const MultisectionOptions& options,
                                         uint64_t seed, double imbalance,
                                         std::span<const NodeId> start,
                                         int32_t threads = 1,
                                         const ProgressPhase& progress = {});

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_INITIAL_MULTISECTION_H_
