#include "graphs/read_options.h"

#include <limits>

#include "base/memory_budget.h"

namespace rankmap::graphs {

int64_t EstimatedGraphBytes(int64_t num_vertices, int64_t num_arcs) {
  // CSR: 8 (xadj) + 8 (vwgt) per vertex, 12 per arc. Builder: 8 per arc (16 per
  // edge), plus its counting-sort arrays (about 24 per vertex, 8 per arc).
  // Saturates instead of wrapping.
  const double bytes = 48.0 * (static_cast<double>(num_vertices) + 1) +
                       32.0 * static_cast<double>(num_arcs);
  return bytes >= 9.0e18 ? std::numeric_limits<int64_t>::max()
                         : static_cast<int64_t>(bytes);
}

int64_t MemoryBudget(const ReadOptions& options) {
  return base::MemoryBudget(options.max_memory_bytes);
}

}  // namespace rankmap::graphs
