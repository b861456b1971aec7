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

// mpirun hands the rankfile's path to the daemons it starts on other nodes
// inside a double-quoted word of the remote shell's command line (measured
// with Open MPI 4.1 and its rsh launcher): there '$', '`', '"' and '\'
// would be expanded or end the word.
absl::Status CheckRemotePath(const std::string& path, std::string_view who) {
  const size_t at = path.find_first_of("$`\"\\");
  if (at == std::string::npos) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      std::string(who), ": the rankfile path '", path, "' holds a '",
      std::string(1, path[at]),
      "', which the remote shell mpirun passes it to would expand; choose "
      "another output path"));
}

}  // namespace

absl::StatusOr<LaunchPlan> OpenMpi4Rankfile(const JobPlacement& job,
                                            const std::string& path) {
  RETURN_IF_ERROR(CheckRemotePath(path, "launch/rankfile"));
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
  RETURN_IF_ERROR(CheckRemotePath(path, "launch/ompi5"));
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
