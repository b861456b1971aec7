#include "launch/slurm.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "launch/cpu_sets.h"
#include "launch/hwloc_bind.h"

namespace rankmap::launch {

absl::StatusOr<LaunchPlan> SlurmLaunch(const JobPlacement& job,
                                       const std::string& path,
                                       BindingMode binding) {
  if (job.ranks.empty())
    return absl::InvalidArgumentError("launch/slurm: no rank");
  std::string bind_flag, wrapper;
  if (binding != BindingMode::kNone) {
    if (!job.physical) {
      return absl::InvalidArgumentError(
          "launch/slurm: ranks without PU os indexes (tleaf nodes) cannot "
          "be bound; --bind none writes the hostfile alone");
    }
    std::optional<std::vector<std::vector<int32_t>>> shared;
    if (binding != BindingMode::kWrapper)
      shared = SharedLocalBinding(job, RanksByHost(job));
    if (shared.has_value()) {
      bool single = binding != BindingMode::kMask;
      for (const auto& pus : *shared) single = single && pus.size() == 1;
      std::vector<std::string> items;
      for (const auto& pus : *shared)
        items.push_back(single ? absl::StrCat(pus[0]) : HexMask(pus));
      bind_flag =
          absl::StrCat(" --cpu-bind=", single ? "map_cpu:" : "mask_cpu:",
                       absl::StrJoin(items, ","));
    } else {
      wrapper = WrapperPath(path);
      bind_flag = " --cpu-bind=none";
    }
  }
  LaunchPlan plan;
  plan.command = absl::StrCat(
      "SLURM_HOSTFILE=", path, " srun --distribution=arbitrary", bind_flag,
      SharesPus(job) ? " --overcommit" : "", " -n ", job.ranks.size(),
      wrapper.empty() ? "" : absl::StrCat(" ", CommandPath(wrapper)));
  // srun reads lines with fgets into a fixed buffer: a long comment would
  // spill into a bogus host line, so the command is not repeated here.
  std::string hosts =
      "# SLURM_HOSTFILE for srun --distribution=arbitrary: one line per rank\n";
  for (const RankSlot& s : job.ranks) absl::StrAppend(&hosts, s.host, "\n");
  plan.files.push_back({path, std::move(hosts)});
  if (!wrapper.empty()) {
    ASSIGN_OR_RETURN(std::string script, BindWrapperScript(job, wrapper));
    plan.files.push_back({wrapper, std::move(script), /*executable=*/true});
  }
  return plan;
}

}  // namespace rankmap::launch
