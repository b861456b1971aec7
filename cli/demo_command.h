// `rankmap demo`: the quick start's main job. Draws this machine (or the
// given topology), then compares every algorithm on a shuffled 2D 5-point
// stencil with one process per slot, and again on a built-in 64-core cluster
// where mapping matters even when the machine itself is small.
#ifndef RANKMAP_CLI_DEMO_COMMAND_H_
#define RANKMAP_CLI_DEMO_COMMAND_H_

#include <cstdint>
#include <ostream>

#include "absl/status/status.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct DemoCommand {
  Inputs inputs;  // topology defaults to this machine; comm ignored
  uint64_t seed = 1;
  bool quiet = false;
};

// Errors: a bad topology or leaf kind.
absl::Status RunDemo(const DemoCommand& cmd, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_DEMO_COMMAND_H_
