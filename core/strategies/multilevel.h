// The native multilevel mapping engine (Algorithm::kMultilevel): the graph's
// multilevel hierarchy is built once (core/coarsen/hierarchy.h), the
// coarsest graph is mapped onto the top of the tree, and every finer level
// refines the mapping itself with gains in J under the bound of every block
// (core/refine/refiner.h), as integrated mapping does (Faraj, van der
// Grinten, Meyerhenke, Traeff, Schulz, SEA 2020), instead of cutting the full
// graph once per tree node.
//
// Levels meet the tree where their vertices fit: a graph level maps onto the
// deepest cut of the tree (core/strategies/cut_tree.h) whose smallest block
// holds at least kFit of its heaviest vertex, so coarse levels decide the top
// of the tree and fine ones the bottom. Where a level cuts deeper than the one
// above, each block's vertices are split over its descendants by the
// multisection continued from that block (core/initial/multisection.h,
// MultisectionFrom), on the coarse graph of that level; the coarsest level is
// split from the root the same way, once. Graphs of up to 2^19 vertices are
// not coarsened (METIS splits the whole graph better than its contraction:
// see kSplitWhole), so on them the engine is one multisection whose every
// cut is refined in J. Bounds: n-to-1, each leaf's PartitionLoadBounds;
// one-to-one, the capacities (packed into the fewest subtrees as the
// multisection packs); coarse levels relax them by their heaviest vertex.
// One-to-one leaves whose siblings are all single-slot leaves are equidistant,
// so their parent is the finest block; its processes take its leaves in order,
// and the result is then refined by single-process swaps
// (core/refine/refine.h).
//
// Deterministic for a seed, whatever options.threads says (the multisection
// splits subtrees on several threads where METIS can, core/split/metis_rand.h).
// Progress phases: "multilevel: coarsening", "multilevel: initial",
// "multilevel: refinement".
//
//   ASSIGN_OR_RETURN(Mapping m, MultilevelMap(tree, graph, options));
#ifndef RANKMAP_CORE_STRATEGIES_MULTILEVEL_H_
#define RANKMAP_CORE_STRATEGIES_MULTILEVEL_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// One-to-one: n <= the tree's capacity (Map checks). The result passes
// ValidateMapping. Errors: METIS failures.
absl::StatusOr<Mapping> MultilevelMap(const topology::Tree& tree,
                                      const graphs::CommGraph& graph,
                                      const MappingOptions& options);

// n-to-1: every leaf within PartitionLoadBounds(tree, graph,
// options.imbalance) whenever that is achievable; the result passes
// ValidatePartitionMapping (else that check's error).
absl::StatusOr<Mapping> MultilevelPartition(const topology::Tree& tree,
                                            const graphs::CommGraph& graph,
                                            const MappingOptions& options);

namespace internal {

// The engine (without the final swap refinement) with graphs above
// split_whole vertices coarsened until a level has at most that many; the
// front doors use 2^19. Tests reach the coarse levels on small graphs with
// it.
absl::StatusOr<Mapping> RunMultilevel(const topology::Tree& tree,
                                      const graphs::CommGraph& graph,
                                      const MappingOptions& options,
                                      bool one_to_one, int64_t split_whole);

}  // namespace internal

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_STRATEGIES_MULTILEVEL_H_
