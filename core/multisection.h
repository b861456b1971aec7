// Top-down multisection: map a communication graph onto a tree by recursively
// splitting the graph over the children of each tree node with METIS, heaviest
// (topmost) links first.
//
// At a node holding the process set S, the children receive parts whose sizes
// are fixed in advance: in one-to-one mode (MultisectionMap) S is packed into
// the fewest children that hold it, shared in proportion to their capacities,
// so every child gets at most its capacity; in n-to-1 mode (PartitionMap) every
// child gets a share of S's vertex weight proportional to its capacity. METIS
// (k-way, with target part weights equal to those shares) proposes the split;
// METIS allows some imbalance, so a repair step then moves the vertices whose
// move loses the least cut until every part has exactly its size (one-to-one)
// or is within the bound (n-to-1). Children with capacity 0 (restricted leaf
// sets) get nothing. Where a node carries a child-pair cost matrix
// (heterogeneous networks), parts of equal size are permuted over the children
// to lower sum cut(i, j) * pair_cost(i, j). Nodes whose children are all leaves
// at equal cost are filled directly. Each split runs METIS recursive bisection
// and k-way (more attempts at the root, whose cut costs most) and keeps the
// smaller cut after repair. Finally a gain-driven local search (RefineMapping
// when options.refine, or the balance-aware vertex moves below for n-to-1)
// lowers J further.
//
// Edge weights become METIS integers by one documented rule
// (ScaleToMetisWeights): scale so the largest weight is 2^20 and the sum of all
// arc weights stays below 2^30, round, and keep every positive weight at least
// 1; relative magnitudes are preserved to ~1e-6 of the largest and no METIS sum
// can overflow. Zero-weight arcs are left out of the METIS graph.
//
// Determinism: METIS runs single-threaded with its seed derived from
// options.seed and the tree node, so the same inputs and seed give the same
// mapping on every machine.
//
//   MappingOptions o;  // o.seed, o.refine, o.imbalance
//   // n <= slots, one process per slot:
//   ASSIGN_OR_RETURN(Mapping m, MultisectionMap(tree, graph, o));
//   // n > slots, n-to-1 within the imbalance bound:
//   ASSIGN_OR_RETURN(Mapping p, PartitionMap(tree, mesh, o));
#ifndef RANKMAP_CORE_MULTISECTION_H_
#define RANKMAP_CORE_MULTISECTION_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// One-to-one multisection. Contract: graph.num_vertices() <=
// tree.Capacity(root); the result passes ValidateMapping. Time O((n + m) *
// height) plus the METIS calls (each near-linear in its subgraph). Errors: more
// processes than slots, a METIS failure (reported with its code).
absl::StatusOr<Mapping> MultisectionMap(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MappingOptions& options);

// n-to-1 mapping for partitioners: any number of vertices, each leaf l receives
// vertex weight at most PartitionLoadBounds(tree, graph, options.imbalance)[l].
// Contract: the result passes ValidatePartitionMapping with options.imbalance
// whenever that is achievable (errors otherwise: a single vertex heavier than
// a leaf's bound). Runs four multisections (two ways of spending the imbalance
// over the levels: all of it where needed, or (1 + imbalance)^(1 / height) per
// level; two METIS seeds each), each repaired and refined (greedy moves, then
// multilevel FM: FmRefinePartition), and keeps the lowest J. Time 4x
// MultisectionMap plus the refinements; with options.threads >= 2 the
// refinements overlap the next METIS runs (same result).
absl::StatusOr<Mapping> PartitionMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options);

// Gain-driven vertex moves for n-to-1 mappings: moves a vertex to a neighbour's
// leaf when that lowers J strictly and keeps the target leaf's load <=
// max_load[leaf]. At most `rounds` sweeps in vertex order (deterministic).
// Returns the J decrease. O(rounds * sum deg^2 * height). Malformed input (as
// for FmRefinePartition) leaves the mapping as it is.
double RefinePartition(const topology::Tree& tree,
                       const graphs::CommGraph& graph,
                       const std::vector<double>& max_load, int32_t rounds,
                       Mapping* mapping);

// Multilevel Fiduccia-Mattheyses refinement of an n-to-1 mapping, with the
// tree distances as the objective. The graph is coarsened by pairing vertices
// that share a leaf (so the mapping projects exactly); on each level, coarsest
// first, passes repeatedly move the unlocked vertex with the best gain
// (possibly negative) to a leaf holding one of its neighbours and with room
// under max_load, lock it, and roll back to the best prefix, which climbs out
// of the local minima RefinePartition stops in. At most `passes` passes per
// level; a level stops after a pass without gain. Returns the J decrease (>=
// 0); loads stay within max_load. Deterministic (ties: lower vertex, lower
// leaf). A mapping or bound vector of the wrong size, or a leaf id out of
// range, leaves the mapping as it is (returns 0).
double FmRefinePartition(const topology::Tree& tree,
                         const graphs::CommGraph& graph,
                         const std::vector<double>& max_load, int32_t passes,
                         Mapping* mapping);

// The integer weights METIS sees for `weights` (rule in the header comment).
// Exposed for tests. Output has the same length; zero stays zero.
std::vector<int32_t> ScaleToMetisWeights(const std::vector<double>& weights);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MULTISECTION_H_
