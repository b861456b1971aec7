#include "cli/outputs.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/pictures/matrix_svg.h"
#include "cli/pictures/report_html.h"
#include "cli/pictures/tree_svg.h"
#include "cli/pictures/volume_svg.h"

namespace rankmap::cli {

absl::Status WriteText(base::FileBatch& files, const std::string& path,
                       const std::string& text) {
  return files.Write(path, text);
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

absl::Status WritePictures(base::FileBatch& files, const std::string& prefix,
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
      WriteText(files, tree_path, pictures::TreeSvg(tree, mapping, options)));
  RETURN_IF_ERROR(
      WriteText(files, matrix_path, pictures::MatrixSvg(tree, graph, mapping)));
  RETURN_IF_ERROR(
      WriteText(files, volume_path, pictures::LevelVolumeSvg(Bars(tree, cost))));
  out << "pictures: " << tree_path << " " << matrix_path << " " << volume_path
      << "\n";
  return absl::OkStatus();
}

absl::Status WriteReport(
    base::FileBatch& files, const std::string& path, const std::string& title,
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
  RETURN_IF_ERROR(WriteText(files, path, pictures::ReportHtml(page)));
  out << "report: " << path << "\n";
  return absl::OkStatus();
}

absl::Status WriteComparisonReport(
    base::FileBatch& files, const std::string& path, const std::string& title,
    const std::vector<std::pair<std::string, std::string>>& facts,
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const std::vector<NamedPlacement>& placements, std::ostream& out) {
  pictures::ReportPage page;
  page.title = title;
  page.facts = facts;
  std::vector<std::vector<pictures::VolumeBar>> bars;
  for (const NamedPlacement& p : placements)
    bars.push_back(Bars(tree, *p.cost));
  for (size_t level = 0; !bars.empty() && level < bars[0].size(); ++level) {
    std::vector<std::string> values;
    for (const auto& b : bars)
      values.push_back(absl::StrFormat("%.10g", b[level].volume));
    page.levels.push_back({bars[0][level].label, absl::StrJoin(values, " / ")});
  }
  for (size_t i = 0; i < placements.size(); ++i) {
    const NamedPlacement& p = placements[i];
    page.pictures.push_back({absl::StrCat(p.name, ": tree"),
                             pictures::TreeSvg(tree, *p.mapping, {})});
    page.pictures.push_back(
        {absl::StrCat(p.name, ": communication matrix"),
         pictures::MatrixSvg(tree, graph, *p.mapping)});
    page.pictures.push_back({absl::StrCat(p.name, ": volume by level"),
                             pictures::LevelVolumeSvg(bars[i])});
  }
  RETURN_IF_ERROR(WriteText(files, path, pictures::ReportHtml(page)));
  out << "report: " << path << "\n";
  return absl::OkStatus();
}

}  // namespace rankmap::cli
