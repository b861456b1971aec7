// Baselines: simple placements to compare the engine against, side by side.
//
//   // Process i on the i-th slot; dealt over the root's subtrees; a shuffle
//   // of the slots; MPIPP's swap search from random starts.
//   Mapping packed = IdentityMap(tree, n);
//   Mapping rr = RoundRobinMap(tree, n);
//   Mapping rnd = RandomMap(tree, n, /*seed=*/7);
//   Mapping mp = MpippMap(tree, graph, MpippOptions{}, /*seed=*/7);
//
// All require n <= tree.Capacity(tree.root()) (the caller checks) and return
// valid mappings. All are deterministic given their inputs and seed.
#ifndef RANKMAP_CORE_BASELINES_BASELINES_H_
#define RANKMAP_CORE_BASELINES_BASELINES_H_

#include <cstdint>
#include <vector>

#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Process i on Slots(tree)[i] (packed). O(n + leaves).
Mapping IdentityMap(const topology::Tree& tree, int32_t n);
// Processes dealt over the root's subtrees in turn, each subtree filled in its
// own slot order. O(n + leaves).
Mapping RoundRobinMap(const topology::Tree& tree, int32_t n);
// The first n slots of a seeded shuffle (std::mt19937_64) of Slots(tree) when
// the tree has at most max(2^22, 2 (leaves + n)) slots; on trees with more
// (large oversubscription) n distinct slots drawn uniformly with the same
// generator instead, without listing them. O(n + leaves) beyond the listed
// slots.
Mapping RandomMap(const topology::Tree& tree, int32_t n, uint64_t seed);
// MPIPP-style search: options.starts random starts (seeds seed, seed + 1,
// ...), each improved by at most options.rounds rounds of pairwise swaps
// (every pair when n <= 512, else 64 seeded random partners per process per
// round) and moves to free leaves (all of them on trees of at most 512 leaves,
// else 64 sampled), taking the best gain per process. Returns the lowest-J
// result (first on ties). O(starts * rounds * n * partners * degree * depth).
Mapping MpippMap(const topology::Tree& tree, const graphs::CommGraph& graph,
                 const MpippOptions& options, uint64_t seed);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_BASELINES_BASELINES_H_
