// The memory a topology::Tree takes, for the readers to check before they
// build one: a 20-byte tleaf line or a one-line network spec can describe
// billions of leaves.
//
//   RETURN_IF_ERROR(CheckTreeSize("spec.tgt:1:1: tleaf", nodes, leaves,
//                                 base::MemoryBudget(options.max_memory_bytes)));
#ifndef RANKMAP_TOPOLOGY_TREE_SIZE_H_
#define RANKMAP_TOPOLOGY_TREE_SIZE_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"

namespace rankmap::topology {

// Peak bytes per node while a tree is built (TreeBuilder's per-node kind,
// host and cost, then the Tree's arrays; measured 180 - 200 bytes) with room
// for the engine's per-leaf arrays.
inline constexpr int64_t kTreeBytesPerNode = 256;

// Saturating kTreeBytesPerNode x nodes.
int64_t EstimatedTreeBytes(int64_t nodes);

// OK when a tree of `nodes` nodes (`leaves` of them leaves) has 32-bit ids and
// fits `budget`. Errors: InvalidArgument for 2^31 - 1 nodes or more;
// ResourceExhausted "<what> of L leaves (N nodes) needs about X GiB, above
// the memory budget of Y GiB".
absl::Status CheckTreeSize(std::string_view what, int64_t nodes, int64_t leaves,
                           int64_t budget);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_TREE_SIZE_H_
