#include "tiling/speed_function.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "tiling/speeds_file.h"

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

// What makes point k of `f` invalid next to point k - 1, or "".
std::string PointProblem(const SpeedFunction& f, size_t k) {
  const SpeedPoint& p = f.points[k];
  if (!std::isfinite(p.size) || p.size < 0) {
    return absl::StrCat("size ", p.size, " must be >= 0");
  }
  if (!std::isfinite(p.speed) || p.speed <= 0) {
    return absl::StrCat("speed ", p.speed, " at size ", p.size, " must be > 0");
  }
  if (p.size > kMaxSpeedFunctionSize) {
    return absl::StrCat("size ", p.size, " is above ", kMaxSpeedFunctionSize);
  }
  if (p.speed < kMinSpeed || p.speed > kMaxSpeed) {
    return absl::StrCat("speed ", p.speed, " at size ", p.size, " is outside [",
                        kMinSpeed, ", ", kMaxSpeed, "]");
  }
  if (k == 0) return "";
  const SpeedPoint& prev = f.points[k - 1];
  if (p.size <= prev.size) {
    return absl::StrCat("sizes must increase: ", prev.size, " then ", p.size);
  }
  if (!(Intercept(prev, p) > 0)) {
    return absl::StrCat(
        "between sizes ", prev.size, " and ", p.size,
        " the speed grows as fast as the size (x / s(x) must increase)");
  }
  return "";
}

// What makes `f` invalid, or "". O(points).
std::string Problem(const SpeedFunction& f) {
  if (f.points.empty()) return "no point";
  for (size_t k = 0; k < f.points.size(); ++k) {
    if (std::string problem = PointProblem(f, k); !problem.empty()) {
      return problem;
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
  // Time is increasing in size, so the piece is found by binary search: the
  // first point whose own time size / speed exceeds `time` ends it.
  const SpeedPoint& first = points.front();
  if (time * first.speed <= first.size) return time * first.speed;
  const auto end = std::partition_point(
      points.begin() + 1, points.end(),
      [time](const SpeedPoint& q) { return time * q.speed >= q.size; });
  if (end == points.end()) return time * points.back().speed;
  const SpeedPoint& p = *(end - 1);
  const SpeedPoint& q = *end;
  // x = time (a + b x) on this piece.
  const double b = (q.speed - p.speed) / (q.size - p.size);
  const double a = p.speed - b * p.size;
  const double x = time * a / (1.0 - time * b);
  return std::clamp(x, p.size, q.size);
}

SpeedFunction SpeedFunction::Constant(double speed) {
  return SpeedFunction{{SpeedPoint{0.0, speed}}};
}

absl::Status ValidateSpeedFunction(const SpeedFunction& f) {
  const std::string problem = Problem(f);
  return problem.empty() ? absl::OkStatus() : Invalid(problem);
}

absl::StatusOr<std::vector<SpeedFunction>> ParseSpeedFunctions(
    std::string_view text, std::string_view source, int64_t max_memory_bytes) {
  // Processors are 0..P-1 for P lines; sized from the counts before storing.
  int64_t lines = 0, points = 0;
  RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
    ++lines;
    points += static_cast<int64_t>(l.tokens.size()) - 1;
    return absl::OkStatus();
  }));
  if (lines == 0) return base::LineError(source, 1, "no speed function");
  RETURN_IF_ERROR(
      base::CheckMemory(absl::StrCat(std::string(source), ": ", lines,
                                     " speed functions of ", points, " points"),
                        base::SaturatingMulAdd(
                            lines, sizeof(SpeedFunction) + sizeof(int64_t),
                            base::SaturatingMulAdd(points, sizeof(SpeedPoint))),
                        base::MemoryBudget(max_memory_bytes)));
  std::vector<SpeedFunction> out(lines);
  std::vector<int64_t> line_of(lines, 0);  // per processor, 0 = not seen
  RETURN_IF_ERROR(base::ForEachLine(text, [&](const base::LineView& l) {
    int64_t proc = 0;
    if (!base::ParseInt(l.tokens[0], &proc) || proc < 0) {
      return base::LineError(source, l.number,
                             absl::StrCat("expected a processor number, found ",
                                          base::Quote(l.tokens[0])));
    }
    if (proc >= lines) {
      return base::LineError(
          source, l.number,
          absl::StrCat("processor ", proc, " is out of range: ", lines,
                       " lines give processors 0 to ", lines - 1));
    }
    if (l.tokens.size() < 2) {
      return base::LineError(source, l.number,
                             "expected <processor> <size>:<speed> ...");
    }
    if (line_of[proc] != 0) {
      return base::LineError(
          source, l.number,
          absl::StrCat("processor ", proc, " already given on line ",
                       line_of[proc]));
    }
    line_of[proc] = l.number;
    SpeedFunction& f = out[proc];
    f.points.reserve(l.tokens.size() - 1);
    for (size_t k = 1; k < l.tokens.size(); ++k) {
      const std::string_view t = l.tokens[k];
      const size_t colon = t.find(':');
      SpeedPoint p;
      if (colon == std::string_view::npos ||
          !base::ParseReal(t.substr(0, colon), &p.size) ||
          !base::ParseReal(t.substr(colon + 1), &p.speed)) {
        return base::LineError(source, l.number,
                               absl::StrCat("point ", base::Quote(t),
                                            ": expected <size>:<speed>"));
      }
      f.points.push_back(p);
      if (const std::string problem = PointProblem(f, f.points.size() - 1);
          !problem.empty()) {
        return base::LineError(
            source, l.number,
            absl::StrCat("point ", base::Quote(t), ": ", problem));
      }
    }
    return absl::OkStatus();
  }));
  // P lines, each naming a distinct processor below P: all are given.
  return out;
}

absl::StatusOr<std::vector<SpeedFunction>> ReadSpeedFunctions(
    const std::string& path, int64_t max_memory_bytes) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "speed function file"));
  return ParseSpeedFunctions(text, path, max_memory_bytes);
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
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] *= total / s;
    // Speeds within [kMinSpeed, kMaxSpeed] keep every share positive.
    if (!std::isfinite(x[i]) || x[i] <= 0) {
      return Invalid(absl::StrCat("processor ", i, " balances to size ", x[i],
                                  " of ", total));
    }
  }
  return x;
}

}  // namespace rankmap::tiling
