// One self-contained HTML page about a mapping: the numbers of the text
// report, the volume per level as a table, and the pictures (tree, matrix,
// volume chart) inline as SVG. No scripts, styles inline, nothing fetched.
//
//   ReportPage page;
//   page.title = "rankmap map: stencil512.grf on tleaf 4 4 1000 ...";
//   page.facts = {{"J", "2.71686e+09"}, ...};
//   page.pictures = {{"Tree", tree_svg}, {"Matrix", matrix_svg}};
//   std::string html = ReportHtml(page);
#ifndef RANKMAP_CLI_PICTURES_REPORT_HTML_H_
#define RANKMAP_CLI_PICTURES_REPORT_HTML_H_

#include <string>
#include <utility>
#include <vector>

namespace rankmap::cli::pictures {

struct ReportPage {
  std::string title;
  // Label and value, in order (the text report's lines).
  std::vector<std::pair<std::string, std::string>> facts;
  // Volume per level: label and value.
  std::vector<std::pair<std::string, std::string>> levels;
  // Heading and SVG text (without an XML declaration).
  std::vector<std::pair<std::string, std::string>> pictures;
};

std::string ReportHtml(const ReportPage& page);

}  // namespace rankmap::cli::pictures

#endif  // RANKMAP_CLI_PICTURES_REPORT_HTML_H_
