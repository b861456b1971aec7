// Where each rank of a profiled job ran, as the profiler's .placement says
// (mpi_bindings/profile_output.h), checked against the job and then against
// the machine `rankmap advise` prices it on:
//   * the ranks are exactly 0..n-1 for a profile of n ranks: a missing rank
//     with another number in its place is refused, naming both;
//   * each rank's CPU list names no more CPUs than its host has in the
//     machine, counted before the list is expanded (a line "0-1048575" costs
//     nothing), and only CPUs of that host: the PU os indexes of its leaves
//     (a host whose leaves carry none, a tleaf node, bounds the count by its
//     leaves).
//
//   ASSIGN_OR_RETURN(RankPlaces places, ReadRankPlaces(path, n));
//   ... build the machine over HostsInOrder(places) ...
//   ASSIGN_OR_RETURN(std::vector<topology::ProcessWhere> where,
//                    WhereOnMachine(places, tree));
#ifndef RANKMAP_CLI_RANK_PLACES_H_
#define RANKMAP_CLI_RANK_PLACES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "mpi_bindings/profile_output.h"
#include "topology/process_leaves.h"
#include "topology/tree.h"

namespace rankmap::cli {

struct RankPlaces {
  std::string path;
  std::vector<mpi_bindings::PlacementLine> ranks;  // rank r at index r
};

// The placement file of a profile of `n` ranks. Errors: the reader's (file,
// line, what), and ranks that are not exactly 0..n-1.
absl::StatusOr<RankPlaces> ReadRankPlaces(const std::string& path, int32_t n);
// The same on the file's text, named `path`; sizes checked against
// max_memory_bytes (0: base::MemoryBudget()).
absl::StatusOr<RankPlaces> ParseRankPlaces(std::string_view text,
                                           const std::string& path, int32_t n,
                                           int64_t max_memory_bytes = 0);

// The hosts in the order of their first rank.
std::vector<std::string> HostsInOrder(const RankPlaces& places);

// Each rank's host and CPUs, checked against `tree` as the header says.
// Errors (InvalidArgument) name the file, the rank's line, the host and its
// CPUs; a host the tree lacks (NotFound) names the rank.
absl::StatusOr<std::vector<topology::ProcessWhere>> WhereOnMachine(
    const RankPlaces& places, const topology::Tree& tree);

// The .placement beside a profile: the file name's extension, if any,
// replaced ("run.v2/profile.mat" and "run.v2/profile" both give
// "run.v2/profile.placement"; a dot in a directory's name is no extension).
std::string PlacementBeside(const std::string& profile);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_RANK_PLACES_H_
