#include "cli/pictures/report_html.h"

#include "absl/strings/str_cat.h"
#include "cli/pictures/svg_text.h"

namespace rankmap::cli::pictures {
namespace {

void Table(const char* cls,
           const std::vector<std::pair<std::string, std::string>>& rows,
           std::string& out) {
  absl::StrAppend(&out, "<table class=\"", cls, "\">\n");
  for (const auto& [label, value] : rows) {
    absl::StrAppend(&out, "<tr><th>", Escape(label), "</th><td>", Escape(value),
                    "</td></tr>\n");
  }
  absl::StrAppend(&out, "</table>\n");
}

}  // namespace

std::string ReportHtml(const ReportPage& page) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      "<title>",
      Escape(page.title),
      "</title>\n<style>\n"
      "body { font-family: sans-serif; margin: 24px; color: #222; }\n"
      "h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }\n"
      "table { border-collapse: collapse; }\n"
      "th, td { padding: 3px 12px 3px 0; text-align: left; "
      "font-variant-numeric: tabular-nums; }\n"
      "th { font-weight: normal; color: #555; }\n"
      ".picture { overflow-x: auto; border: 1px solid #ddd; padding: 8px; "
      "max-width: 100%; }\n"
      "</style>\n</head>\n<body>\n<h1>",
      Escape(page.title), "</h1>\n");
  Table("facts", page.facts, out);
  if (!page.levels.empty()) {
    absl::StrAppend(&out, "<h2>Volume by level of the common ancestor</h2>\n");
    Table("levels", page.levels, out);
  }
  for (const auto& [heading, svg] : page.pictures) {
    absl::StrAppend(&out, "<h2>", Escape(heading),
                    "</h2>\n<div class=\"picture\">\n", svg, "</div>\n");
  }
  absl::StrAppend(&out, "</body>\n</html>\n");
  return out;
}

}  // namespace rankmap::cli::pictures
