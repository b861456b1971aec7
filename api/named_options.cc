#include "api/named_options.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::api {

absl::StatusOr<core::MappingOptions> ResolveOptions(const NamedOptions& names) {
  ASSIGN_OR_RETURN(core::MappingOptions options,
                   core::MappingOptions::Preset(names.preset));
  // The preset sets defaults; a named algorithm wins.
  if (!names.algorithm.empty()) {
    ASSIGN_OR_RETURN(options.algorithm, core::ParseAlgorithm(names.algorithm));
  }
  ASSIGN_OR_RETURN(options.objective, core::ParseObjective(names.objective));
  options.keep_margin = names.keep_margin;
  options.present = names.present;
  options.seed = names.seed;
  options.threads = names.threads;
  if (names.imbalance.has_value()) options.imbalance = *names.imbalance;
  RETURN_IF_ERROR(core::ValidateOptions(options));
  return options;
}

absl::StatusOr<core::MappingOptions> PresetOrAlgorithm(std::string_view name) {
  for (std::string_view preset : core::PresetNames()) {
    if (name == preset) return core::MappingOptions::Preset(preset);
  }
  absl::StatusOr<core::Algorithm> algorithm = core::ParseAlgorithm(name);
  if (!algorithm.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown algorithm '", std::string(name), "' (expected ",
                     core::AlgorithmNameList(", "),
                     ", or a preset: ", core::PresetNameList(), ")"));
  }
  core::MappingOptions options;
  options.algorithm = *algorithm;
  return options;
}

}  // namespace rankmap::api
