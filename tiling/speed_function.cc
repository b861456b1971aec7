#include "tiling/speed_function.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/status_macros.h"

namespace rankmap::tiling {
namespace {

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("speed function: ", msg));
}

// Intercept a of the piece s(x) = a + b x through points k and k + 1.
double Intercept(const SpeedPoint& p, const SpeedPoint& q) {
  const double slope = (q.speed - p.speed) / (q.size - p.size);
  return p.speed - slope * p.size;
}

// What makes `f` invalid, or "" (checks the last point against the others, so
// a parser can report the point it just added).
std::string Problem(const SpeedFunction& f) {
  if (f.points.empty()) return "no point";
  for (size_t k = 0; k < f.points.size(); ++k) {
    const SpeedPoint& p = f.points[k];
    if (!std::isfinite(p.size) || p.size < 0) {
      return absl::StrCat("size ", p.size, " must be >= 0");
    }
    if (!std::isfinite(p.speed) || p.speed <= 0) {
      return absl::StrCat("speed ", p.speed, " at size ", p.size,
                          " must be > 0");
    }
    if (k == 0) continue;
    const SpeedPoint& prev = f.points[k - 1];
    if (p.size <= prev.size) {
      return absl::StrCat("sizes must increase: ", prev.size, " then ", p.size);
    }
    if (Intercept(prev, p) <= 0) {
      return absl::StrCat(
          "between sizes ", prev.size, " and ", p.size,
          " the speed grows as fast as the size (x / s(x) must increase)");
    }
  }
  return "";
}

}  // namespace

double SpeedFunction::Speed(double size) const {
  if (size <= points.front().size) return points.front().speed;
  if (size >= points.back().size) return points.back().speed;
  auto it = std::upper_bound(
      points.begin(), points.end(), size,
      [](double x, const SpeedPoint& p) { return x < p.size; });
  const SpeedPoint& q = *it;
  const SpeedPoint& p = *(it - 1);
  return p.speed + (q.speed - p.speed) * (size - p.size) / (q.size - p.size);
}

double SpeedFunction::SizeForTime(double time) const {
  // Time is increasing in size, so walk the pieces until the one whose end
  // takes at least `time`.
  const SpeedPoint& first = points.front();
  if (time * first.speed <= first.size) return time * first.speed;
  for (size_t k = 0; k + 1 < points.size(); ++k) {
    const SpeedPoint& p = points[k];
    const SpeedPoint& q = points[k + 1];
    if (time * q.speed < q.size) {
      // x = time (a + b x) on this piece.
      const double b = (q.speed - p.speed) / (q.size - p.size);
      const double a = p.speed - b * p.size;
      const double x = time * a / (1.0 - time * b);
      return std::clamp(x, p.size, q.size);
    }
  }
  return time * points.back().speed;
}

SpeedFunction SpeedFunction::Constant(double speed) {
  return SpeedFunction{{SpeedPoint{0.0, speed}}};
}

absl::Status ValidateSpeedFunction(const SpeedFunction& f) {
  const std::string problem = Problem(f);
  return problem.empty() ? absl::OkStatus() : Invalid(problem);
}

absl::StatusOr<std::vector<SpeedFunction>> ParseSpeedFunctions(
    std::string_view text, std::string_view source) {
  std::vector<SpeedFunction> out;
  std::vector<int32_t> line_of;  // per processor, 0 = not seen
  for (const base::Line& l : base::SplitLines(text)) {
    int32_t proc = 0;
    if (!absl::SimpleAtoi(l.tokens[0].text, &proc) || proc < 0 ||
        proc > 1'000'000) {
      return base::LineError(
          source, l.number,
          absl::StrCat("expected a processor number, found '", l.tokens[0].text,
                       "'"));
    }
    if (l.tokens.size() < 2) {
      return base::LineError(source, l.number,
                             "expected <processor> <size>:<speed> ...");
    }
    if (static_cast<size_t>(proc) >= out.size()) {
      out.resize(proc + 1);
      line_of.resize(proc + 1, 0);
    }
    if (line_of[proc] != 0) {
      return base::LineError(
          source, l.number,
          absl::StrCat("processor ", proc, " already given on line ",
                       line_of[proc]));
    }
    line_of[proc] = l.number;
    SpeedFunction f;
    for (size_t k = 1; k < l.tokens.size(); ++k) {
      const std::string& t = l.tokens[k].text;
      const size_t colon = t.find(':');
      SpeedPoint p;
      if (colon == std::string::npos ||
          !absl::SimpleAtod(t.substr(0, colon), &p.size) ||
          !absl::SimpleAtod(t.substr(colon + 1), &p.speed)) {
        return base::LineError(
            source, l.number,
            absl::StrCat("point '", t, "': expected <size>:<speed>"));
      }
      f.points.push_back(p);
      if (const std::string problem = Problem(f); !problem.empty()) {
        return base::LineError(source, l.number,
                               absl::StrCat("point '", t, "': ", problem));
      }
    }
    out[proc] = std::move(f);
  }
  if (out.empty()) {
    return base::LineError(source, 1, "no speed function");
  }
  for (size_t p = 0; p < out.size(); ++p) {
    if (line_of[p] == 0) {
      return base::LineError(source, 1,
                             absl::StrCat("processor ", p, " has no line (",
                                          out.size(), " processors)"));
    }
  }
  return out;
}

absl::StatusOr<std::vector<SpeedFunction>> ReadSpeedFunctions(
    const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "speed function file"));
  return ParseSpeedFunctions(text, path);
}

absl::StatusOr<std::vector<double>> FpmBalance(
    std::span<const SpeedFunction> functions, double total) {
  if (functions.empty()) return Invalid("no processor");
  if (!std::isfinite(total) || total <= 0) {
    return Invalid(absl::StrCat("total size ", total, " must be > 0"));
  }
  double min_speeds = 0;
  for (const SpeedFunction& f : functions) {
    RETURN_IF_ERROR(ValidateSpeedFunction(f));
    double m = f.points[0].speed;
    for (const SpeedPoint& p : f.points) m = std::min(m, p.speed);
    min_speeds += m;
  }
  // x_i(T) >= T * min s_i, so the sizes at T = total / sum min s_i cover it.
  double lo = 0, hi = total / min_speeds;
  auto sum_at = [&](double t) {
    double s = 0;
    for (const SpeedFunction& f : functions) s += f.SizeForTime(t);
    return s;
  };
  for (int it = 0; it < 200 && hi - lo > 1e-16 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (sum_at(mid) < total ? lo : hi) = mid;
  }
  std::vector<double> x;
  x.reserve(functions.size());
  for (const SpeedFunction& f : functions) x.push_back(f.SizeForTime(hi));
  double s = 0;
  for (double v : x) s += v;
  for (double& v : x) v *= total / s;
  return x;
}

}  // namespace rankmap::tiling
