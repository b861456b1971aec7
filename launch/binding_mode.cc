#include "launch/binding_mode.h"

#include "absl/strings/str_cat.h"

namespace rankmap::launch {

absl::StatusOr<BindingMode> ParseBindingMode(std::string_view name) {
  if (name == "auto") return BindingMode::kAuto;
  if (name == "mask") return BindingMode::kMask;
  if (name == "wrapper") return BindingMode::kWrapper;
  if (name == "none") return BindingMode::kNone;
  return absl::InvalidArgumentError(
      absl::StrCat("--bind: unknown binding '", std::string(name),
                   "' (expected auto, mask, wrapper, none)"));
}

}  // namespace rankmap::launch
