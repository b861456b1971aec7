// Files the commands write beside their report: text files and the two SVG
// pictures of a mapping (cli/svg.h).
#ifndef RANKMAP_CLI_OUTPUTS_H_
#define RANKMAP_CLI_OUTPUTS_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "core/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli {

// Replaces the file at `path` with `text`. Error: PermissionDenied "<path>:
// cannot write" on any failure.
absl::Status WriteText(const std::string& path, const std::string& text);

// Writes <prefix>.matrix.svg (the heatmap) and <prefix>.tree.svg (processes on
// the tree, coloured by their ancestor at `group_depth`), then names both on
// `out`. Errors: those of WriteText.
absl::Status WritePictures(const std::string& prefix,
                           const topology::Tree& tree,
                           const graphs::CommGraph& graph,
                           const core::Mapping& mapping, int32_t group_depth,
                           std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_OUTPUTS_H_
