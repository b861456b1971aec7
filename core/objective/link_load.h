// Link load: what a tree with links (topology::Tree::has_links) says about the
// time of one exchange of the whole graph, where J only says how far its
// bytes travel. A bulk exchange ends when its busiest link has drained, so
// two mappings of equal J can differ by the NIC that 24 processes share.
//
// Model (the platform topology/simgrid_platform writes from the tree): a
// CommGraph weight is the bytes of both directions, half each way; uplinks and
// pair links are full duplex (SimGrid SPLITDUPLEX), so a link crossed by
// volume V is busy V / 2 / bandwidth; a host's loopback is shared by both
// directions of every message inside the host (including processes on one
// leaf): V / bandwidth. The estimate is the busiest link's time plus the
// largest latency of a route that carries traffic (Tree::LcaRoute of the
// edge's lowest common ancestor). It is a lower-bound-like figure for ranking
// mappings of bandwidth-bound exchanges, not a prediction (simulate for that):
// SMPI's per-size latency and bandwidth factors and the coupling of
// iterations are left out.
//
// With message counts (graphs::CommGraph::has_messages), the latency term
// counts rounds: an exchange whose pairs send many messages is modelled as
// rounds in which every pair with a message left sends one each way and
// waits, so a round lasts as long as its slowest route's latency and the
// latency term is sum over rounds of the largest latency among the pairs
// active in that round (RoundsLatency), the bytes term staying the busiest
// link's transfer time of the whole exchange. Without counts this is one
// round: the largest latency of a route with traffic, as above.
//
// Sharing the links max-min fairly among the flows,
// as SimGrid does, gave the same figure as the busiest link on every stencil
// mapping of bench/sim, so the simple bound is what is computed.
//
//   const LinkLoad load = EstimateLinkLoad(tree, graph, mapping);
//   if (load.seconds < other.seconds) ...
#ifndef RANKMAP_CORE_OBJECTIVE_LINK_LOAD_H_
#define RANKMAP_CORE_OBJECTIVE_LINK_LOAD_H_

#include <utility>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

struct LinkLoad {
  double seconds = 0.0;  // busiest + latency
  double busiest = 0.0;  // transfer time on the busiest link
  // Largest latency of a route with traffic; with message counts, the sum
  // over message rounds of each round's largest latency.
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

// Requires a valid mapping (any leaf capacity). All zero when the tree has no
// links. With count_messages false, message counts are ignored (one round).
// O(m * depth + nodes + pair-link entries).
LinkLoad EstimateLinkLoad(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const Mapping& mapping, bool count_messages = true);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_OBJECTIVE_LINK_LOAD_H_
