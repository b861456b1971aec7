#include "core/model/mapping.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace rankmap::core {

std::vector<LeafId> Slots(const topology::Tree& tree, int64_t limit) {
  std::vector<LeafId> slots;
  const int64_t size =
      std::max<int64_t>(0, std::min(limit, tree.Capacity(tree.root())));
  slots.reserve(size);
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    const int64_t take = std::min<int64_t>(
        tree.capacity(l), size - static_cast<int64_t>(slots.size()));
    slots.insert(slots.end(), take, l);
  }
  return slots;
}

absl::Status ValidateMapping(const topology::Tree& tree, int64_t num_processes,
                             const Mapping& mapping) {
  if (static_cast<int64_t>(mapping.size()) != num_processes) {
    return absl::InvalidArgumentError(
        absl::StrCat("mapping: ", mapping.size(), " entries for ",
                     num_processes, " processes"));
  }
  std::vector<int32_t> load(tree.num_leaves(), 0);
  for (size_t p = 0; p < mapping.size(); ++p) {
    const LeafId l = mapping[p];
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::OutOfRangeError(absl::StrCat("mapping: process ", p,
                                                ": leaf ", l, " outside [0, ",
                                                tree.num_leaves(), ")"));
    }
    if (++load[l] > tree.capacity(l)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "mapping: process ", p, ": leaf ", l,
          " already holds its capacity of ", tree.capacity(l), " processes"));
    }
  }
  return absl::OkStatus();
}

std::vector<double> PartitionLoadBounds(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        double imbalance) {
  const double total_weight = graph.TotalVertexWeight();
  const double total_capacity = static_cast<double>(tree.Capacity(tree.root()));
  std::vector<double> bound(tree.num_leaves(), 0.0);
  if (total_capacity <= 0) return bound;
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    const double share = total_weight * tree.capacity(l) / total_capacity;
    // A tiny tolerance keeps shares such as 3 * (1/3) * 3 from rounding up to
    // the next unit.
    bound[l] = std::max((1.0 + imbalance) * share,
                        std::ceil(share - 1e-9 * (1.0 + share)));
  }
  return bound;
}

absl::Status ValidatePartitionMapping(const topology::Tree& tree,
                                      const graphs::CommGraph& graph,
                                      const Mapping& mapping,
                                      double imbalance) {
  if (!std::isfinite(imbalance) || imbalance < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "partition: imbalance ", imbalance, " must be finite and >= 0"));
  }
  const int32_t n = graph.num_vertices();
  if (static_cast<int64_t>(mapping.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "partition: ", mapping.size(), " entries for ", n, " vertices"));
  }
  std::vector<double> load(tree.num_leaves(), 0.0);
  for (int32_t v = 0; v < n; ++v) {
    const LeafId l = mapping[v];
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::OutOfRangeError(absl::StrCat("partition: vertex ", v,
                                                ": leaf ", l, " outside [0, ",
                                                tree.num_leaves(), ")"));
    }
    if (tree.capacity(l) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "partition: vertex ", v, ": leaf ", l, " has capacity 0"));
    }
    load[l] += graph.vertex_weight(v);
  }
  const std::vector<double> bound = PartitionLoadBounds(tree, graph, imbalance);
  LeafId worst = -1;
  double worst_excess = 0.0;
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    const double excess = load[l] - bound[l];
    if (!WithinBound(load[l], bound[l]) && excess > worst_excess) {
      worst_excess = excess;
      worst = l;
    }
  }
  if (worst >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "partition: leaf ", worst, " carries vertex weight ", load[worst],
        " above its bound ", bound[worst], " (imbalance ", imbalance, ")"));
  }
  return absl::OkStatus();
}

double ComputeJ(const topology::Tree& tree, const graphs::CommGraph& graph,
                const Mapping& mapping) {
  double j = 0.0;
  for (graphs::VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto wgts = graph.weights(u);
    const LeafId lu = mapping[u];
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (nbrs[k] > u) j += wgts[k] * tree.Distance(lu, mapping[nbrs[k]]);
    }
  }
  return j;
}

absl::Status CheckCostRange(const topology::Tree& tree,
                            const graphs::CommGraph& graph) {
  long double volume = 0.0L;
  for (double w : graph.adjwgt()) volume += w;
  volume /= 2;
  double largest = 0.0;
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    largest = std::max(largest, tree.cost(v));
    if (!tree.has_pair_costs(v)) continue;
    const int32_t k = tree.num_children(v);
    for (int32_t i = 0; i < k; ++i) {
      for (int32_t j = 0; j < k; ++j)
        largest = std::max(largest, tree.pair_cost(v, i, j));
    }
  }
  if (volume * largest <= std::numeric_limits<double>::max() / 16) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrFormat(
      "cost: total volume %.6g times the largest distance %.6g overflows a "
      "double (J must stay below %.3g); scale the weights or costs down",
      volume, largest, std::numeric_limits<double>::max() / 16));
}

namespace {

// Every metric of a mapping already validated.
CostReport Evaluate(const topology::Tree& tree, const graphs::CommGraph& graph,
                    const Mapping& mapping) {
  CostReport r;
  r.j = ComputeJ(tree, graph, mapping);
  r.level_volume.assign(tree.height() + 1, 0.0);
  r.node_volume.assign(tree.num_nodes(), 0.0);
  std::vector<double> link(tree.num_nodes(), 0.0);
  for (graphs::VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto wgts = graph.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (nbrs[k] < u) continue;
      const double w = wgts[k];
      const LeafId a = mapping[u], b = mapping[nbrs[k]];
      if (a == b) {
        r.level_volume[tree.height()] += w;
        r.node_volume[a] += w;
        continue;
      }
      // Walk both sides up to the LCA, charging every link on the way.
      NodeId x = a, y = b;
      int32_t hops = 0;
      while (x != y) {
        ++hops;
        if (x < y) {
          link[x] += w;
          x = tree.parent(x);
        } else {
          link[y] += w;
          y = tree.parent(y);
        }
      }
      r.hop_bytes += w * hops;
      r.level_volume[tree.depth(x)] += w;
      r.node_volume[x] += w;
    }
  }
  for (NodeId v = 0; v < tree.num_nodes(); ++v) {
    if (link[v] > r.max_link_volume) {
      r.max_link_volume = link[v];
      r.max_link_node = v;
    }
  }
  return r;
}

}  // namespace

absl::StatusOr<CostReport> Cost(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const Mapping& mapping) {
  if (absl::Status s = ValidateMapping(tree, graph.num_vertices(), mapping);
      !s.ok())
    return s;
  if (absl::Status s = CheckCostRange(tree, graph); !s.ok()) return s;
  return Evaluate(tree, graph, mapping);
}

absl::StatusOr<CostReport> PartitionCost(const topology::Tree& tree,
                                         const graphs::CommGraph& graph,
                                         const Mapping& mapping,
                                         double imbalance) {
  if (absl::Status s =
          ValidatePartitionMapping(tree, graph, mapping, imbalance);
      !s.ok())
    return s;
  if (absl::Status s = CheckCostRange(tree, graph); !s.ok()) return s;
  return Evaluate(tree, graph, mapping);
}

bool IsNTo1(const topology::Tree& tree, const graphs::CommGraph& graph) {
  const int64_t slots = tree.Capacity(tree.root());
  return graph.num_vertices() > slots && slots > 0;
}

absl::StatusOr<CostReport> CheckedCost(const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const Mapping& mapping,
                                       double imbalance) {
  if (IsNTo1(tree, graph))
    return PartitionCost(tree, graph, mapping, imbalance);
  return Cost(tree, graph, mapping);
}

}  // namespace rankmap::core
