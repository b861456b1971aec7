#include "topology/process_leaves.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"

namespace rankmap::topology {

absl::StatusOr<ProcessLeaves> LeavesOfProcesses(
    const Tree& tree, std::span<const ProcessWhere> processes,
    std::string_view process, std::string_view tree_name) {
  std::map<std::string, std::vector<LeafId>> leaves_of_host;
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    leaves_of_host[tree.host(l)].push_back(l);
  std::vector<int32_t> load(tree.num_leaves(), 0);
  ProcessLeaves out;
  out.leaf.assign(processes.size(), -1);
  out.exact.assign(processes.size(), false);
  for (size_t r = 0; r < processes.size(); ++r) {
    const ProcessWhere& p = processes[r];
    auto it = leaves_of_host.find(p.host);
    if (it == leaves_of_host.end()) {
      return absl::NotFoundError(
          absl::StrCat("host '", p.host, "' of ", std::string(process), " ", r,
                       " is not in ", std::string(tree_name)));
    }
    LeafId best = -1, best_bound = -1;
    for (LeafId l : it->second) {
      if (best < 0 || load[l] < load[best]) best = l;
      if (std::binary_search(p.pus.begin(), p.pus.end(), tree.os_index(l)) &&
          (best_bound < 0 || load[l] < load[best_bound])) {
        best_bound = l;
      }
    }
    const LeafId l = best_bound >= 0 ? best_bound : best;
    out.leaf[r] = l;
    const auto pus = tree.pus(l);
    out.exact[r] =
        best_bound >= 0 && !pus.empty() &&
        std::equal(p.pus.begin(), p.pus.end(), pus.begin(), pus.end());
    ++load[l];
  }
  return out;
}

}  // namespace rankmap::topology
