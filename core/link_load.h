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
// Time. In each round every link carries the bytes of the round's messages
// that cross it; a message takes its route's latency, then the longer of its
// own transfer at the route's bandwidth and the time its busiest link needs
// for the whole round's bytes. A process moves to the next round when its
// messages of this round have arrived (its sends too, for messages SMPI sends
// synchronously), and a message starts when its sender is there (and, sent
// synchronously, its receiver), so late processes delay only those that
// exchange with them. The prediction is the time the last process ends the
// iteration, all starting at 0. Under LinkModel::kSmpi the figures follow
// SMPI's default (calibrated) network model: its per-size latency and
// bandwidth factors, TCP acknowledgements loading the reverse direction
// (5%), and messages of 64 KiB and more sent synchronously; under kExact
// (smpirun --cfg of sim/smpirun.h's kExact) a message takes exactly its
// latency plus bytes over bandwidth, every one sent synchronously.
//
// Cost: O(messages x depth) plus R x (distinct per-direction counts); above
// kMaxPredictedMessages messages per iteration every count is scaled down to
// that and the time scaled back up, so the engine can call it on any
// profile.
//
//   const LinkLoad load = EstimateLinkLoad(tree, graph, mapping);
//   if (load.seconds < other.seconds) ...
#ifndef RANKMAP_CORE_LINK_LOAD_H_
#define RANKMAP_CORE_LINK_LOAD_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Which network the prediction follows (see the top of this file).
enum class LinkModel { kSmpi, kExact };

inline constexpr int64_t kMaxPredictedMessages = 4'000'000;

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

// Requires a valid mapping (any leaf capacity). All zero when the tree has no
// links. With count_messages false, message counts are ignored (one message
// each way per pair). See the top of this file for the model and its cost.
LinkLoad EstimateLinkLoad(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const Mapping& mapping, bool count_messages = true,
                          LinkModel model = LinkModel::kSmpi);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_LINK_LOAD_H_
