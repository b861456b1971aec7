// The time objective: what the traffic of a mapping costs in seconds when
// every message pays the latency of its route and every byte the route's
// inverse bandwidth (Hockney's model, per level of the tree).
//
// J prices bytes only. A latency-bound application (2,000 messages of 340
// bytes per neighbour pair and time step) is priced by J as if it sent one
// large message, and a mapping that lowers J can run slower. With message
// counts (graphs::CommGraph::has_messages) and a tree with links
// (topology::Tree::has_links), the engine minimises instead
//
//   T = sum over pairs {i, j} of m(i, j) * latency(a, b)
//                              + w(i, j) * inverse_bandwidth(a, b)
//
// with a, b the leaves of i and j, m the pair's messages and w its bytes (both
// directions). latency and inverse_bandwidth are those of the route between a
// and b as the links give it (topology/link.h: the route of the lowest common
// ancestor, Tree::LcaRoute, or of the child pair below a node with pair links,
// Tree::PairRoute); nodes inside a host keep their hwloc ratios under the
// host's loopback, as the cost rule does. T is a sum of per-pair times, not
// the duration of an exchange: it ranks mappings the way the refinement can
// move them, one pair at a time (the exchange's duration is estimated by
// core/objective/link_load.h).
//
// Both quantities are tree distances on the tree's own shape, so the engine's
// machinery for J serves T too: bytes are priced on one tree
// (inverse_bandwidth), messages on a second (latency).
//
//   ASSIGN_OR_RETURN(TimeTrees t, MakeTimeTrees(tree));
//   const double seconds = TimeCost(t, graph, mapping);
#ifndef RANKMAP_CORE_OBJECTIVE_TIME_OBJECTIVE_H_
#define RANKMAP_CORE_OBJECTIVE_TIME_OBJECTIVE_H_

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// The tree priced twice. Both have the shape, leaves, capacities and hosts of
// the tree they were made from.
struct TimeTrees {
  topology::Tree latency;            // seconds per message
  topology::Tree inverse_bandwidth;  // seconds per byte
};

// Errors: a tree without links (FailedPrecondition). O(nodes + pair costs).
absl::StatusOr<TimeTrees> MakeTimeTrees(const topology::Tree& tree);

// T of a valid mapping, in seconds (pairs without counts weigh their bytes
// only). O(m * depth).
double TimeCost(const TimeTrees& trees, const graphs::CommGraph& graph,
                const Mapping& mapping);

// Whether `objective` prices these inputs by time: kTime and kAuto when the
// graph has message counts and the tree has links; kTime on other inputs is
// an error (naming what is missing), kAuto and kJ are J.
absl::StatusOr<bool> UsesTime(ObjectiveKind objective,
                              const topology::Tree& tree,
                              const graphs::CommGraph& graph);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_OBJECTIVE_TIME_OBJECTIVE_H_
