#include "cli/topology_command.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "topology/simgrid_platform.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

namespace rankmap::cli {
namespace {

// The text drawing indents each line by its node's depth, so its size grows
// with depth x lines: quadratic for a chain of switches. Trees from tleaf and
// SimGrid zones stop at 256 levels; Slurm and ibnetdiscover switch chains or
// nested hwloc groups can go further.
constexpr int32_t kMaxDrawnLevels = 1024;

}  // namespace

absl::Status RunTopology(const TopologyCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  if (cmd.format == "text") {
    if (tree.height() > kMaxDrawnLevels) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology: the tree is ", tree.height(),
          " levels deep; the text drawing indents every level and stops at ",
          kMaxDrawnLevels, " (--format json writes any depth)"));
    }
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
