#include "mpi_bindings/profile_window.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace rankmap::mpi_bindings::profile {
namespace {

// Debian's abseil has its own string_view.
absl::string_view A(std::string_view s) { return {s.data(), s.size()}; }
std::string_view S(absl::string_view s) { return {s.data(), s.size()}; }

// Every function the profiler intercepts (profile_c.cc, profile_fortran.cc),
// so any of them can end an iteration.
constexpr std::string_view kMarkable[] = {
    "MPI_Accumulate",
    "MPI_Allgather",
    "MPI_Allgatherv",
    "MPI_Allreduce",
    "MPI_Alltoall",
    "MPI_Alltoallv",
    "MPI_Alltoallw",
    "MPI_Barrier",
    "MPI_Bcast",
    "MPI_Bsend",
    "MPI_Compare_and_swap",
    "MPI_Exscan",
    "MPI_Fetch_and_op",
    "MPI_Gather",
    "MPI_Gatherv",
    "MPI_Get",
    "MPI_Get_accumulate",
    "MPI_Iallgather",
    "MPI_Iallgatherv",
    "MPI_Iallreduce",
    "MPI_Ialltoall",
    "MPI_Ialltoallv",
    "MPI_Ialltoallw",
    "MPI_Ibarrier",
    "MPI_Ibcast",
    "MPI_Ibsend",
    "MPI_Iexscan",
    "MPI_Igather",
    "MPI_Igatherv",
    "MPI_Ineighbor_allgather",
    "MPI_Ineighbor_allgatherv",
    "MPI_Ineighbor_alltoall",
    "MPI_Ineighbor_alltoallv",
    "MPI_Ineighbor_alltoallw",
    "MPI_Ireduce",
    "MPI_Ireduce_scatter",
    "MPI_Ireduce_scatter_block",
    "MPI_Irsend",
    "MPI_Iscan",
    "MPI_Iscatter",
    "MPI_Iscatterv",
    "MPI_Isend",
    "MPI_Issend",
    "MPI_Neighbor_allgather",
    "MPI_Neighbor_allgatherv",
    "MPI_Neighbor_alltoall",
    "MPI_Neighbor_alltoallv",
    "MPI_Neighbor_alltoallw",
    "MPI_Put",
    "MPI_Raccumulate",
    "MPI_Reduce",
    "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block",
    "MPI_Rget",
    "MPI_Rget_accumulate",
    "MPI_Rput",
    "MPI_Rsend",
    "MPI_Scan",
    "MPI_Scatter",
    "MPI_Scatterv",
    "MPI_Send",
    "MPI_Sendrecv",
    "MPI_Sendrecv_replace",
    "MPI_Ssend",
    "MPI_Start",
    "MPI_Startall",
    "MPI_Wait",
    "MPI_Waitall",
    "MPI_Win_fence",
};

absl::Status Bad(std::string_view variable, std::string_view value,
                 std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(A(variable), "='", A(value), "': ", A(what)));
}

// "1st", "2nd", "3rd", "11th", ...
std::string Ordinal(int64_t n) {
  const int64_t tens = n % 100;
  const char* suffix = "th";
  if (tens < 11 || tens > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return absl::StrCat(n, suffix);
}

absl::Status ParseMark(std::string_view text, WindowSettings* s) {
  constexpr std::string_view kVar = "RANKMAP_PROFILE_MARK";
  text = S(absl::StripAsciiWhitespace(A(text)));
  if (text.empty()) return absl::OkStatus();
  if (absl::EqualsIgnoreCase(A(text), "pcontrol")) {
    s->mark = WindowSettings::Mark::kPcontrol;
    return absl::OkStatus();
  }
  std::string_view name = text;
  const size_t slash = text.find('/');
  if (slash != std::string_view::npos) {
    name = text.substr(0, slash);
    if (!absl::SimpleAtoi(A(text.substr(slash + 1)), &s->every) ||
        s->every < 1 || s->every > 1000000000) {
      return Bad(kVar, text,
                 "expected FUNCTION/K with K a whole number from 1 to 1e9");
    }
  }
  if (!IsMarkableFunction(name, &s->function)) {
    return Bad(kVar, text,
               "expected 'pcontrol' or an MPI function the profiler "
               "intercepts (MPI_Allreduce, MPI_Barrier, MPI_Waitall, ...), "
               "optionally /K for every K-th call");
  }
  s->mark = WindowSettings::Mark::kFunction;
  return absl::OkStatus();
}

absl::Status ParseSkip(std::string_view text, WindowSettings* s) {
  constexpr std::string_view kVar = "RANKMAP_PROFILE_SKIP";
  const std::string_view all = S(absl::StripAsciiWhitespace(A(text)));
  if (all.empty()) return absl::OkStatus();
  std::string lower = absl::AsciiStrToLower(A(all));
  absl::string_view v = lower;
  if (absl::ConsumeSuffix(&v, "calls")) {
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(v), &s->skip_count) ||
        s->skip_count < 0) {
      return Bad(kVar, all, "expected a whole number of calls, as '1000calls'");
    }
    s->skip = WindowSettings::Skip::kCalls;
    return absl::OkStatus();
  }
  if (absl::ConsumeSuffix(&v, "s")) {
    if (!absl::SimpleAtod(absl::StripAsciiWhitespace(v), &s->skip_seconds) ||
        !std::isfinite(s->skip_seconds) || s->skip_seconds < 0) {
      return Bad(kVar, all, "expected seconds, as '2.5s'");
    }
    s->skip = WindowSettings::Skip::kSeconds;
    return absl::OkStatus();
  }
  if (!absl::SimpleAtoi(v, &s->skip_count) || s->skip_count < 0) {
    return Bad(kVar, all,
               "expected N (iterations), 'Ss' (seconds after MPI_Init) or "
               "'Ncalls' (recorded calls)");
  }
  if (!s->marks()) {
    return Bad(kVar, all,
               "skipping iterations needs RANKMAP_PROFILE_MARK to say what "
               "an iteration is");
  }
  s->skip = WindowSettings::Skip::kIterations;
  return absl::OkStatus();
}

}  // namespace

