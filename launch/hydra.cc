#include "launch/hydra.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "launch/cpu_sets.h"
#include "launch/hwloc_bind.h"
#include "launch/local_binding.h"

namespace rankmap::launch {

absl::StatusOr<LaunchPlan> HydraLaunch(const JobPlacement& job,
                                       const std::string& path,
                                       BindingMode binding) {
  if (job.ranks.empty())
    return absl::InvalidArgumentError("launch/hydra: no rank");
  // Runs of consecutive ranks on one host: one hostfile line and one proxy
  // each, with local ranks counted per run.
  std::vector<std::vector<int32_t>> runs;
  for (size_t r = 0; r < job.ranks.size(); ++r) {
    if (runs.empty() || job.ranks[runs.back()[0]].host != job.ranks[r].host)
      runs.emplace_back();
    runs.back().push_back(static_cast<int32_t>(r));
  }
  ASSIGN_OR_RETURN(
      const LocalBinding b,
      ChooseLocalBinding(job, runs, binding, path, "launch/hydra"));
  LaunchPlan plan;
  plan.launch.words = {"mpiexec.hydra", "-f", path};
  if (b.kind == LocalBinding::Kind::kList) {
    std::vector<std::string> items;
    for (const auto& pus : b.list) items.push_back(JoinPus(pus, "+"));
    plan.launch.words.insert(
        plan.launch.words.end(),
        {"-bind-to", absl::StrCat("user:", absl::StrJoin(items, ","))});
  }
  plan.launch.words.insert(plan.launch.words.end(),
                           {"-n", absl::StrCat(job.ranks.size())});
  if (!b.wrapper.empty()) plan.launch.words.push_back(CommandPath(b.wrapper));
  plan.command = ShellText(plan.launch);
  // Hydra reads lines into a fixed buffer: a long comment would spill into a
  // bogus host line, so the command is not repeated here.
  std::string hosts = "# mpiexec.hydra -f: host:count runs in rank order\n";
  for (const std::vector<int32_t>& run : runs)
    absl::StrAppend(&hosts, job.ranks[run[0]].host, ":", run.size(), "\n");
  plan.files.push_back({path, std::move(hosts)});
  RETURN_IF_ERROR(AddWrapperFile(job, b, &plan));
  return plan;
}

}  // namespace rankmap::launch
