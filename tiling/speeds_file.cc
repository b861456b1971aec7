#include "tiling/speeds_file.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"

namespace rankmap::tiling {

absl::StatusOr<std::vector<double>> ParseSpeeds(std::string_view text,
                                                std::string_view name,
                                                int64_t max_memory_bytes) {
  int64_t count = 0;
  RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
    count += static_cast<int64_t>(l.tokens.size());
    return absl::OkStatus();
  }));
  if (count == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ": no speeds"));
  }
  RETURN_IF_ERROR(
      base::CheckMemory(absl::StrCat(std::string(name), ": ", count, " speeds"),
                        base::SaturatingMulAdd(count, sizeof(double)),
                        base::MemoryBudget(max_memory_bytes)));
  std::vector<double> out;
  out.reserve(count);
  RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
    for (std::string_view t : l.tokens) {
      double v = 0;
      if (!base::ParseReal(t, &v) || !std::isfinite(v) || v <= 0) {
        return base::LineError(
            name, l.number,
            absl::StrCat("expected a positive speed, found ", base::Quote(t)));
      }
      if (v < kMinSpeed || v > kMaxSpeed) {
        return base::LineError(
            name, l.number,
            absl::StrCat("speed ", base::Quote(t), " is outside [", kMinSpeed,
                         ", ", kMaxSpeed, "]"));
      }
      out.push_back(v);
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<double>> ReadSpeedsFile(const std::string& path,
                                                   int64_t max_memory_bytes) {
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(path, "speed list"));
  return ParseSpeeds(text, path, max_memory_bytes);
}

}  // namespace rankmap::tiling
