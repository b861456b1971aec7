// Which part of a run the profiler counts, and what an iteration is: the
// window settings read from the environment and the state machine every rank
// runs over its own calls (MPI-free; profile.cc feeds it).
//
// Settings (profile.h has the user's version):
//   RANKMAP_PROFILE_MARK        what ends an iteration: an intercepted MPI
//                               function ("MPI_Allreduce", any case), every
//                               k-th call of it ("MPI_Allreduce/3"), or
//                               "pcontrol" (each MPI_Pcontrol(1) opens one)
//   RANKMAP_PROFILE_SKIP        "N" iterations (needs a mark), "S s" seconds
//                               after MPI_Init ("2.5s"), or "N calls"
//                               recorded calls ("1000calls")
//   RANKMAP_PROFILE_ITERATIONS  stop after N counted iterations (needs a mark)
// MPI_Pcontrol(0) pauses counting and MPI_Pcontrol(level >= 1) resumes it.
//
//   ASSIGN_OR_RETURN(WindowSettings s,
//                    ParseWindowSettings("MPI_Allreduce", "3", ""));
//   ProfileWindow w(s);
//   if (w.BeforeRecord(seconds)) { ...record into the pending traffic... }
//   switch (w.AfterCall("MPI_Allreduce", seconds)) {
//     case WindowStep::kCommit: ...pending -> counted, one more iteration...
//     case WindowStep::kDiscard: ...drop the pending traffic...
//     case WindowStep::kNone: break;
//   }
//
// Invariants: with marks, traffic is counted only in whole iterations: it is
// held as pending until the iteration ends (kCommit) or is dropped (kDiscard:
// before the window opened, while paused, after the last counted iteration);
// iterations() counts the commits. Without marks, everything recorded while
// the window is open counts at once (BeforeRecord true, no pending).
#ifndef RANKMAP_MPI_BINDINGS_PROFILE_WINDOW_H_
#define RANKMAP_MPI_BINDINGS_PROFILE_WINDOW_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::mpi_bindings::profile {

struct WindowSettings {
  enum class Mark { kNone, kFunction, kPcontrol };
  enum class Skip { kNone, kIterations, kSeconds, kCalls };
  Mark mark = Mark::kNone;
  std::string function;  // canonical spelling, "MPI_Allreduce"
  int64_t every = 1;     // every k-th call of `function` ends an iteration
  Skip skip = Skip::kNone;
  int64_t skip_count = 0;  // iterations or calls
  double skip_seconds = 0;
  int64_t max_iterations = 0;  // 0: no limit

  bool marks() const { return mark != Mark::kNone; }
  // "iterations end at every 3rd MPI_Allreduce; the first 3 skipped; at most
  // 10 counted" / "from MPI_Init to MPI_Finalize".
  std::string Describe() const;
};

// Reads the three variables' values (empty: unset). Errors (InvalidArgument)
// are one line naming the variable, its value and what was expected, e.g.
// "RANKMAP_PROFILE_MARK='MPI_Allreduc': not an MPI function the profiler
// intercepts (MPI_Allreduce, MPI_Barrier, ...)".
absl::StatusOr<WindowSettings> ParseWindowSettings(std::string_view mark,
                                                   std::string_view skip,
                                                   std::string_view iterations);

// RANKMAP_PROFILE_FLUSH's value (empty: unset): the seconds between saves of
// each rank's row (profile.h), kDefaultFlushSeconds when unset; 0 saves after
// every recorded call, a negative value never. Error (InvalidArgument): not
// a finite number ("abc", "nan", "5s"), one line naming the variable.
inline constexpr double kDefaultFlushSeconds = 10.0;
absl::StatusOr<double> ParseFlushSeconds(std::string_view value);

// Whether `name` (any case) is a function the profiler intercepts; its
// canonical spelling in *canonical.
bool IsMarkableFunction(std::string_view name, std::string* canonical);

enum class WindowStep { kNone, kCommit, kDiscard };

class ProfileWindow {
 public:
  explicit ProfileWindow(WindowSettings settings = {});

  // A call that records traffic is about to: counts it (for a skip in calls)
  // and says whether its traffic counts. `seconds` since MPI_Init.
  bool BeforeRecord(double seconds);
  // After intercepted call `name` (its traffic recorded).
  WindowStep AfterCall(std::string_view name, double seconds);
  // MPI_Pcontrol(level).
  WindowStep Pcontrol(int level, double seconds);
  // MPI_Finalize: an iteration opened by MPI_Pcontrol(1) ends here; the
  // traffic after the last mark of a function is an unfinished iteration.
  WindowStep Finalize();

  const WindowSettings& settings() const { return settings_; }
  int64_t iterations() const { return iterations_; }
  // settings().Describe(), and how often MPI_Pcontrol(0) paused the window:
  // "from MPI_Init to MPI_Finalize; paused 9 times by MPI_Pcontrol(0)".
  std::string Describe() const;

 private:
  // An iteration ends here; commit it when the window counts it.
  WindowStep EndIteration(double seconds);
  bool Started(double seconds) const;

  WindowSettings settings_;
  bool paused_ = false;
  bool open_ = false;          // the window has opened (skip condition met)
  bool stopped_ = false;       // max_iterations counted
  bool in_iteration_ = false;  // pcontrol: between Pcontrol(1) and its end
  int64_t calls_ = 0;          // recorded calls so far
  int64_t mark_calls_ = 0;     // calls of the mark function
  int64_t ended_ = 0;          // iterations ended (counted or not)
  int64_t iterations_ = 0;     // iterations counted
  int64_t pauses_ = 0;         // MPI_Pcontrol(0) calls that paused counting
};

// The comment line that heads the profile's matrices, without "# ":
// "rankmap profile: <window>; <N> iterations on every rank; traffic per
// iteration (window totals / N); collectives: <model>" or, without marks,
// "rankmap profile: <window>; window totals; collectives: <model>". `window`
// is WindowSettings::Describe(); `iterations` holds the ranks' counts (ignored
// without marks); counts that differ are reported as a range.
std::string ProfileHeader(std::string_view window, bool marks,
                          std::span<const double> iterations,
                          std::string_view collective_model);

// The same as key-value facts for the profile's side file (profile_output.h):
//   window=<window>
//   iterations=<N>, <lo>-<hi> (counts that differ), or "none" without marks
//   traffic=per iteration | window totals | none (no complete iteration)
//   collectives=<model>
std::vector<std::pair<std::string, std::string>> ProfileFacts(
    std::string_view window, bool marks, std::span<const double> iterations,
    std::string_view collective_model);

}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_PROFILE_WINDOW_H_
