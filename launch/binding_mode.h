// How a launch format binds ranks to CPUs (Slurm and Hydra formats).
#ifndef RANKMAP_LAUNCH_BINDING_MODE_H_
#define RANKMAP_LAUNCH_BINDING_MODE_H_

#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::launch {

enum class BindingMode {
  // The launcher's own per-node list when every node agrees (Slurm map_cpu,
  // or mask_cpu when a rank has several PUs; Hydra user binding), else the
  // hwloc-bind wrapper.
  kAuto,
  // Slurm mask_cpu even for single PUs (Hydra: as kAuto).
  kMask,
  // Always the hwloc-bind wrapper script.
  kWrapper,
  // Hosts only; the launcher's default binding applies.
  kNone,
};

// "auto", "mask", "wrapper", "none". Errors name the value.
absl::StatusOr<BindingMode> ParseBindingMode(std::string_view name);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_BINDING_MODE_H_
