#include "topology/leaf_groups.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "topology/tree_ops.h"

namespace rankmap::topology {

absl::StatusOr<LeafGroups> GroupLeaves(const Tree& tree, int32_t k) {
  if (k < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/leaf_groups: ", k, " threads per process (at least 1)"));
  }
  LeafGroups out;
  out.k = k;
  std::vector<std::vector<int32_t>> pus;
  int32_t largest = 0;
  for (LeafId begin = 0; begin < tree.num_leaves();) {
    LeafId end = begin + 1;
    while (end < tree.num_leaves() && tree.host(end) == tree.host(begin)) ++end;
    largest = std::max(largest, end - begin);
    for (LeafId g = begin; g + k <= end; g += k) {
      out.first.push_back(g);
      std::vector<int32_t> set;
      for (LeafId l = g; l < g + k; ++l) {
        std::span<const int32_t> p = tree.pus(l);
        set.insert(set.end(), p.begin(), p.end());
      }
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
      pus.push_back(std::move(set));
    }
    begin = end;
  }
  if (out.first.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--threads-per-process ", k, ": no node has ", k,
                     " leaves (the largest has ", largest, ")"));
  }
  ASSIGN_OR_RETURN(Tree restricted, Restrict(tree, out.first));
  ASSIGN_OR_RETURN(out.tree, restricted.WithPus(std::move(pus)));
  return out;
}

}  // namespace rankmap::topology
