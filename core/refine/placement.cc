#include "core/refine/placement.h"

#include <algorithm>

namespace rankmap::core {

using graphs::VertexId;

Placement::Placement(const topology::Tree& tree, const graphs::CommGraph& graph,
                     Mapping* mapping, const topology::Tree* message_tree)
    : tree_(tree),
      graph_(graph),
      mapping_(mapping),
      message_tree_(message_tree),
      dist_(tree) {
  if (message_tree != nullptr) message_dist_.emplace(*message_tree);
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
