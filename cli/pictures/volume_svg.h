// Bar chart of the volume crossing each tree level: one horizontal bar per
// row (a level, a kind at a level, or "same leaf"), length proportional to
// the volume, labelled with the level and the value.
//
// Structure: each bar is <rect class="bar" data-label="..."
// data-volume="v">; the root <svg> has width, height and viewBox.
//
//   std::string svg = LevelVolumeSvg({{"depth 0 Machine", 2.1e6}, ...});
#ifndef RANKMAP_CLI_PICTURES_VOLUME_SVG_H_
#define RANKMAP_CLI_PICTURES_VOLUME_SVG_H_

#include <string>
#include <vector>

namespace rankmap::cli::pictures {

struct VolumeBar {
  std::string label;
  double volume = 0.0;  // >= 0
};

std::string LevelVolumeSvg(const std::vector<VolumeBar>& bars);

}  // namespace rankmap::cli::pictures

#endif  // RANKMAP_CLI_PICTURES_VOLUME_SVG_H_
