// Files the profiler writes: the traffic matrices of a job in the formats
// graphs/ reads, what the profile says about itself, the rows processes save
// on the way, and where each rank ran.
//
//   std::vector<double> bytes(n * n);  // bytes[i * n + j]: i sent to j
//   RETURN_IF_ERROR(WriteProfile("out/app", n, bytes, messages, notes));
//   // -> out/app.mat (bytes, dense), out/app.msgs.mat (message counts),
//   //    out/app.grf (Scotch), out/app.profile (what they hold)
//   ASSIGN_OR_RETURN(std::vector<RankPlacement> where,
//                    ParsePlacement(text, "out/app.placement"));
//
// Each file is in its owner's format and nothing else, so that the tools
// that define them read them as they are:
// `.mat` is TopoMatch's dense format: n lines of n numbers, row i holding
// what i sent to each j, whitespace separated (directed; readers
// symmetrise). TopoMatch takes the order from the number of lines and reads
// every line as numbers, so the file has no comment. `.msgs.mat` is the same
// of message counts. `.grf` is the Scotch source graph of the symmetrised
// volumes (w(i, j) = bytes i->j + bytes j->i, self traffic dropped, weights
// rounded to integers as Scotch requires).
// Profiles of earlier releases began both .mat files with '#' comment lines
// ("# rankmap profile: ..."); graphs/ still skips them.
//
// prefix.profile, what the profile says about itself, one key=value a line
// after a '#' line (values on one line; later keys of the same name win):
//   # rankmap profile: <ProfileHeader's summary>
//   processes=4
//   window=from MPI_Init to MPI_Finalize
//   iterations=none            (or the count, or lo-hi when ranks differ)
//   traffic=window totals      (or "per iteration", or "none")
//   collectives=library
//   partial=<why>              (a partial profile only)
//   bytes=app.mat              (the files beside it, by name)
//   messages=app.msgs.mat
//   graph=app.grf
//   placement=app.placement
//   hardware=app.hwloc         (a directory of <host>.xml, when written)
//
// prefix.placement, one line per world rank after a '#' line:
//   # rankmap placement of 4 ranks: <rank> <host> <cpu list> (...)
//   0 node7 0-1
//   1 node7 2-3
//   2 node8 0,4
//   3 node8 1
// <host> is the rank's gethostname (checked against the hostname grammar,
// base/host_name.h); <cpu list> the operating system's indexes of the CPUs
// sched_getaffinity allowed the rank at MPI_Init, in ranges ("4-5,12"). A
// partial profile's file lists the ranks that saved a row.
#ifndef RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_
#define RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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

// What goes into prefix.profile.
struct ProfileNotes {
  // What the numbers are in one line (profile_window.h's ProfileHeader):
  // "rankmap profile: ...".
  std::string window;
  // The same as facts (profile_window.h's ProfileFacts).
  std::vector<std::pair<std::string, std::string>> facts;
  // Set for a profile some processes did not finish: "rank 3 called
  // MPI_Abort ...".
  std::string partial;
};

// prefix.profile.
std::string ProfileSidePath(const std::string& prefix);

// Writes prefix.mat, prefix.msgs.mat and prefix.grf, bare, and prefix.profile
// (the top of this file); prefix.partial holds the partial note, and a stale
// one is removed from a complete profile. Errors: bad matrices, unwritable
// files (named in the message with the system's reason).
absl::Status WriteProfile(const std::string& prefix, int32_t n,
                          std::span<const double> bytes,
                          std::span<const double> messages,
                          const ProfileNotes& notes = {});

// Reads a side file: '#' lines and blank lines skipped, then key=value lines
// (keys of letters, digits and '_'). Errors name `name`, the line and what
// was wrong. O(size of text).
absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
ParseProfileSide(std::string_view text, std::string_view name);

// ---- Where each rank ran.

struct RankPlacement {
  int32_t rank = 0;
  std::string host;
  std::vector<int32_t> cpus;  // operating-system indexes, ascending, distinct
};

// Largest CPU index a placement file may name (Linux's NR_CPUS is at most
// 8192; this leaves room).
inline constexpr int32_t kMaxCpuIndex = (1 << 20) - 1;

// "0-3,8" for {0, 1, 2, 3, 8}; input in any order, duplicates dropped. (The
// syntax of topology/binding.h's FormatPuList, kept here so that the
// preloaded profiler needs no hwloc.)
std::string FormatCpuList(std::span<const int32_t> cpus);
// Inverse of FormatCpuList: ranges "a-b" (a <= b) and single indexes, comma
// separated, each <= kMaxCpuIndex, at most max_cpus CPUs in all (counted
// before any range is expanded). Errors say which part is wrong.
absl::StatusOr<std::vector<int32_t>> ParseCpuList(std::string_view text,
                                                  int64_t max_cpus);
