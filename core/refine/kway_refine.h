// Refinement of a k-way split of one tree node's processes over its children
// when the children are priced by a pair-cost matrix (heterogeneous clusters):
// minimises sum over arcs between parts of w * cost(part(u), part(v)) with
// every part's load within its capacity.
//
// Pairwise Fiduccia-Mattheyses: for each pair of parts (p, q) a pass moves the
// best-gain unlocked vertex between them (gains count edges to every part at
// their pair costs, so a vertex is drawn to the side its outside neighbours
// are cheap to), alternating so that loads stay within one vertex of their
// capacities, locks it, and rolls back to the best prefix whose loads fit.
// Negative-gain moves are allowed inside a pass, which escapes the local
// minima single moves stop in.
//
//   std::vector<double> cost = ...;   // k x k, cost[a * k + b], zero diagonal
//   KwayRefine(g, cost, capacity, /*rounds=*/4, &part);
#ifndef RANKMAP_CORE_REFINE_KWAY_REFINE_H_
#define RANKMAP_CORE_REFINE_KWAY_REFINE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/split/metis_split.h"

namespace rankmap::core {

// part[i] in [0, k), k = capacity.size(); cost has k * k entries. A vertex's
// load is its vertex_weight (1 when the split counts processes: unit_loads).
// At most `rounds` sweeps over all pairs; stops early when a sweep gains
// nothing. Returns the decrease of the objective (each edge counted once).
// Loads that fit their capacities before still fit after. Deterministic. Time
// O(rounds * k^2 * (n + m) log n) in the worst case; pairs without arcs
// between them are skipped.
double KwayRefine(const MetisGraph& g, std::span<const double> cost,
                  std::span<const double> capacity, bool unit_loads,
                  int32_t rounds, std::vector<int32_t>* part);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_KWAY_REFINE_H_
