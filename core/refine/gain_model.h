// GainModel: what the arcs of a graph cost between two blocks (leaves of a
// tree, or of a cut tree), the one place the refinement kernel
// (core/refine/refiner.h) prices its gains. Under J an arc of weight w (bytes)
// between blocks a and b costs w x Distance(a, b); under the time objective
// (core/objective/time_objective.h) it costs its bytes on the
// inverse-bandwidth tree plus its messages on the latency tree.
//
// Algorithms never read arc weights or distances themselves: they sum the
// Volume of arcs (Of(e), operator+=) towards each neighbouring block and ask
// Price(volume, a, b), so gains are exact changes of the objective and a new
// channel is one field of Volume and one term of Price.
//
//   const GainModel model(graph, tree);          // J
//   GainModel::Volume to_b;
//   for (ArcIndex e = ...) to_b += model.Of(e);
//   double c = model.Price(to_b, a, b);
#ifndef RANKMAP_CORE_REFINE_GAIN_MODEL_H_
#define RANKMAP_CORE_REFINE_GAIN_MODEL_H_

#include <optional>
#include <span>

#include "core/refine/leaf_distance.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

class GainModel {
 public:
  // The traffic of some arcs, summed.
  struct Volume {
    double bytes = 0.0;
    double messages = 0.0;

    Volume& operator+=(const Volume& o) {
      bytes += o.bytes;
      messages += o.messages;
      return *this;
    }
  };

  // J: bytes priced by `tree`'s distances. Keeps references to both.
  GainModel(const graphs::CommGraph& graph, const topology::Tree& tree)
      : weight_(graph.adjwgt()), bytes_(tree) {}
  // Time: bytes priced by `byte_tree` (seconds per byte), messages by
  // `message_tree` (seconds per message); both have the same leaves. Without
  // message counts in the graph, J on byte_tree. Keeps references to all.
  GainModel(const graphs::CommGraph& graph, const topology::Tree& byte_tree,
            const topology::Tree& message_tree)
      : weight_(graph.adjwgt()), bytes_(byte_tree) {
    if (graph.has_messages()) {
      messages_ = graph.adjmsg();
      message_distance_.emplace(message_tree);
    }
  }
  // Not copyable: the distances refer to the trees, the kernel to the model.
  GainModel(const GainModel&) = delete;
  GainModel& operator=(const GainModel&) = delete;

  Volume Of(graphs::ArcIndex e) const {
    return {weight_[e], messages_.empty() ? 0.0 : messages_[e]};
  }
  // The cost of `v` between blocks a and b (0 when a == b).
  double Price(const Volume& v, topology::LeafId a, topology::LeafId b) const {
    double c = v.bytes * bytes_(a, b);
    if (message_distance_) c += v.messages * (*message_distance_)(a, b);
    return c;
  }
  // The tree whose leaves are the blocks.
  const topology::Tree& tree() const { return bytes_.tree(); }
  // Gains below this, relative to the objective's scale around them, are
  // rounding noise rather than improvements.
  static constexpr double kNoise = 1e-12;

 private:
  std::span<const double> weight_;
  std::span<const double> messages_;  // empty: bytes only
  LeafDistance bytes_;
  std::optional<LeafDistance> message_distance_;
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_GAIN_MODEL_H_
