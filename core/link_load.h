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
// iterations are left out. Sharing the links max-min fairly among the flows,
// as SimGrid does, gave the same figure as the busiest link on every stencil
// mapping of bench/sim, so the simple bound is what is computed.
//
//   const LinkLoad load = EstimateLinkLoad(tree, graph, mapping);
//   if (load.seconds < other.seconds) ...
#ifndef RANKMAP_CORE_LINK_LOAD_H_
#define RANKMAP_CORE_LINK_LOAD_H_

#include "core/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

struct LinkLoad {
  double seconds = 0.0;  // busiest + latency
  double busiest = 0.0;  // transfer time on the busiest link
  double latency = 0.0;  // largest latency of a route with traffic
};

// Requires a valid mapping (any leaf capacity). All zero when the tree has no
// links. O(m * depth + nodes + pair-link entries).
LinkLoad EstimateLinkLoad(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const Mapping& mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_LINK_LOAD_H_
