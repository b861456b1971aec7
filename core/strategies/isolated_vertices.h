// Processes that exchange nothing (degree 0 in the graph) cost nothing
// wherever they go, but they are not free for the engine: METIS cannot match
// them while coarsening, so a graph that is mostly such vertices (an edge list
// whose largest id leaves hundreds of thousands of them) stays near its full
// size on every level and METIS's work grows quadratically. Map therefore
// takes them out before any strategy runs and places them itself:
//
//   one-to-one  the other vertices (the connected part) are mapped onto the
//               whole tree by the strategy; the isolated ones take the slots
//               left free, in leaf order (capacities respected);
//   n-to-1      the isolated vertices are contracted into at most
//               kFillersPerLeaf "fillers" per usable leaf, each carrying the
//               vertex weight of its members; the connected part and the
//               fillers are partitioned together, so the balance counts every
//               vertex, and each isolated vertex goes where its filler went:
//               the leaf loads are the partition's, within the same bounds
//               (ValidatePartitionMapping with the same imbalance). Should the
//               partition of the smaller graph fail, the whole graph is
//               partitioned as before;
//   no edges    nothing to optimise and no strategy runs: packed in leaf order
//               (one-to-one), or spread by the n-to-1 load bounds, each vertex
//               to the leaf with the most room left.
//
// J, hop-bytes and every per-edge metric depend only on where the connected
// part goes, so they are those of the strategy's result. Same inputs, same
// mapping.
//
//   ASSIGN_OR_RETURN(Mapping m, MapAroundIsolated(
//       tree, graph, /*n_to_1=*/false, options.imbalance,
//       [&](const graphs::CommGraph& part) { return Strategy(tree, part); }));
#ifndef RANKMAP_CORE_STRATEGIES_ISOLATED_VERTICES_H_
#define RANKMAP_CORE_STRATEGIES_ISOLATED_VERTICES_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

inline constexpr int32_t kFillersPerLeaf = 4;

// The number of vertices of degree 0. O(n).
int64_t CountIsolatedVertices(const graphs::CommGraph& graph);

// Maps `graph` onto `tree` with its isolated vertices placed as above.
// `map_part` maps a graph without isolated vertices (one-to-one) or the
// connected part with its fillers (n-to-1; every vertex carries a weight)
// and must return a valid mapping of that graph; it also receives the whole
// graph when the n-to-1 result of the smaller one fails its balance check.
// `n_to_1`: graph has more vertices than the tree has slots. Errors: those
// of `map_part`. O(n + m) plus map_part's time; without edges O(n log
// leaves).
absl::StatusOr<Mapping> MapAroundIsolated(
    const topology::Tree& tree, const graphs::CommGraph& graph, bool n_to_1,
    double imbalance,
    absl::FunctionRef<absl::StatusOr<Mapping>(const graphs::CommGraph&)>
        map_part);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_STRATEGIES_ISOLATED_VERTICES_H_
