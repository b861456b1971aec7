#include "core/initial/exact_map.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace rankmap::core {
namespace {

using graphs::VertexId;

class Search {
 public:
  Search(const topology::Tree& tree, const graphs::CommGraph& graph,
         int64_t budget, Mapping* best, double* best_j)
      : tree_(tree),
        graph_(graph),
        budget_(budget),
        work_(budget > (int64_t{1} << 56) ? budget : budget * kWorkPerNode),
        best_(*best),
        best_j_(*best_j),
        load_(tree.num_leaves(), 0),
        prev_twin_(tree.num_leaves(), -1),
        current_(graph.num_vertices(), -1) {
    // prev_twin_[l]: the previous leaf with l's parent and capacity.
    std::map<std::pair<NodeId, int32_t>, LeafId> last;
    for (LeafId l = 0; l < tree.num_leaves(); ++l) {
      const NodeId p = tree.parent(l);
      if (p < 0 || tree.has_pair_costs(p)) continue;
      auto [it, inserted] = last.try_emplace({p, tree.capacity(l)}, l);
      if (!inserted) {
        prev_twin_[l] = it->second;
        it->second = l;
      }
    }
    const VertexId n = graph.num_vertices();
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), 0);
    std::vector<double> volume(n);
    for (VertexId v = 0; v < n; ++v) volume[v] = graph.VertexVolume(v);
    std::stable_sort(order_.begin(), order_.end(), [&](VertexId a, VertexId b) {
      return volume[a] > volume[b];
    });
  }

  bool Run() {
    Place(0, 0.0);
    return budget_ >= 0;
  }

 private:
  void Place(size_t depth, double partial) {
    if (partial >= best_j_ * (1 - 1e-12) || --budget_ < 0) return;
    if (depth == order_.size()) {
      best_j_ = partial;
      best_ = current_;
      return;
    }
    const VertexId v = order_[depth];
    for (LeafId l = 0; l < tree_.num_leaves(); ++l) {
      if (--work_ < 0) {
        budget_ = -1;
        return;
      }
      if (load_[l] >= tree_.capacity(l) || Redundant(l)) continue;
      double add = 0.0;
      auto nbrs = graph_.neighbors(v);
      auto wgts = graph_.weights(v);
      for (size_t e = 0; e < nbrs.size(); ++e) {
        const LeafId u = current_[nbrs[e]];
        if (u >= 0) add += wgts[e] * tree_.Distance(l, u);
      }
      ++load_[l];
      current_[v] = l;
      Place(depth + 1, partial + add);
      current_[v] = -1;
      --load_[l];
      if (budget_ < 0) return;
    }
  }

  // An empty leaf with an empty sibling before it under a parent without a
  // pair-cost matrix (and the same capacity): both give the same costs.
  // Walks the twins before l: at most as many are occupied as processes are
  // placed, so this is O(n), not O(siblings).
  bool Redundant(LeafId l) {
    if (load_[l] > 0) return false;
    for (LeafId s = prev_twin_[l]; s >= 0; s = prev_twin_[s]) {
      --work_;
      if (load_[s] == 0) return true;
    }
    return false;
  }

  // Leaves examined per search node before the search gives up: wide trees
  // would otherwise cost O(leaves) per node; small ones never reach it.
  static constexpr int64_t kWorkPerNode = 64;

  const topology::Tree& tree_;
  const graphs::CommGraph& graph_;
  int64_t budget_;
  int64_t work_;
  Mapping& best_;
  double& best_j_;
  std::vector<int32_t> load_;
  std::vector<LeafId> prev_twin_;
  Mapping current_;
  std::vector<VertexId> order_;
};

}  // namespace

bool ExactMap(const topology::Tree& tree, const graphs::CommGraph& graph,
              int64_t node_budget, Mapping* best, double* best_j) {
  return Search(tree, graph, node_budget, best, best_j).Run();
}

}  // namespace rankmap::core
