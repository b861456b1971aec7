#include "core/tree_walk.h"

#include <numeric>
#include <utility>

namespace rankmap::core {

absl::StatusOr<Mapping> WalkTopDown(const topology::Tree& tree, int32_t n,
                                    SplitFn split) {
  Mapping mapping(n, -1);
  std::vector<ChildShare> stack;
  std::vector<graphs::VertexId> all(n);
  std::iota(all.begin(), all.end(), 0);
  stack.push_back({tree.root(), std::move(all)});
  std::vector<ChildShare> shares;
  while (!stack.empty()) {
    ChildShare top = std::move(stack.back());
    stack.pop_back();
    if (top.verts.empty()) continue;
    if (tree.is_leaf(top.child)) {
      for (graphs::VertexId v : top.verts) mapping[v] = top.child;
      continue;
    }
    shares.clear();
    if (absl::Status s = split(top.child, std::move(top.verts), &shares);
        !s.ok()) {
      return s;
    }
    // Pushed in reverse so that children are visited in the order listed.
    for (size_t i = shares.size(); i-- > 0;)
      stack.push_back(std::move(shares[i]));
  }
  return mapping;
}

}  // namespace rankmap::core
