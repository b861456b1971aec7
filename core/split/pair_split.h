// Splitting a tree node's processes over children priced by a child-pair cost
// matrix (heterogeneous clusters with a bandwidth per cluster pair).
//
// METIS's k-way split decides which part lands on which child by part size
// alone, so with children of different capacities two parts that talk much
// can end on an expensive pair. PairCostSplit bisects recursively along a
// binary hierarchy of the children built from the pair costs (agglomerative:
// the two groups with the lowest size-weighted mean pair cost merged first),
// so the top bisection separates the groups most expensive to each other; at
// every bisection it keeps the cheapest of METIS in both target orders and
// greedy growth of either side from the processes whose edges leaving the
// piece want it (what METIS cannot see), all repaired to the exact sizes or
// bounds. CrossCost prices a split; AssignEqualParts permutes parts over
// children of equal capacity.
//
//   std::vector<double> cost = ...;   // k x k, cost[a * k + b], zero diagonal
//   RETURN_IF_ERROR(PairCostSplit(sub, targets, cost, attempts, seed, &part));
#ifndef RANKMAP_CORE_SPLIT_PAIR_SPLIT_H_
#define RANKMAP_CORE_SPLIT_PAIR_SPLIT_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "core/split/metis_split.h"
#include "core/split/part_split.h"
#include "graphs/comm_graph.h"

namespace rankmap::core {

// sum over arcs between parts of w * cost[part(u) * k + part(v)] (each edge
// counted twice). O(n + m).
double CrossCost(const MetisGraph& g, const std::vector<int32_t>& part,
                 std::span<const double> cost);

// The METIS attempts for a piece of `size` processes cut into `parts` parts
// (the caller's attempt policy).
using AttemptsFn =
    absl::FunctionRef<MetisAttempts(int32_t size, int32_t parts)>;

// Splits the vertices of sub into t.num_parts() parts (see the header); part
// receives a part per vertex, every part within t's size or bound (as
// SplitParts). cost is the k x k pair-cost matrix of the parts. Errors:
// METIS's. O(k^3 + (k - 1) * (METIS bisections + (n + m) log n)).
absl::Status PairCostSplit(const graphs::CommGraph& sub, const PartTargets& t,
                           std::span<const double> cost, AttemptsFn attempts,
                           uint64_t seed, std::vector<int32_t>* part);

// Permutes parts whose children have equal capacity (and, one-to-one, equal
// sizes) to lower CrossCost: pairwise exchanges until none helps (at most 16
// rounds). sigma[p] is the child part p goes to (identity on entry is fine).
void AssignEqualParts(const MetisGraph& g, const std::vector<int32_t>& part,
                      const PartTargets& t,
                      std::span<const int64_t> child_capacity,
                      std::span<const double> cost,
                      std::vector<int32_t>* sigma);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_SPLIT_PAIR_SPLIT_H_
