#include "core/map_budget.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"

namespace rankmap::core {

int64_t EstimatedMapBytes(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const MappingOptions& options) {
  using base::SaturatingMulAdd;
  int64_t bytes = SaturatingMulAdd(graph.num_vertices(), 128);
  bytes = SaturatingMulAdd(graph.num_arcs(), 64, bytes);
  bytes = SaturatingMulAdd(tree.num_leaves(), 64, bytes);
  if (options.algorithm == Algorithm::kMultilevel) {
    // The graph's coarse levels (together at most four times its vertices:
    // each keeps at most 4/5 of the level below; arcs shrink alike on the
    // bench's graphs) and the refiner's arrays.
    bytes = SaturatingMulAdd(graph.num_vertices(), 96, bytes);
    bytes = SaturatingMulAdd(graph.num_arcs(), 48, bytes);
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
