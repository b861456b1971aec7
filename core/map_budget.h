// The working memory of one Map call, estimated from the sizes of its inputs
// before the engine allocates, so that a graph or tree that only fits the
// readers' checks is refused with a message instead of exhausting memory.
//
//   RETURN_IF_ERROR(CheckMapMemory(tree, graph, options));
#ifndef RANKMAP_CORE_MAP_BUDGET_H_
#define RANKMAP_CORE_MAP_BUDGET_H_

#include <cstdint>

#include "absl/status/status.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Bytes the engine allocates beyond its inputs: per process 128 (level
// graphs, mappings, refinement state), per arc 64 (contracted and METIS
// copies of the graph), per leaf 64 (placement, loads, keys); the multilevel
// engine (Algorithm::kMultilevel, or options.portfolio_multilevel) per
// process 96 and per arc 48 more (its coarse levels and refiner); half as much
// again when options.threads >= 2 runs two strategies at once. Measured peaks
// stay below it (a 1M-process stencil with 6M arcs on 1M leaves: about 390 MB
// beyond the inputs against 576 MB estimated). Saturates.
int64_t EstimatedMapBytes(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const MappingOptions& options);
// The same from the graph's counts, before the graph exists (what a command
// hands the graph readers, graphs::ReadOptions::consumer_bytes).
int64_t EstimatedMapBytes(const topology::Tree& tree, int64_t vertices,
                          int64_t arcs, const MappingOptions& options);

// OK when EstimatedMapBytes fits base::MemoryBudget(options.max_memory_bytes);
// otherwise ResourceExhausted "map: N processes and M edges onto L leaves
// need about X, above the memory budget of Y".
absl::Status CheckMapMemory(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MAP_BUDGET_H_
