#include "models/cost_model_fit.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::models {

absl::StatusOr<LinearFit> FitLine(std::span<const Sample> samples) {
  const size_t n = samples.size();
  long double sx = 0, sy = 0;
  for (size_t i = 0; i < n; ++i) {
    const Sample& s = samples[i];
    if (!std::isfinite(s.bytes) || !std::isfinite(s.seconds) || s.bytes < 0 ||
        s.seconds < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("fit: sample ", i, " (", s.bytes, " B, ", s.seconds,
                       " s) is negative or not finite"));
    }
    sx += s.bytes;
    sy += s.seconds;
  }
  if (n < 2)
    return absl::InvalidArgumentError(
        "fit: need samples of at least two sizes");
  const long double mx = sx / n, my = sy / n;
  // Centred sums: stable when sizes are large and times small.
  long double sxx = 0, sxy = 0;
  for (const Sample& s : samples) {
    sxx += (s.bytes - mx) * (s.bytes - mx);
    sxy += (s.bytes - mx) * (s.seconds - my);
  }
  if (sxx <= 0)
    return absl::InvalidArgumentError(
        "fit: need samples of at least two sizes");
  LinearFit f;
  f.slope = static_cast<double>(sxy / sxx);
  f.intercept = static_cast<double>(my - sxy / sxx * mx);
  long double rss = 0;
  for (const Sample& s : samples) {
    const long double r = s.seconds - (f.intercept + f.slope * s.bytes);
    rss += r * r;
  }
  f.rms_residual = static_cast<double>(std::sqrt(rss / n));
  return f;
}

absl::StatusOr<HockneyParams> FitHockney(std::span<const Sample> samples) {
  ASSIGN_OR_RETURN(LinearFit f, FitLine(samples));
  return HockneyParams{std::max(f.intercept, 0.0), std::max(f.slope, 0.0)};
}

absl::StatusOr<TauLopParams> FitTauLop(
    const std::vector<std::vector<Sample>>& per_tau) {
  if (per_tau.empty())
    return absl::InvalidArgumentError("fit/taulop: no samples");
  TauLopParams p;
  p.o = 0.0;
  p.o_per_byte = 0.0;
  p.transfers = 1;
  p.table.clear();
  for (size_t k = 0; k < per_tau.size(); ++k) {
    auto f = FitLine(per_tau[k]);
    if (!f.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "fit/taulop: tau ", k + 1, ": ", std::string(f.status().message())));
    }
    TauLopPoint e{std::max(f->intercept, 0.0), std::max(f->slope, 0.0)};
    if (!p.table.empty())
      e.per_byte = std::max(e.per_byte, p.table.back().per_byte);
    p.table.push_back(e);
  }
  return p;
}

}  // namespace rankmap::models
