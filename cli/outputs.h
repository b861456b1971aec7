// Files the commands write beside their report: text files, the SVG
// pictures of a mapping and the HTML report that holds them (cli/pictures/).
// Each goes into the command's FileBatch (base/file_batch.h), which the
// command commits once every output is ready: a failure leaves none.
#ifndef RANKMAP_CLI_OUTPUTS_H_
#define RANKMAP_CLI_OUTPUTS_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "base/file_batch.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli {

// `text` for the file at `path`, into `files`. Errors: FileBatch::Write's
// (naming the path and the system's reason).
absl::Status WriteText(base::FileBatch& files, const std::string& path,
                       const std::string& text);

// Writes <prefix>.tree.svg (the tree with the processes on it, leaf boxes
// tinted by their ancestor at `group_depth`), <prefix>.matrix.svg (the
// heatmap with the tree's boundaries) and <prefix>.volume.svg (volume per
// level, from `cost`), then names them on `out`. Errors: those of WriteText.
absl::Status WritePictures(base::FileBatch& files, const std::string& prefix,
                           const topology::Tree& tree,
                           const graphs::CommGraph& graph,
                           const core::Mapping& mapping,
                           const core::CostReport& cost, int32_t group_depth,
                           std::ostream& out);

// One self-contained HTML page at `path`: `title`, the report's `facts`, the
// volume per level and the three pictures; names it on `out`. Errors: those
// of WriteText.
absl::Status WriteReport(
    base::FileBatch& files, const std::string& path, const std::string& title,
    const std::vector<std::pair<std::string, std::string>>& facts,
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const core::Mapping& mapping, const core::CostReport& cost,
    int32_t group_depth, std::ostream& out);

// A placement of the same graph on the same tree, for a page that compares
// several (rankmap advise: present and proposed).
struct NamedPlacement {
  std::string name;
  const core::Mapping* mapping;
  const core::CostReport* cost;
};

// One HTML page with `facts`, the volume per level of every placement
// ("a / b" per level) and each placement's pictures, tree, matrix and volume
// in turn, under headings that name it; names it on `out`. Errors: those of
// WriteText.
absl::Status WriteComparisonReport(
    base::FileBatch& files, const std::string& path, const std::string& title,
    const std::vector<std::pair<std::string, std::string>>& facts,
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const std::vector<NamedPlacement>& placements, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_OUTPUTS_H_
