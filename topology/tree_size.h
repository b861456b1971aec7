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

// Names this long live inside their std::string (counted in the node bytes).
inline constexpr int64_t kInlineNameLength = 15;

// Bytes of host names while a tree is built: every leaf and every reader's
// node record holds its own copy of its host's name, so a million-leaf host
// with a 250-character name costs 250 MB on top of the nodes. Saturating
// `copies` x (name_length + 1); 0 up to kInlineNameLength characters.
int64_t HostNameBytes(int64_t copies, int64_t name_length);

// OK when a tree of `nodes` nodes (`leaves` of them leaves) has 32-bit ids and
// fits `budget` with `name_bytes` more (HostNameBytes). Errors: InvalidArgument
// for 2^31 - 1 nodes or more; ResourceExhausted "<what> of L leaves (N nodes)
// needs about X GiB, above the memory budget of Y GiB".
absl::Status CheckTreeSize(std::string_view what, int64_t nodes, int64_t leaves,
                           int64_t budget, int64_t name_bytes = 0);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_TREE_SIZE_H_
