#include "core/mapping.h"

#include "absl/strings/str_cat.h"

namespace rankmap::core {

absl::Status ValidateMapping(const topology::Tree& tree, int64_t num_processes,
                             const Mapping& mapping) {
  if (static_cast<int64_t>(mapping.size()) != num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("mapping: ", mapping.size(),
                                                   " entries for ", num_processes,
                                                   " processes"));
  }
  std::vector<int32_t> load(tree.num_leaves(), 0);
  for (size_t p = 0; p < mapping.size(); ++p) {
    const LeafId l = mapping[p];
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::OutOfRangeError(absl::StrCat("mapping: process ", p, ": leaf ", l,
                                                " outside [0, ", tree.num_leaves(), ")"));
    }
    if (++load[l] > tree.capacity(l)) {
      return absl::InvalidArgumentError(absl::StrCat("mapping: process ", p, ": leaf ", l,
                                                     " already holds its capacity of ",
                                                     tree.capacity(l), " processes"));
    }
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

absl::StatusOr<CostReport> Cost(const topology::Tree& tree, const graphs::CommGraph& graph,
                                const Mapping& mapping) {
  if (absl::Status s = ValidateMapping(tree, graph.num_vertices(), mapping); !s.ok()) return s;
  CostReport r;
  r.level_volume.assign(tree.height() + 1, 0.0);
  std::vector<double> link(tree.num_nodes(), 0.0);
  for (graphs::VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto wgts = graph.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (nbrs[k] < u) continue;
      const double w = wgts[k];
      const LeafId a = mapping[u], b = mapping[nbrs[k]];
      r.j += w * tree.Distance(a, b);
      if (a == b) {
        r.level_volume[tree.height()] += w;
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

}  // namespace rankmap::core
