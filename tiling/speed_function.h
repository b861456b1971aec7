// Functional performance models (FPM; Malik 3.1.2, seed 003 section II-A): the
// speed of a processor as a function of its problem size, and the balance that
// gives every processor the share it finishes in the same time.
//
// A SpeedFunction is piecewise linear in the problem size x (for SUMMA the
// number of b x b blocks a processor updates per step) through points (x_k,
// s_k), x strictly increasing, s > 0; constant before the first point and after
// the last. One point is a constant speed (the constant performance model).
// FPM's shape condition holds: the time x / s(x) increases with x (on every
// piece s(x) = a + b x has a > 0), so a line through the origin meets the
// speed graph once and the balance is unique.
//
// Speed-function file (text; '#' starts a comment), one processor per line, in
// any order, every processor 0..P-1 exactly once:
//   <processor> <size>:<speed> [<size>:<speed> ...]
// e.g.
//   # 4-core node and a GPU-less laptop; blocks and blocks per second
//   0  64:120 1024:150 16384:140
//   1  100:40
// Sizes are at most kMaxSpeedFunctionSize and speeds within [kMinSpeed,
// kMaxSpeed] (speeds_file.h), so that no balance overflows or underflows.
// Errors name file:line and what is wrong:
//   speeds.fpm:3: point '64:0': speed 0 at size 64 must be > 0
//
// Balance (FpmBalance): sizes x_i with x_i / s_i(x_i) equal for all i and
// sum x_i = total, found by bisection on the common time T (x_i(T) solves x =
// T s_i(x), in closed form on its piece).
//
// Usage:
//   ASSIGN_OR_RETURN(std::vector<SpeedFunction> f,
//                    ReadSpeedFunctions("node.fpm"));
//   ASSIGN_OR_RETURN(std::vector<double> x, FpmBalance(f, 144.0));
#ifndef RANKMAP_TILING_SPEED_FUNCTION_H_
#define RANKMAP_TILING_SPEED_FUNCTION_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rankmap::tiling {

struct SpeedPoint {
  double size = 0;
  double speed = 0;
  friend bool operator==(const SpeedPoint&, const SpeedPoint&) = default;
};

struct SpeedFunction {
  std::vector<SpeedPoint> points;  // size strictly increasing; never empty

  // s(x) for x >= 0. O(log points).
  double Speed(double size) const;
  // The size whose time size / s(size) is `time` (>= 0). O(log points).
  double SizeForTime(double time) const;
  // A constant speed.
  static SpeedFunction Constant(double speed);
};

inline constexpr double kMaxSpeedFunctionSize = 1e100;

// Errors: no point, a size not finite or outside [0, kMaxSpeedFunctionSize],
// sizes not strictly increasing, a speed outside [kMinSpeed, kMaxSpeed], a
// piece where x / s(x) does not increase. O(points).
absl::Status ValidateSpeedFunction(const SpeedFunction& f);

// Parses the file format above; `source` names the text in messages. The
// lines and points are counted first: more than
// base::MemoryBudget(max_memory_bytes) allows is ResourceExhausted. A
// processor number at or above the number of lines is an error on its line.
// O(size of text).
absl::StatusOr<std::vector<SpeedFunction>> ParseSpeedFunctions(
    std::string_view text, std::string_view source,
    int64_t max_memory_bytes = 0);
absl::StatusOr<std::vector<SpeedFunction>> ReadSpeedFunctions(
    const std::string& path, int64_t max_memory_bytes = 0);

// Sizes x_i >= 0 with sum x_i = total and equal times x_i / s_i(x_i) (relative
// error below 1e-12). Constant functions give x_i = total s_i / sum s. Errors:
// no function, an invalid function, total not finite and > 0. O(points + P *
// log points * 200).
absl::StatusOr<std::vector<double>> FpmBalance(
    std::span<const SpeedFunction> functions, double total);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_SPEED_FUNCTION_H_
