#include "core/objective/link_load.h"

#include <algorithm>
#include <vector>

namespace rankmap::core {

double RoundsLatency(std::vector<std::pair<double, double>> pairs) {
  // Most messages first; ties by latency so the order is total.
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second > b.second;
  });
  double total = 0.0, slowest = 0.0;
  for (size_t k = 0; k < pairs.size(); ++k) {
    slowest = std::max(slowest, pairs[k].second);
    const double next = k + 1 < pairs.size() ? pairs[k + 1].first : 0.0;
    total += (pairs[k].first - next) * slowest;
  }
  return total;
}

LinkLoad EstimateLinkLoad(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const Mapping& mapping, bool count_messages) {
  LinkLoad r;
  const bool rounds_of_messages = count_messages && graph.has_messages();
  if (!tree.has_links()) return r;
  const NodeId nodes = tree.num_nodes();
  // host[v]: the host at or above v (-1: none); parents have larger ids.
  std::vector<NodeId> host(nodes, -1);
  for (NodeId v = nodes - 1; v >= 0; --v) {
    const NodeId p = tree.parent(v);
    host[v] = tree.is_host(v) ? v : (p >= 0 ? host[p] : -1);
  }
  // Volume on every uplink, loopback and (per unordered child pair) pair link.
  std::vector<double> up(nodes, 0.0), loop(nodes, 0.0);
  std::vector<std::vector<double>> pair(nodes);
  // With message counts: (messages each way, route latency) per pair.
  std::vector<std::pair<double, double>> rounds;
  for (graphs::VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto wgts = graph.weights(u);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (nbrs[e] < u) continue;
      const double w = wgts[e];
      NodeId x = mapping[u], y = mapping[nbrs[e]], cx = x, cy = y;
      while (x != y) {
        if (x < y) {
          up[x] += w;
          cx = x;
          x = tree.parent(x);
        } else {
          up[y] += w;
          cy = y;
          y = tree.parent(y);
        }
      }
      if (host[x] >= 0) loop[host[x]] += w;
      if (cx != x && cy != y && tree.has_pair_links(x)) {
        const int32_t k = tree.num_children(x);
        if (pair[x].empty()) pair[x].assign(static_cast<size_t>(k) * k, 0.0);
        const int32_t i = std::min(tree.child_rank(cx), tree.child_rank(cy));
        const int32_t j = std::max(tree.child_rank(cx), tree.child_rank(cy));
        pair[x][static_cast<size_t>(i) * k + j] += w;
      }
      const double latency = tree.LcaRoute(x).latency;
      if (rounds_of_messages) {
        rounds.emplace_back(graph.messages(u)[e] / 2, latency);
      } else {
        r.latency = std::max(r.latency, latency);
      }
    }
  }
  if (rounds_of_messages) r.latency = RoundsLatency(std::move(rounds));
  // share: the part of the volume one direction of the link carries.
  auto busy = [&](const topology::Link& link, double share, double volume) {
    if (link.given() && volume > 0)
      r.busiest = std::max(r.busiest, volume * share / link.bandwidth);
  };
  for (NodeId v = 0; v < nodes; ++v) {
    busy(tree.uplink(v), 0.5, up[v]);
    busy(tree.loopback(v), 1.0, loop[v]);
    const int32_t k = tree.num_children(v);
    for (int32_t i = 0; i < k && !pair[v].empty(); ++i) {
      for (int32_t j = i + 1; j < k; ++j) {
        busy(tree.pair_link(v, i, j), 0.5,
             pair[v][static_cast<size_t>(i) * k + j]);
      }
    }
  }
  r.seconds = r.busiest + r.latency;
  return r;
}

}  // namespace rankmap::core