bool IsMarkableFunction(std::string_view name, std::string* canonical) {
  name = S(absl::StripAsciiWhitespace(A(name)));
  for (std::string_view f : kMarkable) {
    if (absl::EqualsIgnoreCase(A(f), A(name))) {
      *canonical = std::string(f);
      return true;
    }
  }
  return false;
}

absl::StatusOr<WindowSettings> ParseWindowSettings(
    std::string_view mark, std::string_view skip, std::string_view iterations) {
  WindowSettings s;
  if (absl::Status st = ParseMark(mark, &s); !st.ok()) return st;
  if (absl::Status st = ParseSkip(skip, &s); !st.ok()) return st;
  const std::string_view it = S(absl::StripAsciiWhitespace(A(iterations)));
  if (!it.empty()) {
    if (!absl::SimpleAtoi(A(it), &s.max_iterations) || s.max_iterations < 1) {
      return Bad("RANKMAP_PROFILE_ITERATIONS", it,
                 "expected a whole number of iterations, at least 1");
    }
    if (!s.marks()) {
      return Bad("RANKMAP_PROFILE_ITERATIONS", it,
                 "counting iterations needs RANKMAP_PROFILE_MARK to say what "
                 "an iteration is");
    }
  }
  return s;
}

std::string WindowSettings::Describe() const {
  std::string out;
  switch (mark) {
    case Mark::kNone:
      out = "from MPI_Init to MPI_Finalize";
      break;
    case Mark::kFunction:
      out = every == 1 ? absl::StrCat("iterations end at each ", function)
                       : absl::StrCat("iterations end at every ",
                                      Ordinal(every), " ", function);
      break;
    case Mark::kPcontrol:
      out = "iterations opened by MPI_Pcontrol(1)";
      break;
  }
  const std::string from = marks() ? "from the first iteration " : "from ";
  switch (skip) {
    case Skip::kNone:
      break;
    case Skip::kIterations:
      absl::StrAppend(&out, "; the first ", skip_count, " skipped");
      break;
    case Skip::kSeconds:
      absl::StrAppend(&out, "; ", from, skip_seconds, " s after MPI_Init");
      break;
    case Skip::kCalls:
      absl::StrAppend(&out, "; ", from, "after ", skip_count,
                      " recorded calls");
      break;
  }
  if (max_iterations > 0) {
    absl::StrAppend(&out, "; at most ", max_iterations, " counted");
  }
  return out;
}

ProfileWindow::ProfileWindow(WindowSettings settings)
    : settings_(std::move(settings)) {
  open_ = Started(0.0);
}

bool ProfileWindow::Started(double seconds) const {
  switch (settings_.skip) {
    case WindowSettings::Skip::kNone:
      return true;
    case WindowSettings::Skip::kIterations:
      return ended_ >= settings_.skip_count;
    case WindowSettings::Skip::kSeconds:
      return seconds >= settings_.skip_seconds;
    case WindowSettings::Skip::kCalls:
      return calls_ >= settings_.skip_count;
  }
  return true;
}

bool ProfileWindow::BeforeRecord(double seconds) {
  bool counts = false;
  switch (settings_.mark) {
    case WindowSettings::Mark::kNone:
      if (!open_ && Started(seconds)) open_ = true;
      counts = open_ && !paused_;
      break;
    case WindowSettings::Mark::kFunction:
      counts = open_ && !paused_ && !stopped_;
      break;
    case WindowSettings::Mark::kPcontrol:
      counts = open_ && in_iteration_ && !stopped_;
      break;
  }
  ++calls_;
  return counts;
}

