#include "sim/smpi_hostfile.h"

#include "absl/strings/str_cat.h"

namespace rankmap::sim {

absl::StatusOr<std::string> SmpiHostfile(const topology::Tree& tree,
                                         const core::Mapping& mapping) {
  std::string out;
  for (size_t r = 0; r < mapping.size(); ++r) {
    const topology::LeafId l = mapping[r];
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::InvalidArgumentError(
          absl::StrCat("sim/hostfile: rank ", r, " is on leaf ", l,
                       ", not in [0, ", tree.num_leaves(), ")"));
    }
    if (tree.host(l).empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sim/hostfile: leaf ", l,
          " has no host name (use a tleaf with link levels, a network spec or "
          "a SimGrid platform)"));
    }
    absl::StrAppend(&out, tree.host(l), "\n");
  }
  return out;
}

}  // namespace rankmap::sim
