// Small pieces every picture of cli/pictures needs: XML escaping, number
// formats, process-id ranges wrapped into lines, and the colour scales.
//
//   RangeLines({0, 1, 2, 7}, 20, 3)   // {"0-2, 7"}
//   LogColour(0.5)                    // "#21918c"
#ifndef RANKMAP_CLI_PICTURES_SVG_TEXT_H_
#define RANKMAP_CLI_PICTURES_SVG_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::cli::pictures {

// &, <, >, " and ' escaped for text and attribute values (base::XmlEscape).
std::string Escape(std::string_view text);

// Compact form of a volume or count: 512, 1.5k, 22M, 3.1G (powers of 1000).
std::string Short(double value);

// "0-7, 12, 40-47": sorted, distinct `ids` as ranges, greedily wrapped into
// lines of at most `width` characters. At most `max_lines` lines; when more
// would be needed the last one ends with "+N more" (N ranges left out).
// Empty ids: no line. O(ids).
std::vector<std::string> RangeLines(const std::vector<int32_t>& ids,
                                    size_t width, size_t max_lines);

// The same ranges on one line, uncut (for tooltips).
std::string RangeText(const std::vector<int32_t>& ids);

// Sequential colour scale (viridis stops) for t in [0, 1], as "#rrggbb".
std::string LogColour(double t);

// One of 10 distinct colours for groups (leaf groups by ancestor).
const char* GroupColour(int64_t index);

}  // namespace rankmap::cli::pictures

#endif  // RANKMAP_CLI_PICTURES_SVG_TEXT_H_