WindowStep ProfileWindow::EndIteration(double seconds) {
  ++ended_;
  WindowStep step = WindowStep::kDiscard;
  if (open_ && !stopped_ && !paused_) {
    ++iterations_;
    step = WindowStep::kCommit;
    if (settings_.max_iterations > 0 &&
        iterations_ >= settings_.max_iterations) {
      stopped_ = true;
    }
  }
  // A function mark's window opens at an iteration boundary, so that only
  // whole iterations count.
  if (!open_ && settings_.mark == WindowSettings::Mark::kFunction &&
      Started(seconds)) {
    open_ = true;
  }
  return step;
}

WindowStep ProfileWindow::AfterCall(std::string_view name, double seconds) {
  if (settings_.mark != WindowSettings::Mark::kFunction ||
      name != settings_.function) {
    return WindowStep::kNone;
  }
  if (++mark_calls_ % settings_.every != 0) return WindowStep::kNone;
  return EndIteration(seconds);
}

WindowStep ProfileWindow::Pcontrol(int level, double seconds) {
  if (level < 0) return WindowStep::kNone;
  if (settings_.mark != WindowSettings::Mark::kPcontrol) {
    if (level == 0 && !paused_) ++pauses_;
    paused_ = level == 0;
    return WindowStep::kNone;
  }
  WindowStep step = WindowStep::kNone;
  if (in_iteration_) {
    in_iteration_ = false;
    step = EndIteration(seconds);
  }
  if (level >= 1) {
    in_iteration_ = true;
    // Each iteration is counted whole or not at all: decided as it opens.
    open_ = Started(seconds);
  }
  return step;
}

std::string ProfileWindow::Describe() const {
  std::string out = settings_.Describe();
  if (pauses_ > 0) {
    absl::StrAppend(&out, "; paused ", pauses_,
                    pauses_ == 1 ? " time" : " times", " by MPI_Pcontrol(0)");
  }
  return out;
}

WindowStep ProfileWindow::Finalize() {
  switch (settings_.mark) {
    case WindowSettings::Mark::kPcontrol:
      if (!in_iteration_) return WindowStep::kNone;
      in_iteration_ = false;
      return EndIteration(0.0);
    case WindowSettings::Mark::kFunction:
      return WindowStep::kDiscard;
    default:
      return WindowStep::kNone;
  }
}

std::string ProfileHeader(std::string_view window, bool marks,
                          std::span<const double> iterations,
                          std::string_view collective_model) {
  std::string out = absl::StrCat("rankmap profile: ", A(window));
  if (!marks) {
    absl::StrAppend(&out, "; window totals");
  } else if (!iterations.empty()) {
    const auto [lo, hi] =
        std::minmax_element(iterations.begin(), iterations.end());
    if (*lo == *hi) {
      absl::StrAppend(&out, "; ", *lo, " iterations on every rank");
    } else {
      absl::StrAppend(&out, "; from ", *lo, " to ", *hi,
                      " iterations per rank");
    }
    if (*hi == 0) {
      absl::StrAppend(&out, "; no complete iteration, no traffic");
    } else if (*lo == *hi) {
      absl::StrAppend(&out, "; traffic per iteration (window totals / ", *lo,
                      ")");
    } else {
      absl::StrAppend(&out,
                      "; traffic per iteration (each rank's row divided by "
                      "its own count)");
    }
  }
  absl::StrAppend(&out, "; collectives: ", A(collective_model));
  return out;
}

std::vector<std::pair<std::string, std::string>> ProfileFacts(
    std::string_view window, bool marks, std::span<const double> iterations,
    std::string_view collective_model) {
  std::vector<std::pair<std::string, std::string>> facts = {
      {"window", std::string(window)}};
  if (!marks) {
    facts.emplace_back("iterations", "none");
    facts.emplace_back("traffic", "window totals");
  } else {
    double lo = 0, hi = 0;
    if (!iterations.empty()) {
      const auto [a, b] =
          std::minmax_element(iterations.begin(), iterations.end());
      lo = *a;
      hi = *b;
    }
    facts.emplace_back("iterations", lo == hi ? absl::StrCat(lo)
                                              : absl::StrCat(lo, "-", hi));
    facts.emplace_back("traffic", hi == 0 ? "none" : "per iteration");
  }
  facts.emplace_back("collectives", std::string(collective_model));
  return facts;
}

absl::StatusOr<double> ParseFlushSeconds(std::string_view value) {
  constexpr std::string_view kVar = "RANKMAP_PROFILE_FLUSH";
  if (value.empty()) return kDefaultFlushSeconds;
  double seconds = 0;
  if (!absl::SimpleAtod(A(value), &seconds) || !std::isfinite(seconds)) {
    return Bad(kVar, value.substr(0, 64),
               "expected seconds between saves of each rank's row, as '2.5' "
               "(0: after every call, negative: never)");
  }
  return seconds;
}

}  // namespace rankmap::mpi_bindings::profile
