#include "launch/local_binding.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "launch/hwloc_bind.h"

namespace rankmap::launch {

absl::StatusOr<LocalBinding> ChooseLocalBinding(
    const JobPlacement& job, const std::vector<std::vector<int32_t>>& groups,
    BindingMode mode, const std::string& path, std::string_view who) {
  LocalBinding b;
  if (mode == BindingMode::kNone) return b;
  if (!job.physical) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(who),
                     ": ranks without PU os indexes (tleaf nodes) cannot be "
                     "bound; --bind none writes the hostfile alone"));
  }
  std::optional<std::vector<std::vector<int32_t>>> shared;
  if (mode != BindingMode::kWrapper) shared = SharedLocalBinding(job, groups);
  if (shared.has_value()) {
    b.kind = LocalBinding::Kind::kList;
    b.list = *std::move(shared);
  } else {
    b.kind = LocalBinding::Kind::kWrapper;
    b.wrapper = WrapperPath(path);
  }
  return b;
}

absl::Status AddWrapperFile(const JobPlacement& job,
                            const LocalBinding& binding, LaunchPlan* plan) {
  if (binding.kind != LocalBinding::Kind::kWrapper) return absl::OkStatus();
  ASSIGN_OR_RETURN(std::string script, BindWrapperScript(job, binding.wrapper));
  plan->files.push_back({binding.wrapper, std::move(script),
                         /*executable=*/true});
  return absl::OkStatus();
}

}  // namespace rankmap::launch
