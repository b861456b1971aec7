#include "launch/slurm.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "launch/cpu_sets.h"
#include "launch/hwloc_bind.h"
#include "launch/local_binding.h"

namespace rankmap::launch {

absl::StatusOr<LaunchPlan> SlurmLaunch(const JobPlacement& job,
                                       const std::string& path,
                                       BindingMode binding) {
  if (job.ranks.empty())
    return absl::InvalidArgumentError("launch/slurm: no rank");
  // srun numbers the tasks of each node locally in rank order.
  ASSIGN_OR_RETURN(
      const LocalBinding b,
      ChooseLocalBinding(job, RanksByHost(job), binding, path, "launch/slurm"));
  LaunchPlan plan;
  plan.launch.env = {{"SLURM_HOSTFILE", path}};
  plan.launch.words = {"srun", "--distribution=arbitrary"};
  if (b.kind == LocalBinding::Kind::kList) {
    bool single = binding != BindingMode::kMask;
    for (const auto& pus : b.list) single = single && pus.size() == 1;
    std::vector<std::string> items;
    for (const auto& pus : b.list)
      items.push_back(single ? absl::StrCat(pus[0]) : HexMask(pus));
    plan.launch.words.push_back(absl::StrCat("--cpu-bind=",
                                             single ? "map_cpu:" : "mask_cpu:",
                                             absl::StrJoin(items, ",")));
  } else if (b.kind == LocalBinding::Kind::kWrapper) {
    plan.launch.words.push_back("--cpu-bind=none");
  }
  if (SharesPus(job)) plan.launch.words.push_back("--overcommit");
  plan.launch.words.insert(plan.launch.words.end(),
                           {"-n", absl::StrCat(job.ranks.size())});
  if (!b.wrapper.empty()) plan.launch.words.push_back(CommandPath(b.wrapper));
  plan.command = ShellText(plan.launch);
  // srun reads lines with fgets into a fixed buffer: a long comment would
  // spill into a bogus host line, so the command is not repeated here.
  std::string hosts =
      "# SLURM_HOSTFILE for srun --distribution=arbitrary: one line per rank\n";
  for (const RankSlot& s : job.ranks) absl::StrAppend(&hosts, s.host, "\n");
  plan.files.push_back({path, std::move(hosts)});
  RETURN_IF_ERROR(AddWrapperFile(job, b, &plan));
  return plan;
}

}  // namespace rankmap::launch
