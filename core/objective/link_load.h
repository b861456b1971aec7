// Link load: the predicted time of one iteration of a graph's traffic on a
// tree with links (topology::Tree::has_links), where J only says how far its
// bytes travel. This is the one time the engine decides by (the choice
// between candidates, the present order kept or replaced) and the one `map`,
// `compare` and `advise` print, so it follows what a simulation of the same
// traffic does (sim/replay on the platform topology/simgrid_platform writes
// from the tree) as closely as a cheap model can:
//
// Messages. A CommGraph weight is the bytes of both directions. Without
// message counts (or with count_messages false) every pair sends one message
// each way of half its bytes, all at once. With counts
// (graphs::CommGraph::has_messages) the pair's M = round(m) messages (at least
// one when it has bytes) of round(w / M) bytes each are split between the two
// directions (the lower process sends ceil(M / 2)) and spread over R rounds,
// R the largest count of any direction: a direction of k messages sends its
// i-th in round floor(i R / k) (ReplayRounds, the rule sim/message_plan.h
// replays).
//
// Routes. A message between two hosts crosses the uplinks from each host up
// to their lowest common ancestor (full duplex, SimGrid SPLITDUPLEX: each
// direction has the link's bandwidth) and the pair link below it, if any; a
// message inside a host crosses the host's loopback, one link for both
// directions (SHARED). Latency: the sum of the route's latencies; bandwidth:
// its smallest.
//
// Time. A message takes its route's latency, then its bytes flow; a
// process moves to the next round when its messages of this round have
// arrived (its sends too, for messages SMPI sends synchronously), and a
// message starts when its sender is there (and, sent synchronously, its
// receiver), so late processes delay only those that exchange with them.
// How the bytes of a round share the links:
//   * exchanges of at most kFluidRounds rounds (bulk exchanges, where the
//     sharing decides the time) are played as SimGrid plays them: flows share
//     every link max-min fairly, weighted by their route's latency plus
//     SMPI's weight-S over each link's bandwidth, and rates change whenever a
//     flow starts or ends (internal::FluidLinks; identical flows are one
//     class, so a round costs about its distinct host pairs; a round of more
//     than 4,096 classes, processes starting it at many different times,
//     takes the cheap bound below);
//   * longer exchanges (many small latency-bound rounds) take the cheap
//     bound: a message arrives after its own bytes at its route's bandwidth
//     and not before each link on its route has carried the round's bytes,
//     counted from the first moment a message on it flows.
// The prediction is the time the last process ends the iteration, all
// starting at 0. Under LinkModel::kSmpi the figures follow SMPI's default
// (calibrated) network model: its per-size latency and bandwidth factors
// (a flow of a size takes 1 / factor of the capacity of each of its links),
// TCP acknowledgements loading the reverse direction (5%), the TCP window's
// bound, and messages of 64 KiB and more sent synchronously; under kExact
// (smpirun --cfg of sim/smpirun.h's kExact) a message takes exactly its
// latency plus bytes over bandwidth, every one sent synchronously, flows
// weighted by their latency alone. Checked against SMPI in bench/sim: the
// replay of every case's traffic under every mapping.
//
// Cost: O(messages x depth) plus R x (distinct per-direction counts), and
// for bulk exchanges the fluid sharing of their classes; above
// kMaxPredictedMessages messages per iteration every count is scaled down to
// that and the time scaled back up, so the engine can call it on any
// profile.
//
//   const LinkLoad load = EstimateLinkLoad(tree, graph, mapping);
//   if (load.seconds < other.seconds) ...
#ifndef RANKMAP_CORE_OBJECTIVE_LINK_LOAD_H_
#define RANKMAP_CORE_OBJECTIVE_LINK_LOAD_H_

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Which network the prediction follows (see the top of this file).
enum class LinkModel { kSmpi, kExact };

inline constexpr int64_t kMaxPredictedMessages = 4'000'000;
inline constexpr int64_t kFluidRounds = 4;

