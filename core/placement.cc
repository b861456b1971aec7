#include "core/placement.h"

#include <algorithm>

namespace rankmap::core {

using graphs::VertexId;

namespace {

// Per-depth costs of a balanced tree with one cost per depth (empty when some
// node has pair costs or two nodes of one depth differ).
std::vector<double> DepthCosts(const topology::Tree& tree, size_t depths) {
  std::vector<double> depth_cost(depths, -1.0);
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    if (tree.has_pair_costs(v)) return {};
    double& c = depth_cost[tree.depth(v)];
    if (c < 0) c = tree.cost(v);
    if (c != tree.cost(v)) return {};
  }
  return depth_cost;
}

}  // namespace

Placement::Placement(const topology::Tree& tree, const graphs::CommGraph& graph,
                     Mapping* mapping, const topology::Tree* message_tree)
    : tree_(tree),
      graph_(graph),
      mapping_(mapping),
      message_tree_(message_tree) {
  const int32_t leaves = tree.num_leaves();
  const int64_t n = static_cast<int64_t>(mapping->size());
  load_.assign(leaves, 0);
  int64_t slots = 0;
  for (LeafId l = 0; l < leaves; ++l)
    slots += std::min<int64_t>(tree.capacity(l), n);
  if (slots > 2 * (n + leaves)) {
    spread_.resize(leaves);
    for (VertexId u = 0; u < n; ++u) {
      const LeafId l = (*mapping)[u];
      spread_[l].push_back(u);
      ++load_[l];
    }
  } else {
    slot_begin_.assign(leaves + 1, 0);
    for (LeafId l = 0; l < leaves; ++l) {
      slot_begin_[l + 1] =
          slot_begin_[l] + std::min<int64_t>(tree.capacity(l), n);
    }
    occupant_.assign(slot_begin_[leaves], -1);
    for (VertexId u = 0; u < n; ++u) {
      const LeafId l = (*mapping)[u];
      occupant_[slot_begin_[l] + load_[l]++] = u;
    }
  }
  // Fast distances when the tree is balanced with one cost per depth.
  const std::vector<int32_t> arities = tree.Arities();
  if (arities.empty()) return;
  const std::vector<double> depth_cost = DepthCosts(tree, arities.size());
  if (depth_cost.empty()) return;
  std::vector<double> message_depth_cost;
  if (message_tree != nullptr) {
    message_depth_cost = DepthCosts(*message_tree, arities.size());
    if (message_depth_cost.empty()) return;
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
    for (int32_t b = shift; b < shift + width[d]; ++b) {
      bit_cost_[b] = depth_cost[d];
      if (message_tree != nullptr) message_bit_cost_[b] = message_depth_cost[d];
    }
  }
  key_.assign(leaves, 0);
  for (LeafId l = 0; l < leaves; ++l) {
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

double Placement::SwapGain(VertexId u, VertexId v) const {
  const LeafId lu = leaf(u), lv = leaf(v);
  if (lu == lv) return 0.0;
  auto nu = graph_.neighbors(u);
  auto nv = graph_.neighbors(v);
  const double gain =
      AddSideGain(0.0, u, lu, lv, v, [&](size_t k) { return leaf(nu[k]); });
  return AddSideGain(gain, v, lv, lu, u, [&](size_t k) { return leaf(nv[k]); });
}

double Placement::MoveGain(VertexId u, LeafId l) const {
  const LeafId lu = leaf(u);
  if (lu == l) return 0.0;
  auto nu = graph_.neighbors(u);
  return AddSideGain(0.0, u, lu, l, /*skip=*/-1,
                     [&](size_t k) { return leaf(nu[k]); });
}

void Placement::NeighbourLeaves(VertexId u, std::vector<LeafId>* leaves) const {
  leaves->clear();
  for (VertexId x : graph_.neighbors(u)) leaves->push_back(leaf(x));
}

double Placement::SwapGain(VertexId u, VertexId v,
                           std::span<const LeafId> u_neighbour_leaves) const {
  const LeafId lu = leaf(u), lv = leaf(v);
  if (lu == lv) return 0.0;
  auto nv = graph_.neighbors(v);
  const double gain = AddSideGain(
      0.0, u, lu, lv, v, [&](size_t k) { return u_neighbour_leaves[k]; });
  return AddSideGain(gain, v, lv, lu, u, [&](size_t k) { return leaf(nv[k]); });
}

double Placement::MoveGain(VertexId u, LeafId l,
                           std::span<const LeafId> u_neighbour_leaves) const {
  const LeafId lu = leaf(u);
  if (lu == l) return 0.0;
  return AddSideGain(0.0, u, lu, l, /*skip=*/-1,
                     [&](size_t k) { return u_neighbour_leaves[k]; });
}

std::span<VertexId> Placement::MutableOccupants(LeafId l) {
  if (!spread_.empty()) return spread_[l];
  return {occupant_.data() + slot_begin_[l], static_cast<size_t>(load_[l])};
}

void Placement::Swap(VertexId u, VertexId v) {
  const LeafId lu = leaf(u), lv = leaf(v);
  if (lu == lv) return;
  std::span<VertexId> on_u = MutableOccupants(lu), on_v = MutableOccupants(lv);
  std::replace(on_u.begin(), on_u.end(), u, v);
  std::replace(on_v.begin(), on_v.end(), v, u);
  (*mapping_)[u] = lv;
  (*mapping_)[v] = lu;
}

void Placement::Move(VertexId u, LeafId l) {
  const LeafId lu = leaf(u);
  if (lu == l) return;
  std::span<VertexId> from = MutableOccupants(lu);
  *std::find(from.begin(), from.end(), u) =
      from.back();  // keep the occupied slots contiguous
  from.back() = -1;
  --load_[lu];
  if (!spread_.empty()) {
    spread_[lu].pop_back();
    spread_[l].push_back(u);
  } else {
    occupant_[slot_begin_[l] + load_[l]] = u;
  }
  ++load_[l];
  (*mapping_)[u] = l;
}

LeafLoads::LeafLoads(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const Mapping& mapping, const std::vector<double>& bound)
    : load_(tree.num_leaves(), 0.0), bound_(bound) {
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    load_[mapping[v]] += graph.vertex_weight(v);
}

bool PartitionInputsFit(const topology::Tree& tree,
                        const graphs::CommGraph& graph,
                        const std::vector<double>& bound,
                        const Mapping& mapping) {
  if (mapping.size() != static_cast<size_t>(graph.num_vertices()) ||
      bound.size() != static_cast<size_t>(tree.num_leaves())) {
    return false;
  }
  for (LeafId l : mapping) {
    if (l < 0 || l >= tree.num_leaves()) return false;
  }
  return true;
}

}  // namespace rankmap::core