// How many CPUs the list names (ranges counted, duplicates too), with
// ParseCpuList's checks, without expanding it. O(length of text).
absl::StatusOr<int64_t> CountCpuList(std::string_view text);

// prefix.placement.
std::string PlacementPath(const std::string& prefix);

// prefix.hwloc: the directory of the hosts' hardware, one hwloc XML export
// per host the job ran on (<host>.xml, written by the lowest rank there).
std::string HardwareDirectory(const std::string& prefix);
// The file's text for `ranks` of a job of world_size ranks; `note` (may be
// empty) ends the header line, as "partial: no row from ranks 3-4".
std::string FormatPlacement(std::span<const RankPlacement> ranks,
                            int32_t world_size, std::string_view note);
// One line of a placement file, its CPU list not yet expanded: a reader that
// knows the host's CPUs bounds the list by them first (cli/rank_places.h).
struct PlacementLine {
  int32_t rank = 0;
  std::string host;
  std::string cpu_list;  // as written, e.g. "0-3,8"
  int64_t line = 0;      // 1-based
};

// The lines of a placement file, sorted by rank, with the checks of
// ParsePlacement but the CPU lists only checked for their syntax and
// bounds (kMaxCpuIndex), not expanded. O(size of text).
absl::StatusOr<std::vector<PlacementLine>> ParsePlacementLines(
    std::string_view text, std::string_view name, int64_t max_memory_bytes = 0);

// Reads a placement file: '#' comments and blank lines skipped, then lines
// "<rank> <host> <cpu list>", ranks distinct and below 2^24, in any order;
// the result is sorted by rank. A complete profile's file lists ranks
// 0..n-1; callers that need every rank check the count. Errors name `name`,
// the line and what was wrong (a bad rank, a repeated one, a host name
// outside the hostname grammar, a bad CPU list); sizes are checked against
// max_memory_bytes (0: base::MemoryBudget()) before anything is allocated,
// the CPUs of all lines together before any list is expanded.
// O(size of text).
absl::StatusOr<std::vector<RankPlacement>> ParsePlacement(
    std::string_view text, std::string_view name, int64_t max_memory_bytes = 0);

// ---- Rows saved while the job runs.

// What one process recorded, saved so that a job that aborts or exits early
// still leaves its traffic behind.
struct ProfileRow {
  int32_t rank = 0;
  int32_t world_size = 0;
  // "running", "aborted (MPI_Abort error code 3)", "exited without
  // MPI_Finalize".
  std::string state;
  // world_size entries each (TrafficModel's rows): what the window counted.
  std::vector<double> bytes, messages, fetched_bytes, fetched_messages;
  // The window (profile_window.h): its description, whether iterations are
  // marked and how many this rank counted, and the collective model's name.
  std::string window = "from MPI_Init to MPI_Finalize";
  bool marks = false;
  int64_t iterations = 0;
  std::string collectives = "star";
  // Where this rank ran; empty host when not known.
  std::string host;
  std::vector<int32_t> cpus;
};

// With marked iterations and iterations >= 1, divides the row's four vectors
// by the number of iterations (traffic per iteration); otherwise leaves it.
void PerIteration(ProfileRow* row);

// prefix.part.<rank>: where process `rank` saves its row.
std::string RowPath(const std::string& prefix, int32_t rank);

// Text form: "rankmap-profile-row <rank> <world_size>", the state line,
// "window <marks 0|1> <iterations> <collectives> <description>", optionally
// "placement <host> <cpu list>", then "j bytes messages fetched_bytes
// fetched_messages" for every j with a non-zero entry. O(world_size).
std::string FormatRow(const ProfileRow& row);
// Errors name `name`: a bad header, a bad or out-of-range line, a size beyond
// the memory budget.
absl::StatusOr<ProfileRow> ParseRow(std::string_view text,
                                    std::string_view name);

// Writes `contents` to a temporary beside `path` and renames it over `path`,
// so that no reader sees half a file. Errors carry the system's reason.
absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view contents);

// Merges the saved rows of a job of `world_size` processes into WriteProfile's
// files, marked partial with `reason` and the ranks whose rows are missing or
// not finished, each row per iteration when iterations are marked (as
// PerIteration); writes prefix.placement for the ranks whose rows say where
// they ran. Holds an exclusive lock on prefix.lock meanwhile, so ranks
// merging at once leave the last merge complete. Returns a one-line summary.
// Errors: no row at all, unreadable or unwritable files, a size beyond the
// memory budget (the outputs are dense world_size^2 matrices).
absl::StatusOr<std::string> MergePartialProfile(const std::string& prefix,
                                                int32_t world_size,
                                                std::string_view reason);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_
