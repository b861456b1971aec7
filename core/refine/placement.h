// A mapping under change: what the local searches of the engine ask of it.
//
//   * LeafCost: the cost of a process if it sat on a given leaf (its edges to
//     where its neighbours are now); the loop every gain is built from.
//   * Placement (one-to-one): occupancy of every leaf's slots and exact gains
//     of swaps and moves.
//   * LeafLoads (n-to-1): vertex weight per leaf against its bound, with the
//     one bound test (WithinBound) every n-to-1 step uses.
//
//   Placement place(tree, graph, &mapping);
//   if (place.SwapGain(u, v) > 0) place.Swap(u, v);   // J drops by the gain
//   LeafLoads loads(tree, graph, mapping, bounds);
//   if (loads.Fits(l, graph.vertex_weight(v))) loads.Move(x, from, l);
#ifndef RANKMAP_CORE_REFINE_PLACEMENT_H_
#define RANKMAP_CORE_REFINE_PLACEMENT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/model/mapping.h"
#include "core/refine/leaf_distance.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// sum over v's edges (v, u) of w(v, u) * Distance(leaf, mapping[u]): v's cost
// if it sat on `leaf` while every neighbour stays where it is. O(deg v *
// depth).
inline double LeafCost(const topology::Tree& tree,
                       const graphs::CommGraph& graph, const Mapping& mapping,
                       graphs::VertexId v, LeafId leaf) {
  auto nbrs = graph.neighbors(v);
  auto wgts = graph.weights(v);
  double c = 0.0;
  for (size_t e = 0; e < nbrs.size(); ++e)
    c += wgts[e] * tree.Distance(leaf, mapping[nbrs[e]]);
  return c;
}

// A one-to-one mapping with leaf occupancy, answering "what does J gain if ..."
// questions exactly. Requires a valid mapping (ValidateMapping OK) for the
// lifetime of the object; the mapping is updated in place by Swap/Move.
//
// Time objective (core/objective/time_objective.h): with a `message_tree`, tree
// prices the bytes (the inverse-bandwidth tree) and message_tree the messages
// (latency), and every gain is a gain in T = J(tree) + sum of messages x
// Distance(message_tree); the graph must then carry message counts.
class Placement {
 public:
  Placement(const topology::Tree& tree, const graphs::CommGraph& graph,
            Mapping* mapping, const topology::Tree* message_tree = nullptr);

  // J(before) - J(after) for exchanging the leaves of u and v. O((deg u + deg
  // v) * depth).
  double SwapGain(graphs::VertexId u, graphs::VertexId v) const;
  // J(before) - J(after) for moving u to leaf l (which must have free
  // capacity).
  double MoveGain(graphs::VertexId u, LeafId l) const;
  // The same gains from u's neighbours' leaves gathered once by
  // NeighbourLeaves(u) (valid until something moves): a local search that
  // weighs many candidates for u reads each neighbour's leaf once. Equal, bit
  // for bit, to the gains above.
  void NeighbourLeaves(graphs::VertexId u, std::vector<LeafId>* leaves) const;
  double SwapGain(graphs::VertexId u, graphs::VertexId v,
                  std::span<const LeafId> u_neighbour_leaves) const;
  double MoveGain(graphs::VertexId u, LeafId l,
                  std::span<const LeafId> u_neighbour_leaves) const;
  void Swap(graphs::VertexId u, graphs::VertexId v);
  void Move(graphs::VertexId u, LeafId l);

  LeafId leaf(graphs::VertexId u) const { return (*mapping_)[u]; }
  bool HasRoom(LeafId l) const { return load_[l] < tree_.capacity(l); }
  // Processes on leaf l (at most capacity(l) of them).
  std::span<const graphs::VertexId> Occupants(LeafId l) const {
    if (!spread_.empty()) return spread_[l];
    return {occupant_.data() + slot_begin_[l], static_cast<size_t>(load_[l])};
  }

 private:
  std::span<graphs::VertexId> MutableOccupants(LeafId l);
  // gain + sum over u's edges (u, x), x != skip, of w * (Dist(from, leaf of x)
  // - Dist(to, leaf of x)), in edge order; leaf_of(k): the leaf of u's k-th
  // neighbour.
  template <typename LeafOf>
  double AddSideGain(double gain, graphs::VertexId u, LeafId from, LeafId to,
                     graphs::VertexId skip, LeafOf leaf_of) const {
    auto nu = graph_.neighbors(u);
    auto wu = graph_.weights(u);
    if (message_tree_ != nullptr) {
      auto mu = graph_.messages(u);
      for (size_t k = 0; k < nu.size(); ++k) {
        if (nu[k] == skip) continue;
        const LeafId lx = leaf_of(k);
        gain += wu[k] * (Dist(from, lx) - Dist(to, lx)) +
                mu[k] * (MessageDist(from, lx) - MessageDist(to, lx));
      }
      return gain;
    }
    for (size_t k = 0; k < nu.size(); ++k) {
      if (nu[k] == skip) continue;
      const LeafId lx = leaf_of(k);
      gain += wu[k] * (Dist(from, lx) - Dist(to, lx));
    }
    return gain;
  }

  // O(1) distances where the tree allows (core/refine/leaf_distance.h).
  double Dist(LeafId a, LeafId b) const { return dist_(a, b); }
  double MessageDist(LeafId a, LeafId b) const {
    return (*message_dist_)(a, b);
  }

  const topology::Tree& tree_;
  const graphs::CommGraph& graph_;
  Mapping* mapping_;
  const topology::Tree* message_tree_;
  std::vector<int64_t> slot_begin_;         // per leaf, into occupant_
  std::vector<int32_t> load_;               // per leaf
  std::vector<graphs::VertexId> occupant_;  // slots, leaf-major
  // Per-leaf occupant lists instead of slot_begin_/occupant_ when the slots
  // a leaf could use, min(capacity, n) each, add up to far more than the
  // processes (large oversubscription).
  std::vector<std::vector<graphs::VertexId>> spread_;
  LeafDistance dist_;
  std::optional<LeafDistance> message_dist_;  // with a message_tree
};

// Vertex weight per leaf of an n-to-1 mapping, against per-leaf bounds
// (PartitionLoadBounds or any other). O(n + leaves) to build.
class LeafLoads {
 public:
  LeafLoads(const topology::Tree& tree, const graphs::CommGraph& graph,
            const Mapping& mapping, const std::vector<double>& bound);

  double load(LeafId l) const { return load_[l]; }
  double bound(LeafId l) const { return bound_[l]; }
  // True when leaf l can take x more weight.
  bool Fits(LeafId l, double x) const {
    return WithinBound(load_[l] + x, bound_[l]);
  }
  bool Over(LeafId l) const { return !WithinBound(load_[l], bound_[l]); }
  void Move(double x, LeafId from, LeafId to) {
    load_[from] -= x;
    load_[to] += x;
  }

 private:
  std::vector<double> load_;
  const std::vector<double>& bound_;
};

// Sizes and leaf ids an n-to-1 refinement can index without checks: one
// in-range leaf per vertex, one bound per leaf.
bool PartitionInputsFit(const topology::Tree& tree,
                        const graphs::CommGraph& graph,
                        const std::vector<double>& bound,
                        const Mapping& mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_PLACEMENT_H_
