#include "launch/rankfile.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "topology/binding.h"

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
                std::vector<std::string> words, bool physical) {
  LaunchPlan plan;
  plan.launch.words = std::move(words);
  plan.launch.words.push_back("-np");
  plan.launch.words.push_back(absl::StrCat(job.ranks.size()));
  plan.command = ShellText(plan.launch);
  std::string text = absl::StrCat("# ", plan.command, " ./app\n");
  for (size_t r = 0; r < job.ranks.size(); ++r) {
    const RankSlot& s = job.ranks[r];
    absl::StrAppend(
        &text, "rank ", r, "=", s.host, " slot=",
        physical ? topology::FormatPuList(s.pus) : absl::StrCat(s.logical),
        "\n");
  }
  plan.files.push_back({path, std::move(text)});
  return plan;
}

}  // namespace

absl::StatusOr<LaunchPlan> OpenMpi4Rankfile(const JobPlacement& job,
                                            const std::string& path) {
  if (job.physical && !job.ranks.empty()) {
    return Plan(job, path,
                {"mpirun", "--use-hwthread-cpus", "--mca",
                 "rmaps_rank_file_physical", "1", "--rankfile", path},
                true);
  }
  ASSIGN_OR_RETURN(const bool cores, LogicalCountsCores(job));
  std::vector<std::string> words = {"mpirun"};
  if (!cores) words.push_back("--use-hwthread-cpus");
  words.insert(words.end(), {"--rankfile", path});
  return Plan(job, path, std::move(words), false);
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
  return Plan(job, path,
              {"mpirun", "--map-by",
               absl::StrCat("rankfile:file=", path, cores ? "" : ":HWTCPUS")},
              false);
}

}  // namespace rankmap::launch
