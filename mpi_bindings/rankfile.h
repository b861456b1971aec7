// Open MPI rankfiles from a mapping, so `mpirun --rankfile` launches a program
// already placed.
//
//   RankfileOptions o;
//   o.default_host = "node01";                 // for leaves without a host
//   name ASSIGN_OR_RETURN(std::string text, FormatRankfile(tree, mapping, o));
//   // "rank 0=node01 slot=3\n" ...; launch with
//   //   mpirun --mca rmaps_rank_file_physical 1 --rankfile FILE -np N ./app
//
// Slots: with `physical` (default) each line names the PU os index of the leaf
// (hwloc's P#, what Open MPI reads when rmaps_rank_file_physical is 1); leaves
// without an os index (trees from tleaf or synthetic descriptions) fall back to
// their logical index among the leaves of the same host (Open MPI's default
// logical numbering). The text opens with a comment giving the mpirun options
// it needs.
#ifndef RANKMAP_MPI_BINDINGS_RANKFILE_H_
#define RANKMAP_MPI_BINDINGS_RANKFILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "topology/tree.h"

namespace rankmap::mpi_bindings {

struct RankfileOptions {
  // Host of leaves that carry none; empty: this machine's host name.
  std::string default_host;
  // Physical PU os indexes where known (see above); false: always logical
  // indexes.
  bool physical = true;
};

// One line per process: "rank p=host slot=s". Errors: invalid mapping for the
// tree. O(n + leaves).
absl::StatusOr<std::string> FormatRankfile(const topology::Tree& tree,
                                           const core::Mapping& mapping,
                                           const RankfileOptions& options = {});

// FormatRankfile into a file. Errors: as above, unwritable file.
absl::Status WriteRankfile(const std::string& path, const topology::Tree& tree,
                           const core::Mapping& mapping,
                           const RankfileOptions& options = {});

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_RANKFILE_H_