struct LinkLoad {
  // Predicted seconds per iteration (the top of this file).
  double seconds = 0.0;
  // The parts, for reports: the transfer time of the busiest link over the
  // whole iteration (every round's bytes), and the latency of the message
  // rounds (RoundsLatency; without counts the largest latency of a route
  // with traffic).
  double busiest = 0.0;
  double latency = 0.0;
};

// The latency of message rounds: pairs[k] = (messages pair k sends each way,
// its route latency). Pair k is taken to be active in the first
// pairs[k].first rounds (the most messages, the most rounds), so the result
// is sum over rounds r of max{latency of the pairs with more than r
// messages}: the least the rounds can take when every round waits for its
// slowest pair (fractional counts weigh a round by their fraction). O(p log
// p).
double RoundsLatency(std::vector<std::pair<double, double>> pairs);

// The messages a pair of w bytes and m messages (both directions) sends per
// iteration: (M, bytes of each), M = round(m), at least 1 when w > 0; (2,
// round(w / 2)) without counts.
std::pair<int64_t, double> PairMessages(double w, double m, bool counted);

// Whether a direction of `count` messages per iteration sends one in round r
// of `rounds` (0 <= r < rounds, 1 <= count <= rounds).
inline bool SendsInRound(int64_t r, int64_t count, int64_t rounds) {
  const int64_t i = (r * count + rounds - 1) / rounds;  // ceil(r k / R)
  return i < count && i * rounds / count == r;
}

// SMPI's default per-size factors (SimGrid 3.32's smpi/lat-factor and
// smpi/bw-factor): a message of `bytes` takes latency x the first and
// bandwidth x the second. What calibrated links are divided by, so that the
// model gives back what was measured.
double SmpiLatencyFactor(double bytes);
double SmpiBandwidthFactor(double bytes);

// Requires a valid mapping (any leaf capacity). All zero when the tree has no
// links. With count_messages false, message counts are ignored (one message
// each way per pair). See the top of this file for the model and its cost.
LinkLoad EstimateLinkLoad(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const Mapping& mapping, bool count_messages = true,
                          LinkModel model = LinkModel::kSmpi);

namespace internal {

// Flows sharing links as SimGrid shares them (weighted max-min, the fluid
// model of its network): every flow of a class sends `bytes` from `start` on,
// takes coef x its rate of each link of its route (coef_back of each link of
// its reverse route: acknowledgements), and its rate is share / penalty, the
// share set by the tightest link, up to `bound`. A class holds `count`
// identical flows. Rates are recomputed whenever a class starts or ends.
// O(events x (links + classes) x bottlenecks).
class FluidLinks {
 public:
  struct Class {
    double start = 0, bytes = 0, count = 1, coef = 1, coef_back = 0;
    double penalty = 1, bound = std::numeric_limits<double>::infinity();
    int64_t first = 0, size = 0;            // its route in route()
    int64_t back_first = 0, back_size = 0;  // its reverse route in route()
  };

  // capacity[s]: the bandwidth of link s (bytes per second).
  explicit FluidLinks(std::vector<double> capacity)
      : capacity_(std::move(capacity)),
        left_(capacity_.size()),
        demand_(capacity_.size()),
        flows_on_(capacity_.size()) {}

  std::vector<int64_t>& route() { return route_; }
  std::vector<Class>& classes() { return classes_; }

  // When each class's flows end (a class of 0 bytes: at its start).
  std::vector<double> Run();

 private:
  void Share(const std::vector<int32_t>& active, std::vector<double>* rate);

  std::vector<double> capacity_, left_, demand_;
  std::vector<std::vector<int32_t>> flows_on_;
  std::vector<int64_t> touched_;
  std::vector<int64_t> route_;
  std::vector<Class> classes_;
};

}  // namespace internal

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_OBJECTIVE_LINK_LOAD_H_
