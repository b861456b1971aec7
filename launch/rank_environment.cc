#include "launch/rank_environment.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rankmap::launch {

namespace {

struct RankVariables {
  const char* rank;
  std::vector<const char*> sizes;  // the first one set wins
};

// In the order of the header's comment: the first one set names the rank.
const std::vector<RankVariables>& Variables() {
  static const auto* const kVariables = new std::vector<RankVariables>{
      {"OMPI_COMM_WORLD_RANK", {"OMPI_COMM_WORLD_SIZE"}},
      {"PMI_RANK", {"PMI_SIZE"}},
      {"PMIX_RANK", {}},
      {"SLURM_PROCID", {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}},
  };
  return *kVariables;
}

}  // namespace

std::string ShellRankExpression() {
  std::string out, close;
  for (const RankVariables& v : Variables()) {
    absl::StrAppend(&out, "${", v.rank, ":-");
    close += "}";
  }
  return out + close;
}

absl::StatusOr<ProcessRank> RankFromEnvironment(
    const char* (*lookup)(const char*)) {
  for (const RankVariables& v : Variables()) {
    const char* value = lookup(v.rank);
    if (value == nullptr || *value == '\0') continue;
    ProcessRank r;
    r.variable = v.rank;
    if (!absl::SimpleAtoi(value, &r.rank) || r.rank < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(v.rank, "='", value, "' is not a rank"));
    }
    for (const char* size_name : v.sizes) {
      const char* size = lookup(size_name);
      if (size == nullptr || *size == '\0') continue;
      if (!absl::SimpleAtoi(size, &r.size) || r.size <= r.rank) {
        return absl::InvalidArgumentError(absl::StrCat(
            size_name, "='", size, "' is not a job size above rank ", r.rank));
      }
      break;
    }
    return r;
  }
  return absl::FailedPreconditionError(
      "no rank in the environment: none of OMPI_COMM_WORLD_RANK, PMI_RANK, "
      "PMIX_RANK, SLURM_PROCID is set (start it under mpirun, mpiexec.hydra "
      "or srun)");
}

}  // namespace rankmap::launch
