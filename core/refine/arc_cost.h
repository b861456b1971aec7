// ArcCost: what the arcs of a level graph cost between two blocks, the one
// place the multilevel engine's gains are priced. J prices an arc of weight w
// (bytes) between blocks a and b at w x Distance(a, b).
//
// Algorithms never read arc weights or distances themselves: they sum the
// Volume of arcs (Of(e), operator+=) towards each neighbouring block and ask
// Price(volume, a, b). A second weight channel (message counts priced by a
// per-node latency beside bytes priced by a per-node inverse bandwidth) is a
// field of Volume, a second distance in ArcCost and one more term in Price;
// the gain computations stay as they are.
//
//   const LeafDistance dist(cut.tree());
//   const ArcCost cost(graph, dist);
//   ArcCost::Volume to_b;
//   for (ArcIndex e = ...) to_b += cost.Of(e);
//   double c = cost.Price(to_b, a, b);
#ifndef RANKMAP_CORE_REFINE_ARC_COST_H_
#define RANKMAP_CORE_REFINE_ARC_COST_H_

#include <span>

#include "core/refine/leaf_distance.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core::multilevel {

class ArcCost {
 public:
  // The traffic of some arcs, summed.
  struct Volume {
    double bytes = 0.0;

    Volume& operator+=(const Volume& o) {
      bytes += o.bytes;
      return *this;
    }
    bool empty() const { return bytes == 0.0; }
  };

  // Keeps references to both.
  ArcCost(const graphs::CommGraph& graph, const LeafDistance& distance)
      : weight_(graph.adjwgt()), distance_(distance) {}

  Volume Of(graphs::ArcIndex e) const { return {weight_[e]}; }
  // The cost of `v` between blocks a and b (0 when a == b).
  double Price(const Volume& v, topology::LeafId a, topology::LeafId b) const {
    return v.bytes * distance_(a, b);
  }

 private:
  std::span<const double> weight_;
  const LeafDistance& distance_;
};

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_REFINE_ARC_COST_H_
