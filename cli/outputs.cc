#include "cli/outputs.h"

#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/pictures/matrix_svg.h"
#include "cli/pictures/report_html.h"
#include "cli/pictures/tree_svg.h"
#include "cli/pictures/volume_svg.h"

namespace rankmap::cli {

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

namespace {

std::vector<pictures::VolumeBar> Bars(const topology::Tree& tree,
                                      const core::CostReport& cost) {
  std::vector<pictures::VolumeBar> bars;
  for (const LevelVolume& v : LevelVolumes(tree, cost)) {
    bars.push_back({v.depth == tree.height()
                        ? v.label
                        : absl::StrCat("depth ", v.depth, " ", v.label),
                    v.volume});
  }
  return bars;
}

}  // namespace

absl::Status WritePictures(const std::string& prefix,
                           const topology::Tree& tree,
                           const graphs::CommGraph& graph,
                           const core::Mapping& mapping,
                           const core::CostReport& cost, int32_t group_depth,
                           std::ostream& out) {
  const std::string tree_path = absl::StrCat(prefix, ".tree.svg");
  const std::string matrix_path = absl::StrCat(prefix, ".matrix.svg");
  const std::string volume_path = absl::StrCat(prefix, ".volume.svg");
  pictures::TreePictureOptions options;
  options.group_depth = group_depth;
  RETURN_IF_ERROR(
      WriteText(tree_path, pictures::TreeSvg(tree, mapping, options)));
  RETURN_IF_ERROR(
      WriteText(matrix_path, pictures::MatrixSvg(tree, graph, mapping)));
  RETURN_IF_ERROR(
      WriteText(volume_path, pictures::LevelVolumeSvg(Bars(tree, cost))));
  out << "pictures: " << tree_path << " " << matrix_path << " " << volume_path
      << "\n";
  return absl::OkStatus();
}

absl::Status WriteReport(
    const std::string& path, const std::string& title,
    const std::vector<std::pair<std::string, std::string>>& facts,
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const core::Mapping& mapping, const core::CostReport& cost,
    int32_t group_depth, std::ostream& out) {
  pictures::ReportPage page;
  page.title = title;
  page.facts = facts;
  const std::vector<pictures::VolumeBar> bars = Bars(tree, cost);
  for (const pictures::VolumeBar& b : bars)
    page.levels.push_back({b.label, absl::StrFormat("%.10g", b.volume)});
  pictures::TreePictureOptions options;
  options.group_depth = group_depth;
  page.pictures = {
      {"Tree", pictures::TreeSvg(tree, mapping, options)},
      {"Communication matrix", pictures::MatrixSvg(tree, graph, mapping)},
      {"Volume by level", pictures::LevelVolumeSvg(bars)}};
  RETURN_IF_ERROR(WriteText(path, pictures::ReportHtml(page)));
  out << "report: " << path << "\n";
  return absl::OkStatus();
}

}  // namespace rankmap::cli
