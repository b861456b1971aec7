#include "cli/outputs.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "cli/svg.h"

namespace rankmap::cli {

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

absl::Status WritePictures(const std::string& prefix,
                           const topology::Tree& tree,
                           const graphs::CommGraph& graph,
                           const core::Mapping& mapping, int32_t group_depth,
                           std::ostream& out) {
  const std::string matrix_path = absl::StrCat(prefix, ".matrix.svg");
  const std::string tree_path = absl::StrCat(prefix, ".tree.svg");
  RETURN_IF_ERROR(WriteText(matrix_path, MatrixHeatmapSvg(graph, mapping)));
  RETURN_IF_ERROR(WriteText(tree_path, TreeSvg(tree, mapping, group_depth)));
  out << "pictures: " << matrix_path << " " << tree_path << "\n";
  return absl::OkStatus();
}

}  // namespace rankmap::cli
