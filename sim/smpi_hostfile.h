// SMPI hostfile: the placement of every rank for `smpirun -hostfile`. Line r
// is the host of rank r, so a mapping is a hostfile. Self-contained (a tree
// and a mapping in, text out) so it can join the other launcher formats.
//
//   ASSIGN_OR_RETURN(std::string text, SmpiHostfile(tree, mapping));
//   // "n0\nn0\nn3\n..." for mapping[r] = a leaf of host n0, n0, n3, ...
#ifndef RANKMAP_SIM_SMPI_HOSTFILE_H_
#define RANKMAP_SIM_SMPI_HOSTFILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::sim {

// One line per rank: the host name of leaf mapping[r]. Errors: a leaf id out
// of range, a leaf without a host name (trees from tleaf link levels, network
// specs and SimGrid platforms name their hosts). O(ranks).
absl::StatusOr<std::string> SmpiHostfile(const topology::Tree& tree,
                                         const core::Mapping& mapping);

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_SMPI_HOSTFILE_H_
