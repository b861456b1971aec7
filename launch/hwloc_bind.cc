#include "launch/hwloc_bind.h"

#include "absl/strings/str_cat.h"
#include "base/shell_quote.h"
#include "launch/cpu_sets.h"
#include "launch/rank_environment.h"

namespace rankmap::launch {
namespace {

absl::Status NeedPus(const JobPlacement& job, std::string_view what) {
  for (size_t r = 0; r < job.ranks.size(); ++r) {
    if (job.ranks[r].pus.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(what), ": rank ", r, " on host '", job.ranks[r].host,
          "' has no PU os indexes (a tleaf node); binding needs hwloc "
          "nodes (an XML export or a synthetic description per node)"));
    }
  }
  if (job.ranks.empty())
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), ": no rank"));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LaunchPlan> HwlocCpusets(const JobPlacement& job,
                                        const std::string& path) {
  if (absl::Status s = NeedPus(job, "launch/hwloc"); !s.ok()) return s;
  LaunchPlan plan;
  plan.command =
      absl::StrCat("hwloc-bind $(awk -v r=$RANK '$1 == r {print $3}' ",
                   base::ShellQuote(path), ") --");
  std::string text = absl::StrCat(
      "# rank host cpuset; in each rank: ", plan.command, " ./app\n");
  for (size_t r = 0; r < job.ranks.size(); ++r) {
    absl::StrAppend(&text, r, " ", job.ranks[r].host, " ",
                    HwlocCpuset(job.ranks[r].pus), "\n");
  }
  plan.files.push_back({path, std::move(text)});
  return plan;
}

absl::StatusOr<std::string> BindWrapperScript(const JobPlacement& job,
                                              const std::string& name) {
  if (absl::Status s = NeedPus(job, "launch/wrapper"); !s.ok()) return s;
  std::string out = absl::StrCat(
      "#!/bin/sh\n"
      "# Binds this rank as the mapping says, then runs the program.\n"
      "rank=",
      ShellRankExpression(), "\n", "case \"$rank\" in\n");
  for (size_t r = 0; r < job.ranks.size(); ++r) {
    absl::StrAppend(&out, "  ", r, ") cpus=", HwlocCpuset(job.ranks[r].pus),
                    " ;;\n");
  }
  // The name is quoted on its own: inside the double quotes a `$(...)` in
  // it would run.
  absl::StrAppend(&out, "  *) echo ", base::ShellQuote(name),
                  "\": no CPUs for rank '$rank'\" >&2; exit 1 ;;\n"
                  "esac\n"
                  "exec hwloc-bind \"$cpus\" -- \"$@\"\n");
  return out;
}

std::string WrapperPath(const std::string& path) {
  return absl::StrCat(path, ".bind.sh");
}

std::string CommandPath(const std::string& path) {
  // "./" also keeps a relative path that starts with '-' from reading as an
  // option.
  if (path.starts_with('/') || path.starts_with("./") ||
      path.starts_with("../"))
    return path;
  return absl::StrCat("./", path);
}

}  // namespace rankmap::launch
