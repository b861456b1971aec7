// NamedOptions: the engine's options as every interface spells them (names
// and plain numbers), resolved into core::MappingOptions in one place.
//
// The command, the C API, Python and the MPI libraries all take a preset, an
// algorithm, an objective and the rest by name. Resolving them here gives
// every interface the same rule: the preset sets the defaults, then a named
// algorithm replaces the preset's, then the other fields are set as given.
//
//   NamedOptions names;
//   names.preset = "fast";
//   names.objective = "time";
//   names.seed = 7;
//   ASSIGN_OR_RETURN(core::MappingOptions o, ResolveOptions(names));
//
//   // One string that names either (RANKMAP_ALGORITHM, the MPI C API):
//   ASSIGN_OR_RETURN(core::MappingOptions o, PresetOrAlgorithm("strong"));
//
// Errors are the engine's own messages (core/model/options.h: "unknown
// algorithm 'x' (expected ...)"), so every interface reports a bad name alike.
#ifndef RANKMAP_API_NAMED_OPTIONS_H_
#define RANKMAP_API_NAMED_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/options.h"

namespace rankmap::api {

struct NamedOptions {
  std::string preset = "default";  // fast | default | strong
  std::string algorithm;           // core::Algorithms(); "": the preset's
  std::string objective = "auto";  // auto | j | time (core::ParseObjective)
  // Relative lead a mapping needs to replace the present order (time
  // objective; core/strategies/present_order.h).
  double keep_margin = 0.02;
  // The order the job has now: one leaf (index in the tree) per process;
  // empty: the identity (packed) order. Checked by core::Map.
  std::vector<int32_t> present;
  uint64_t seed = 1;
  int32_t threads = 1;  // results do not depend on it
  // n-to-1 imbalance; nullopt: the engine's default (0.03).
  std::optional<double> imbalance;
};

// The preset's options with the named algorithm, objective and the other
// fields applied, then validated (core::ValidateOptions). Errors: an unknown
// preset, algorithm or objective; a keep_margin outside [0, 1); a negative
// thread count; an imbalance that is negative or not finite.
absl::StatusOr<core::MappingOptions> ResolveOptions(const NamedOptions& names);

// One name that is either a preset (its options) or an algorithm (the default
// preset with that algorithm). Presets and algorithms share no name. Errors:
// a name that is neither, the message starting "unknown algorithm '<name>'"
// and listing both sets.
absl::StatusOr<core::MappingOptions> PresetOrAlgorithm(std::string_view name);

}  // namespace rankmap::api

#endif  // RANKMAP_API_NAMED_OPTIONS_H_
