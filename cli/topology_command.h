// `rankmap topology`: the (merged) tree of a topology, drawn as text or
// printed as JSON or a tleaf line.
#ifndef RANKMAP_CLI_TOPOLOGY_COMMAND_H_
#define RANKMAP_CLI_TOPOLOGY_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct TopologyCommand {
  Inputs inputs;                // comm ignored
  std::string format = "text";  // text | json | tleaf
};

// Errors: a bad topology, an unknown format, a tree tleaf cannot describe, a
// text drawing of a tree more than 1024 levels deep (its indentation would
// grow quadratically; JSON has no such limit).
absl::Status RunTopology(const TopologyCommand& cmd, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_TOPOLOGY_COMMAND_H_
