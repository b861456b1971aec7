// Files the profiler writes: the traffic matrix of a job in the formats graphs/
// reads.
//
//   std::vector<double> bytes(n * n);   // bytes[i * n + j]: bytes world rank i
//   sent to j RETURN_IF_ERROR(WriteProfile("out/app", n, bytes, messages));
//   // -> out/app.mat (bytes, dense), out/app.msgs.mat (message counts),
//   out/app.grf (Scotch)
//
// `.mat` is the TopoMatch dense format: row i holds what i sent to each j,
// whitespace separated, one row per line (directed; readers symmetrise). `.grf`
// is the Scotch source graph of the symmetrised volumes (w(i, j) = bytes i->j +
// bytes j->i, self traffic dropped, weights rounded to integers as Scotch
// requires).
#ifndef RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_
#define RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::mpi_bindings {

// Dense text of an n x n row-major matrix; integral values print without a
// fraction.
std::string FormatDenseMatrix(int32_t n, std::span<const double> matrix);

// Scotch `.grf` text of a graph (edge weights, no vertex weights, base 0).
std::string FormatScotchGraph(const graphs::CommGraph& graph);

// The symmetric CommGraph of a directed n x n matrix. Errors: wrong size,
// negative or non-finite entries.
absl::StatusOr<graphs::CommGraph> GraphFromMatrix(
    int32_t n, std::span<const double> matrix);

// Writes prefix.mat, prefix.msgs.mat and prefix.grf. With a `partial_note`
// (a profile some processes did not finish), both .mat files start with the
// comment line "# partial profile: <note>" and prefix.partial holds the note;
// without one, a stale prefix.partial is removed. Errors: bad matrices,
// unwritable files (named in the message with the system's reason).
absl::Status WriteProfile(const std::string& prefix, int32_t n,
                          std::span<const double> bytes,
                          std::span<const double> messages,
                          std::string_view partial_note = "");

// What one process recorded, saved while the job runs so that a job that
// aborts or exits early still leaves its traffic behind.
struct ProfileRow {
  int32_t rank = 0;
  int32_t world_size = 0;
  // "running", "aborted (MPI_Abort error code 3)", "exited without
  // MPI_Finalize".
  std::string state;
  // world_size entries each (TrafficModel's rows).
  std::vector<double> bytes, messages, fetched_bytes, fetched_messages;
};

// prefix.part.<rank>: where process `rank` saves its row.
std::string RowPath(const std::string& prefix, int32_t rank);

// Text form: "rankmap-profile-row <rank> <world_size>", the state line, then
// "j bytes messages fetched_bytes fetched_messages" for every j with a
// non-zero entry. O(world_size).
std::string FormatRow(const ProfileRow& row);
// Errors name `name`: a bad header, a bad or out-of-range line.
absl::StatusOr<ProfileRow> ParseRow(std::string_view text,
                                    std::string_view name);

// Writes `contents` to a temporary beside `path` and renames it over `path`,
// so that no reader sees half a file. Errors carry the system's reason.
absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view contents);

// Merges the saved rows of a job of `world_size` processes into WriteProfile's
// files, marked partial with `reason` and the ranks whose rows are missing or
// not finished; holds an exclusive lock on prefix.lock meanwhile, so ranks
// merging at once leave the last merge complete. Returns a one-line summary.
// Errors: no row at all, unreadable or unwritable files, a size beyond the
// memory budget (the outputs are dense world_size^2 matrices).
absl::StatusOr<std::string> MergePartialProfile(const std::string& prefix,
                                                int32_t world_size,
                                                std::string_view reason);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_
