#include "cli/topology_command.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "topology/simgrid_platform.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

namespace rankmap::cli {

absl::Status RunTopology(const TopologyCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  if (cmd.format == "text") {
    out << topology::DrawTree(tree);
  } else if (cmd.format == "json") {
    out << topology::ToJson(tree) << "\n";
  } else if (cmd.format == "tleaf") {
    ASSIGN_OR_RETURN(std::string line, topology::WriteTleaf(tree));
    out << line << "\n";
  } else if (cmd.format == "simgrid") {
    ASSIGN_OR_RETURN(std::string xml, topology::WriteSimGridPlatform(tree));
    out << xml;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--format: unknown topology format '", cmd.format,
                     "' (expected text, json, tleaf, simgrid)"));
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
