#include "cli/pictures/volume_svg.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/pictures/svg_text.h"

namespace rankmap::cli::pictures {

std::string LevelVolumeSvg(const std::vector<VolumeBar>& bars) {
  constexpr double kLabel = 250, kBar = 460, kRow = 24, kTop = 40;
  double total = 0, top = 0;
  for (const VolumeBar& b : bars) {
    total += b.volume;
    top = std::max(top, b.volume);
  }
  const double width = kLabel + kBar + 150;
  const double height = kTop + kRow * bars.size() + 16;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
      "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
      "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
      "fill=\"#ffffff\"/>\n<text class=\"title\" x=\"12\" y=\"22\" "
      "font-size=\"13\" font-weight=\"bold\">Volume by level of the common "
      "ancestor (bytes)</text>\n",
      width, height, width, height);
  for (size_t i = 0; i < bars.size(); ++i) {
    const VolumeBar& b = bars[i];
    const double y = kTop + kRow * i;
    const double len = top > 0 ? kBar * b.volume / top : 0;
    std::string label = b.label;
    if (label.size() > 40) label = label.substr(0, 38) + "..";
    absl::StrAppend(
        &out,
        absl::StrFormat(
            "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n"
            "<rect class=\"bar\" data-label=\"%s\" data-volume=\"%.10g\" "
            "x=\"%.0f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
            "fill=\"#3b528b\"/>\n"
            "<text x=\"%.2f\" y=\"%.1f\">%s (%.1f%%)</text>\n",
            kLabel - 8, y + 15, Escape(label), Escape(b.label), b.volume,
            kLabel, y + 4, len, kRow - 8, kLabel + len + 6, y + 15,
            Escape(Short(b.volume)), total > 0 ? 100 * b.volume / total : 0.0));
  }
  absl::StrAppend(&out, "</svg>\n");
  return out;
}

}  // namespace rankmap::cli::pictures
