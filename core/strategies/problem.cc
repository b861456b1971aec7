#include "core/strategies/problem.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/model/mapping.h"

namespace rankmap::core::multilevel {

using graphs::CommGraph;
using graphs::VertexId;
using topology::LeafId;
using topology::NodeId;
using topology::Tree;

namespace {

// Per leaf, the depth of its finest block (see the header).
std::vector<int32_t> FinalDepths(const Tree& tree, bool one_to_one) {
  std::vector<char> unit(tree.num_nodes(), 1);  // children all unit leaves
  for (NodeId v = 0; v + 1 < tree.num_nodes(); ++v) {
    if (!tree.is_leaf(v) || tree.capacity(v) > 1) unit[tree.parent(v)] = 0;
  }
  std::vector<int32_t> depth(tree.num_leaves());
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    const NodeId p = tree.parent(l);
    const bool collapse =
        one_to_one && p >= 0 && unit[p] && !tree.has_pair_costs(p);
    depth[l] = tree.depth(l) - (collapse ? 1 : 0);
  }
  return depth;
}

bool IntegralWeights(const CommGraph& g) {
  for (VertexId v = 0; v < g.num_vertices(); ++v) {
    if (g.vertex_weight(v) != std::floor(g.vertex_weight(v))) return false;
  }
  return true;
}

std::vector<double> Prefix(const std::vector<double>& x) {
  std::vector<double> p(x.size() + 1, 0.0);
  for (size_t i = 0; i < x.size(); ++i) p[i + 1] = p[i] + x[i];
  return p;
}

}  // namespace

double Problem::NodeBound(NodeId x, bool coarse) const {
  const std::vector<double>& b = coarse ? coarse_prefix : bound_prefix;
  return b[tree->leaf_end(x)] - b[tree->leaf_begin(x)];
}

double Problem::NodeRoom(NodeId x, bool coarse) const {
  return NodeBound(x, coarse) -
         (share_prefix[tree->leaf_end(x)] - share_prefix[tree->leaf_begin(x)]);
}

std::vector<int32_t> Problem::BlockDepths(int32_t d) const {
  std::vector<int32_t> out(final_depth.size());
  for (size_t l = 0; l < out.size(); ++l) out[l] = std::min(d, final_depth[l]);
  return out;
}

Problem MakeProblem(const Tree& tree, const CommGraph& graph, bool one_to_one,
                    double imbalance) {
  Problem p;
  p.graph = &graph;
  p.one_to_one = one_to_one;
  p.imbalance = imbalance;
  p.tree = &tree;
  std::vector<double> bound(tree.num_leaves()), coarse;
  if (one_to_one) {
    if (graph.num_vertices() < tree.Capacity(tree.root())) {
      absl::StatusOr<Tree> t = tree.WithCapacities(
          internal::PackedCapacities(tree, graph.num_vertices()));
      if (t.ok()) {
        p.packed = *std::move(t);
        p.tree = &*p.packed;
      }
    }
    for (LeafId l = 0; l < tree.num_leaves(); ++l)
      bound[l] = p.tree->capacity(l);
    coarse = bound;
  } else {
    bound = PartitionLoadBounds(tree, graph, imbalance);
    coarse = bound;
    if (IntegralWeights(graph)) {
      for (double& b : bound) b = std::floor(b + 1e-9 * (1.0 + b));
    }
  }
  const double per_slot =
      graph.TotalVertexWeight() /
      std::max<double>(1.0, p.tree->Capacity(p.tree->root()));
  std::vector<double> share(tree.num_leaves());
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    share[l] = per_slot * p.tree->capacity(l);
  p.bound_prefix = Prefix(bound);
  p.coarse_prefix = Prefix(coarse);
  p.share_prefix = Prefix(share);
  p.final_depth = FinalDepths(*p.tree, one_to_one);
  p.max_depth = *std::max_element(p.final_depth.begin(), p.final_depth.end());
  return p;
}

CutShape ShapeAt(const Problem& p, int32_t d, bool coarse) {
  const Tree& t = *p.tree;
  CutShape s;
  for (LeafId l = 0; l < t.num_leaves();) {
    NodeId x = l;
    const int32_t bd = std::min(d, p.final_depth[l]);
    while (t.depth(x) > bd) x = t.parent(x);
    const double b = p.NodeBound(x, coarse);
    if (b > 0) {
      const double room = std::max(0.0, p.NodeRoom(x, coarse));
      const double ratio = room / std::max(1e-300, b - room);
      s.min_bound = s.blocks == 0 ? b : std::min(s.min_bound, b);
      s.min_room = s.blocks == 0 ? room : std::min(s.min_room, room);
      s.min_ratio = s.blocks == 0 ? ratio : std::min(s.min_ratio, ratio);
      ++s.blocks;
    }
    l = t.leaf_end(x);
  }
  return s;
}

std::vector<double> BlockBounds(const Problem& p, const CutTree& cut,
                                double relax, bool coarse) {
  std::vector<double> b(cut.num_blocks());
  for (LeafId x = 0; x < cut.num_blocks(); ++x) {
    b[x] = p.NodeBound(cut.original(x), coarse);
    if (b[x] > 0) b[x] += relax;
  }
  return b;
}

namespace internal {

std::vector<int32_t> PackedCapacities(const Tree& tree, int64_t n) {
  std::vector<int64_t> count(tree.num_nodes(), 0);
  count[tree.root()] = n;
  std::vector<int32_t> out(tree.num_leaves(), 0);
  // Parents come after their children: from the root down.
  for (NodeId x = tree.root(); x >= 0; --x) {
    const int64_t m = count[x];
    if (m == 0) continue;
    if (tree.is_leaf(x)) {
      out[x] = static_cast<int32_t>(m);
      continue;
    }
    std::vector<NodeId> order(tree.children(x).begin(), tree.children(x).end());
    std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
      return tree.Capacity(a) > tree.Capacity(b);
    });
    int64_t cap = 0;
    size_t used = 0;
    while (used < order.size() && cap < m) cap += tree.Capacity(order[used++]);
    order.resize(used);
    std::sort(order.begin(), order.end());  // tree order, as the multisection
    std::vector<std::pair<double, size_t>> rem;
    int64_t given = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const NodeId c = order[i];
      const double exact = static_cast<double>(m) * tree.Capacity(c) / cap;
      count[c] =
          std::min<int64_t>(tree.Capacity(c), static_cast<int64_t>(exact));
      given += count[c];
      rem.push_back({-(exact - count[c]), i});
    }
    std::sort(rem.begin(), rem.end());
    for (size_t r = 0; given < m; r = (r + 1) % rem.size()) {
      const NodeId c = order[rem[r].second];
      if (count[c] < tree.Capacity(c)) {
        ++count[c];
        ++given;
      }
    }
  }
  return out;
}

}  // namespace internal

}  // namespace rankmap::core::multilevel
