#include "core/objective/time_objective.h"

#include <cmath>
#include <vector>

namespace rankmap::core {
namespace {

// The share of a route's price a node's cost stands for: 1 above the hosts
// (cost = RouteCost of the route), the hwloc ratio inside a host (cost = the
// given cost scaled under the loopback's).
double Ratio(double cost, const topology::Route& route) {
  const double price = topology::RouteCost(route);
  return price > 0 ? cost / price : 1.0;
}

double InverseBandwidth(const topology::Route& route) {
  return std::isfinite(route.bandwidth) ? 1.0 / route.bandwidth : 0.0;
}

}  // namespace

absl::StatusOr<TimeTrees> MakeTimeTrees(const topology::Tree& tree) {
  if (!tree.has_links()) {
    return absl::FailedPreconditionError(
        "time objective: the topology has no links (give link levels, e.g. "
        "tleaf costs as 25Gbps:2us, or a platform)");
  }
  const NodeId n = tree.num_nodes();
  std::vector<double> latency(n, 0.0), inverse(n, 0.0);
  for (NodeId v = tree.num_leaves(); v < n; ++v) {
    const topology::Route route = tree.LcaRoute(v);
    const double ratio = Ratio(tree.cost(v), route);
    latency[v] = ratio * route.latency;
    inverse[v] = ratio * InverseBandwidth(route);
  }
  // Pair costs: the pair's own route where the node has pair links, else the
  // node's route scaled like the given pair cost.
  auto pair_part = [&](bool want_latency) {
    return [&, want_latency](NodeId v, int32_t i, int32_t j) {
      if (tree.has_pair_links(v)) {
        const topology::Route r = tree.PairRoute(v, i, j);
        return want_latency ? r.latency : InverseBandwidth(r);
      }
      const double node = want_latency ? latency[v] : inverse[v];
      const double c = tree.cost(v);
      return c > 0 ? node * tree.pair_cost(v, i, j) / c : node;
    };
  };
  absl::StatusOr<topology::Tree> lat = tree.WithCosts(latency, pair_part(true));
  if (!lat.ok()) return lat.status();
  absl::StatusOr<topology::Tree> inv =
      tree.WithCosts(inverse, pair_part(false));
  if (!inv.ok()) return inv.status();
  return TimeTrees{*std::move(lat), *std::move(inv)};
}

double TimeCost(const TimeTrees& trees, const graphs::CommGraph& graph,
                const Mapping& mapping) {
  double t = ComputeJ(trees.inverse_bandwidth, graph, mapping);
  if (!graph.has_messages()) return t;
  for (graphs::VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto msgs = graph.messages(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (nbrs[k] < u) continue;
      t += msgs[k] * trees.latency.Distance(mapping[u], mapping[nbrs[k]]);
    }
  }
  return t;
}

absl::StatusOr<bool> UsesTime(ObjectiveKind objective,
                              const topology::Tree& tree,
                              const graphs::CommGraph& graph) {
  const bool possible = tree.has_links() && graph.has_messages();
  if (objective == ObjectiveKind::kTime && !possible) {
    return absl::InvalidArgumentError(absl::StrCat(
        "map: the time objective needs ",
        tree.has_links() ? "" : "a topology with links",
        tree.has_links() || graph.has_messages() ? "" : " and ",
        graph.has_messages() ? "" : "message counts (e.g. app.msgs.mat)"));
  }
  return objective != ObjectiveKind::kJ && possible;
}

}  // namespace rankmap::core
