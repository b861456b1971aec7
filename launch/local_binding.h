// How launchers that bind by node-local task number (Slurm's map_cpu and
// mask_cpu, Hydra's user list) bind a job: one list applied on every node when
// every node's local tasks agree with it, else the hwloc-bind wrapper
// (launch/hwloc_bind.h).
//
//   ASSIGN_OR_RETURN(LocalBinding b, ChooseLocalBinding(job, RanksByHost(job),
//                                                       mode, path,
//                                                       "launch/slurm"));
//   if (b.kind == LocalBinding::Kind::kList) ... b.list[k] is local task k's
//   PUs RETURN_IF_ERROR(AddWrapperFile(job, b, &plan));
#ifndef RANKMAP_LAUNCH_LOCAL_BINDING_H_
#define RANKMAP_LAUNCH_LOCAL_BINDING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "launch/binding_mode.h"
#include "launch/job_placement.h"
#include "launch/launch_plan.h"

namespace rankmap::launch {

struct LocalBinding {
  enum class Kind { kNone, kList, kWrapper };
  Kind kind = Kind::kNone;
  // kList: the PU set of local task k on every node.
  std::vector<std::vector<int32_t>> list;
  // kWrapper: where the wrapper script goes (WrapperPath of the main file).
  std::string wrapper;
};

// `groups` are the ranks of each launcher-side group (node, proxy) in local
// order; `path` is the main file's. kNone gives kNone, kWrapper the wrapper,
// kAuto and kMask the list when SharedLocalBinding finds one, else the wrapper.
// Errors (prefixed with `who`): binding ranks that have no PU os indexes.
absl::StatusOr<LocalBinding> ChooseLocalBinding(
    const JobPlacement& job, const std::vector<std::vector<int32_t>>& groups,
    BindingMode mode, const std::string& path, std::string_view who);

// Adds the wrapper script to plan->files when binding.kind is kWrapper.
absl::Status AddWrapperFile(const JobPlacement& job,
                            const LocalBinding& binding, LaunchPlan* plan);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_LOCAL_BINDING_H_
