#include "launch/rankfile.h"

#include "absl/strings/str_cat.h"
#include "base/cpu_list.h"
#include "base/shell_quote.h"
#include "base/status_macros.h"

namespace rankmap::launch {
namespace {

// Whether logical numbers count cores; errors when ranks disagree.
absl::StatusOr<bool> LogicalCountsCores(const JobPlacement& job) {
  if (job.ranks.empty())
    return absl::InvalidArgumentError("launch/rankfile: no rank");
  const bool cores = job.ranks[0].logical_is_core;
  for (size_t r = 1; r < job.ranks.size(); ++r) {
    if (job.ranks[r].logical_is_core != cores) {
      return absl::InvalidArgumentError(absl::StrCat(
          "launch/rankfile: rank 0 is numbered by ", cores ? "core" : "PU",
          " but rank ", r, " by ", cores ? "PU" : "core",
          "; a rankfile numbers one kind (map onto leaves of one kind)"));
    }
  }
  return cores;
}

LaunchPlan Plan(const JobPlacement& job, const std::string& path,
                std::string command, bool physical) {
  std::string text = absl::StrCat("# ", command, " ./app\n");
  for (size_t r = 0; r < job.ranks.size(); ++r) {
    const RankSlot& s = job.ranks[r];
    absl::StrAppend(
        &text, "rank ", r, "=", s.host, " slot=",
        physical ? base::FormatCpuList(s.pus) : absl::StrCat(s.logical), "\n");
  }
  return {{{path, std::move(text)}}, std::move(command)};
}

}  // namespace

absl::StatusOr<LaunchPlan> OpenMpi4Rankfile(const JobPlacement& job,
                                            const std::string& path) {
  const std::string np = absl::StrCat(" -np ", job.ranks.size());
  if (job.physical && !job.ranks.empty()) {
    return Plan(job, path,
                absl::StrCat("mpirun --use-hwthread-cpus --mca "
                             "rmaps_rank_file_physical 1 --rankfile ",
                             base::ShellQuote(path), np),
                true);
  }
  ASSIGN_OR_RETURN(const bool cores, LogicalCountsCores(job));
  return Plan(job, path,
              absl::StrCat("mpirun ", cores ? "" : "--use-hwthread-cpus ",
                           "--rankfile ", base::ShellQuote(path), np),
              false);
}

absl::StatusOr<LaunchPlan> OpenMpi5Rankfile(const JobPlacement& job,
                                            const std::string& path) {
  ASSIGN_OR_RETURN(const bool cores, LogicalCountsCores(job));
  // PRRTE splits the --map-by value at ':', so the path cannot hold one.
  if (path.find(':') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "launch/ompi5: the rankfile path '", path,
        "' holds a ':', which mpirun --map-by rankfile:file=... cannot read"));
  }
  return Plan(
      job, path,
      absl::StrCat("mpirun --map-by ",
                   base::ShellQuote(absl::StrCat("rankfile:file=", path,
                                                 cores ? "" : ":HWTCPUS")),
                   " -np ", job.ranks.size()),
      false);
}

}  // namespace rankmap::launch
