// The front door of the engine: map the processes of a CommGraph onto the
// leaves of a Tree.
//
//   MappingOptions opts = MappingOptions::Preset("default").value();
//   opts.seed = 7;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, opts));
//   ASSIGN_OR_RETURN(CostReport r, Cost(tree, graph, m));
//
// Contract: with at most as many processes as slots the result is a valid
// one-to-one mapping (ValidateMapping OK: one entry per process, capacities
// respected); with more processes than slots Map partitions and maps in one
// step (n-to-1) and the result passes ValidatePartitionMapping with
// options.imbalance. The same inputs and options give the same mapping on any
// machine (no wall-clock cut-offs change answers). Errors: invalid options, a
// tree without usable leaves, a Scotch result that breaks the balance bound;
// volumes whose J could overflow a double (CheckCostRange); inputs whose
// estimated working memory exceeds options.max_memory_bytes (ResourceExhausted,
// core/map_budget.h). Map never throws: std::bad_alloc inside the engine
// becomes ResourceExhausted, any other exception Internal. At most as many
// worker threads run as the CPUs the process may use (options.threads above
// that only cost memory: each worker keeps scratch of the graph's size).
//
// Map is where the engine decides, once, what runs: one-to-one or n-to-1, the
// strategy of options.algorithm (core/model/options.h: Algorithms()), and the
// refinement of its result (options.refine). n-to-1 runs Scotch for kScotch,
// the multilevel engine (core/strategies/multilevel.h) for kMultilevel and for
// the default algorithm on large graphs, and the partitioning multisection
// (core/strategies/partition_map.h) otherwise; EffectiveAlgorithm says which,
// so callers can report it.
#ifndef RANKMAP_CORE_MAPPER_H_
#define RANKMAP_CORE_MAPPER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/model/slot_classes.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Maps graph vertices (processes) to tree leaves. See the contract at the top
// of this file.
absl::StatusOr<Mapping> Map(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options);

// Map with slot classes (core/model/slot_classes.h): every process with a class
// ends on a leaf of its class. The strategy's mapping is repaired to the
// classes (each misplaced process to the nearest free leaf of its class) and
// refined with class-preserving swaps and moves. Errors: Map's, classes that
// do not fit (ValidateSlotClasses), more processes than slots (classes are for
// one-to-one mappings).
absl::StatusOr<Mapping> Map(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options,
                            const SlotClasses& classes);

// n-to-1 graphs of at least this many processes are partitioned by the
// multilevel engine under the default algorithm (kPortfolio without
// portfolio_multilevel). Measured on shuffled 2D/3D grids onto 4:2:4 to 4:8:6
// trees and on bench/engine_bench's n-to-1 rows: from 4,096 processes on, the
// partitioning multisection's attempts cost 1.2-2.3x Scotch's time (3-6x at
// 262,144 cells) for J 1-4% below the multilevel engine's, which takes 0.2-0.4x
// Scotch's time there (about 1x at 262,144); below, the attempts take well
// under a second and their J is worth it (9% below at 1,024).
inline constexpr int32_t kMultilevelNTo1From = 4096;

// The algorithm Map runs for these inputs: options.algorithm, except on n-to-1
// inputs (more processes than slots): kScotch and kMultilevel run as asked;
// the default kPortfolio runs the multilevel engine (kMultilevel) from
// kMultilevelNTo1From processes on; every other case runs the partitioning
// multisection (kMultisection: its attempts, core/strategies/partition_map.h;
// with portfolio_multilevel, the strong preset, the multilevel engine competes
// with it and the lower J is kept).
Algorithm EffectiveAlgorithm(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const MappingOptions& options);

namespace internal {

// The worker threads Map runs for options.threads = requested: requested, at
// most base::UsableCpus() (non-positive values are left to ValidateOptions).
int32_t WorkerThreads(int32_t requested);

// The engine's own n-to-1 partition, before Map weighs it against the status
// quo and Scotch's (core/strategies/partition_choice.h): what the benchmarks
// compare with Scotch. Requires n-to-1 inputs (IsNTo1) whose every process
// has an edge (Map places the others first); options as Map takes them.
// Errors: ValidateOptions', the strategy's.
absl::StatusOr<Mapping> MachineAwarePartition(const topology::Tree& tree,
                                              const graphs::CommGraph& graph,
                                              const MappingOptions& options);

}  // namespace internal

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MAPPER_H_
