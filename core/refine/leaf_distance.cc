#include "core/refine/leaf_distance.h"

namespace rankmap::core {

LeafDistance::LeafDistance(const topology::Tree& tree) : tree_(tree) {
  const std::vector<int32_t> arities = tree.Arities();
  if (arities.empty()) return;
  std::vector<double> depth_cost(arities.size(), -1.0);
  for (topology::NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    if (tree.has_pair_costs(v)) return;
    double& c = depth_cost[tree.depth(v)];
    if (c < 0) c = tree.cost(v);
    if (c != tree.cost(v)) return;
  }
  std::vector<int32_t> width(arities.size());
  int32_t bits = 0;
  for (size_t d = 0; d < arities.size(); ++d) {
    width[d] = 0;
    while ((int64_t{1} << width[d]) < arities[d]) ++width[d];
    bits += width[d];
  }
  if (bits > 63) return;
  // Digit of depth d occupies bits [shift_d, shift_d + width_d), top depth
  // highest.
  int32_t shift = bits;
  for (size_t d = 0; d < arities.size(); ++d) {
    shift -= width[d];
    for (int32_t b = shift; b < shift + width[d]; ++b)
      bit_cost_[b] = depth_cost[d];
  }
  key_.assign(tree.num_leaves(), 0);
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    int64_t rest = l;
    uint64_t key = 0;
    int32_t sh = 0;
    for (size_t d = arities.size(); d-- > 0;) {
      key |= static_cast<uint64_t>(rest % arities[d]) << sh;
      rest /= arities[d];
      sh += width[d];
    }
    key_[l] = key;
  }
}

}  // namespace rankmap::core
