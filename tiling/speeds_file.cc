#include "tiling/speeds_file.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"

namespace rankmap::tiling {

absl::StatusOr<std::vector<double>> ParseSpeeds(std::string_view text,
                                                std::string_view name) {
  std::vector<double> out;
  for (const base::Line& l : base::SplitLines(text)) {
    for (const base::Token& t : l.tokens) {
      double v = 0;
      if (!base::ParseReal(t.text, &v) || !std::isfinite(v) || v <= 0) {
        return base::LineError(
            name, l.number,
            absl::StrCat("expected a positive speed, found '", t.text, "'"));
      }
      out.push_back(v);
    }
  }
  if (out.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ": no speeds"));
  }
  return out;
}

absl::StatusOr<std::vector<double>> ReadSpeedsFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(path, "speed list"));
  return ParseSpeeds(text, path);
}

}  // namespace rankmap::tiling
