#include "core/initial/greedy_split.h"

#include <algorithm>
#include <cassert>
#include <queue>
#include <utility>
#include <vector>

#include "core/split/tree_walk.h"

namespace rankmap::core {

using graphs::VertexId;

Mapping GreedySplitMap(const topology::Tree& tree,
                       const graphs::CommGraph& graph) {
  const VertexId n = graph.num_vertices();
  assert(n <= tree.Capacity(tree.root()));
  // region[v]: the node whose processes are being split (v takes part only
  // there); conn[v]: v's connection to the child being filled.
  std::vector<NodeId> region(n, -1);
  std::vector<char> taken(n, 0);
  std::vector<double> conn(n, 0.0);
  using Entry = std::pair<double, VertexId>;  // (connection, -id): ties by id
  auto split = [&](NodeId node, std::vector<VertexId> verts,
                   std::vector<ChildShare>* shares) -> absl::Status {
    for (VertexId v : verts) {
      region[v] = node;
      taken[v] = 0;
    }
    const int32_t total = static_cast<int32_t>(verts.size());
    int32_t placed = 0;
    size_t cursor = 0;      // first candidate seed in verts order
    VertexId carried = -1;  // best boundary vertex of the previous child
    for (NodeId c : tree.children(node)) {
      const int32_t want = static_cast<int32_t>(
          std::min<int64_t>(tree.Capacity(c), total - placed));
      ChildShare share{c, {}};
      std::priority_queue<Entry> heap;
      std::vector<VertexId> touched;
      auto take = [&](VertexId u) {
        taken[u] = 1;
        share.verts.push_back(u);
        auto nb = graph.neighbors(u);
        auto wt = graph.weights(u);
        for (size_t a = 0; a < nb.size(); ++a) {
          const VertexId v = nb[a];
          if (region[v] != node || taken[v]) continue;
          if (conn[v] == 0.0) touched.push_back(v);
          // + 1e-300 keeps zero-weight arcs visible as connections.
          conn[v] += wt[a] + 1e-300;
          heap.emplace(conn[v], -v);
        }
      };
      auto pop_best = [&]() -> VertexId {
        while (!heap.empty()) {
          auto [cv, nv] = heap.top();
          heap.pop();
          if (!taken[-nv] && cv == conn[-nv]) return -nv;
        }
        return -1;
      };
      for (int32_t got = 0; got < want; ++got) {
        VertexId u = pop_best();
        if (u < 0 && carried >= 0 && !taken[carried]) u = carried;
        if (u < 0) {
          while (taken[verts[cursor]]) ++cursor;
          u = verts[cursor];
        }
        take(u);
      }
      // The strongest remaining boundary vertex seeds the next child.
      carried = pop_best();
      for (VertexId v : touched) conn[v] = 0.0;
      placed += static_cast<int32_t>(share.verts.size());
      shares->push_back(std::move(share));
    }
    return absl::OkStatus();
  };
  absl::StatusOr<Mapping> m = WalkTopDown(tree, n, split);
  assert(m.ok());  // the split never fails
  return *std::move(m);
}

}  // namespace rankmap::core
