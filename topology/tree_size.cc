#include "topology/tree_size.h"

#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"

namespace rankmap::topology {

int64_t EstimatedTreeBytes(int64_t nodes) {
  return base::SaturatingMulAdd(nodes, kTreeBytesPerNode);
}

int64_t HostNameBytes(int64_t copies, int64_t name_length) {
  if (name_length <= kInlineNameLength) return 0;
  return base::SaturatingMulAdd(copies, name_length + 1);
}

absl::Status CheckTreeSize(std::string_view what, int64_t nodes, int64_t leaves,
                           int64_t budget, int64_t name_bytes) {
  if (nodes >= std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), " of ", leaves, " leaves has ", nodes,
                     " nodes, more than 32-bit node ids can number"));
  }
  return base::CheckMemory(
      absl::StrCat(std::string(what), " of ", leaves, " leaves (", nodes,
                   " nodes)"),
      base::SaturatingMulAdd(1, EstimatedTreeBytes(nodes), name_bytes), budget);
}

}  // namespace rankmap::topology
