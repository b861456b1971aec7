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
// refinement of its result (options.refine). n-to-1 runs Scotch for kScotch and
// the partitioning multisection (core/strategies/partition_map.h) for every
// other algorithm; EffectiveAlgorithm says which, so callers can report it.
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

// The algorithm Map runs for these inputs: options.algorithm, except on n-to-1
// inputs (more processes than slots), where every algorithm but kScotch runs
// the partitioning multisection (kMultisection).
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
