#include "core/map_budget.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"

namespace rankmap::core {

int64_t EstimatedMapBytes(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const MappingOptions& options) {
  return EstimatedMapBytes(tree, graph.num_vertices(), graph.num_arcs(),
                           options);
}

int64_t EstimatedMapBytes(const topology::Tree& tree, int64_t vertices,
                          int64_t arcs, const MappingOptions& options) {
  using base::SaturatingMulAdd;
  int64_t bytes = SaturatingMulAdd(vertices, 128);
  bytes = SaturatingMulAdd(arcs, 64, bytes);
  bytes = SaturatingMulAdd(tree.num_leaves(), 64, bytes);
  if (options.algorithm == Algorithm::kMultilevel ||
      options.portfolio_multilevel) {
    // The graph's coarse levels (together at most four times its vertices:
    // each keeps at most 4/5 of the level below; arcs shrink alike on the
    // bench's graphs) and the refiner's arrays.
    bytes = SaturatingMulAdd(vertices, 96, bytes);
    bytes = SaturatingMulAdd(arcs, 48, bytes);
  }
  if (options.threads >= 2) bytes = SaturatingMulAdd(bytes / 2, 3);
  return bytes;
}

absl::Status CheckMapMemory(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options) {
  return base::CheckMemory(
      absl::StrCat("map: ", graph.num_vertices(), " processes and ",
                   graph.num_edges(), " edges onto ", tree.num_leaves(),
                   " leaves"),
      EstimatedMapBytes(tree, graph, options),
      base::MemoryBudget(options.max_memory_bytes));
}

}  // namespace rankmap::core
