#include "tiling/speed_function.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

// s(x) = 2 up to 60 blocks, falling linearly to 1 at 100, then 1 (a processor
// that slows down once its data leaves the cache).
SpeedFunction Falling() { return SpeedFunction{{{60, 2}, {100, 1}}}; }

TEST(SpeedFunctionTest, PiecewiseLinearAndFlatBeyondTheEnds) {
  const SpeedFunction f = Falling();
  EXPECT_DOUBLE_EQ(f.Speed(0), 2);
  EXPECT_DOUBLE_EQ(f.Speed(60), 2);
  EXPECT_DOUBLE_EQ(f.Speed(84), 1.4);
  EXPECT_DOUBLE_EQ(f.Speed(100), 1);
  EXPECT_DOUBLE_EQ(f.Speed(1e6), 1);
  // SizeForTime inverts x / s(x) on every piece.
  for (double x : {0.0, 10.0, 60.0, 70.0, 84.0, 99.0, 100.0, 250.0}) {
    EXPECT_NEAR(f.SizeForTime(x / f.Speed(x)), x, 1e-9) << x;
  }
}

// Two processors, 144 blocks: p0 at a constant speed 1, p1 as Falling(). Equal
// times x0 / 1 = x1 / s1(x1) with x0 + x1 = 144: on p1's falling piece (144 -
// u)(2 - (u - 60) / 40) = u, i.e. u^2 - 324 u + 20160 = 0, u = (324 - 156) / 2
// = 84; p1 runs at s1(84) = 1.4, both take 60. A constant-speed model from
// small problems (2 : 1) would give 96 / 48.
TEST(FpmBalanceTest, HandCheckedTwoProcessors) {
  const std::vector<SpeedFunction> f = {SpeedFunction::Constant(1), Falling()};
  auto x = FpmBalance(f, 144);
  ASSERT_THAT(x, IsOk());
  EXPECT_NEAR((*x)[0], 60, 1e-9);
  EXPECT_NEAR((*x)[1], 84, 1e-9);
}

TEST(FpmBalanceTest, ConstantSpeedsAreProportional) {
  const std::vector<SpeedFunction> f = {
      SpeedFunction::Constant(4), SpeedFunction::Constant(3),
      SpeedFunction::Constant(2), SpeedFunction::Constant(1)};
  auto x = FpmBalance(f, 1000);
  ASSERT_THAT(x, IsOk());
  EXPECT_NEAR((*x)[0], 400, 1e-9);
  EXPECT_NEAR((*x)[1], 300, 1e-9);
  EXPECT_NEAR((*x)[2], 200, 1e-9);
  EXPECT_NEAR((*x)[3], 100, 1e-9);
}

// Random FPM-shaped functions: the sizes sum to the total and every processor
// takes the same time.
TEST(FpmBalanceTest, EqualTimesOnRandomFunctions) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<SpeedFunction> f(1 + trial % 7);
    for (SpeedFunction& g : f) {
      double x = 10 * u(rng), s = 1 + 99 * u(rng);
      const int n = 1 + static_cast<int>(5 * u(rng));
      for (int k = 0; k < n; ++k) {
        g.points.push_back({x, s});
        const double dx = 1 + 500 * u(rng);
        // Keep the intercept positive: s may grow by less than s * dx / x.
        const double grow_cap = s * dx / (x + 1e-9);
        x += dx;
        s = std::max(0.5, s + std::min(grow_cap * 0.9, 50.0) * (u(rng) - 0.6));
      }
      ASSERT_THAT(ValidateSpeedFunction(g), IsOk());
    }
    const double total = 1 + 5000 * u(rng);
    auto x = FpmBalance(f, total);
    ASSERT_THAT(x, IsOk());
    double sum = 0;
    const double t0 = (*x)[0] / f[0].Speed((*x)[0]);
    for (size_t i = 0; i < f.size(); ++i) {
      sum += (*x)[i];
      EXPECT_NEAR((*x)[i] / f[i].Speed((*x)[i]), t0, 1e-9 * t0) << trial;
    }
    EXPECT_NEAR(sum, total, 1e-9 * total);
  }
}

TEST(SpeedFunctionTest, ParsesTheFileFormat) {
  auto f = ParseSpeedFunctions(
      "# two processors\n"
      "1 100:40\n"
      "0  64:120 1024:150   16384:140  # cache, then memory\n",
      "speeds.fpm");
  ASSERT_THAT(f, IsOk());
  ASSERT_EQ(f->size(), 2u);
  EXPECT_EQ((*f)[0].points,
            (std::vector<SpeedPoint>{{64, 120}, {1024, 150}, {16384, 140}}));
  EXPECT_EQ((*f)[1].points, (std::vector<SpeedPoint>{{100, 40}}));
}

TEST(SpeedFunctionTest, ErrorsNameFileAndLine) {
  auto err = [](const char* text) {
    auto f = ParseSpeedFunctions(text, "s.fpm");
    EXPECT_THAT(f, Not(IsOk())) << text;
    return std::string(f.status().message());
  };
  EXPECT_EQ(err("0 64:0\n"),
            "s.fpm:1: point '64:0': speed 0 at size 64 must "
            "be > 0");
  EXPECT_EQ(err("0 10:1\n0 20:1\n"),
            "s.fpm:2: processor 0 already given on line 1");
  EXPECT_EQ(err("0 10:1\n\n2 10:1\n"),
            "s.fpm:3: processor 2 is out of range: 2 lines give processors 0 "
            "to 1");
  EXPECT_EQ(err("0 10:1 5:2\n"),
            "s.fpm:1: point '5:2': sizes must increase: 10 then 5");
  EXPECT_EQ(err("0 10-1\n"), "s.fpm:1: point '10-1': expected <size>:<speed>");
  EXPECT_EQ(err("x 10:1\n"), "s.fpm:1: expected a processor number, found 'x'");
  // s doubles while x doubles: x / s(x) stays flat on that piece.
  EXPECT_EQ(err("0 10:1 20:2\n"),
            "s.fpm:1: point '20:2': between sizes 10 and 20 the speed grows as "
            "fast as the size (x / s(x) must increase)");
  EXPECT_EQ(err("# nothing\n"), "s.fpm:1: no speed function");
  EXPECT_THAT(FpmBalance({}, 10), Not(IsOk()));
  EXPECT_THAT(
      FpmBalance(std::vector<SpeedFunction>{SpeedFunction::Constant(1)}, 0),
      Not(IsOk()));
}

// The reference SizeForTime: a walk over every piece (the definition).
double SizeForTimeByWalk(const SpeedFunction& f, double time) {
  const SpeedPoint& first = f.points.front();
  if (time * first.speed <= first.size) return time * first.speed;
  for (size_t k = 0; k + 1 < f.points.size(); ++k) {
    const SpeedPoint& p = f.points[k];
    const SpeedPoint& q = f.points[k + 1];
    if (time * q.speed < q.size) {
      const double b = (q.speed - p.speed) / (q.size - p.size);
      const double a = p.speed - b * p.size;
      return std::clamp(time * a / (1.0 - time * b), p.size, q.size);
    }
  }
  return time * f.points.back().speed;
}

TEST(SpeedFunctionTest, BinarySearchAgreesWithTheWalk) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    // Speeds that fall, or rise slower than the size: x / s(x) increases.
    SpeedFunction f;
    double x = 1 + 10 * u(rng), s = 1 + 5 * u(rng);
    for (int k = 0; k < 1 + trial % 40; ++k) {
      f.points.push_back({x, s});
      const double dx = 1 + 20 * u(rng);
      s = std::max(0.1, s + (u(rng) - 0.7) * s * dx / x);
      x += dx;
    }
    ASSERT_THAT(ValidateSpeedFunction(f), IsOk()) << trial;
    for (int q = 0; q < 50; ++q) {
      const double t = 1.5 * u(rng) * x / f.points.back().speed;
      EXPECT_DOUBLE_EQ(f.SizeForTime(t), SizeForTimeByWalk(f, t))
          << trial << " " << t;
    }
  }
}

// 250,000 points on one line: each point is checked against its neighbour
// only (the whole function was re-checked per point, 3e10 steps), and the
// balance searches the pieces.
TEST(SpeedFunctionTest, LongFunctionsParseInLinearTime) {
  std::string text = "1 1:2\n0";
  for (int k = 1; k <= 250000; ++k) absl::StrAppend(&text, " ", k, ":1");
  text += "\n";
  auto f = ParseSpeedFunctions(text, "long.fpm");
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ((*f)[0].points.size(), 250000u);
  auto x = FpmBalance(*f, 3000);
  ASSERT_THAT(x, IsOk());
  EXPECT_NEAR((*x)[0], 1000, 1e-6);
  EXPECT_NEAR((*x)[1], 2000, 1e-6);
}

// The extremes the reader accepts balance to finite positive sizes; beyond
// them the reader names the line (before, 1e300 against 1e-300 reached the
// partitioner as "speed 1 is 0", with no file).
TEST(SpeedFunctionTest, ExtremeValuesAreBoundedWhereRead) {
  auto f = ParseSpeedFunctions("0 1:1e100 1e100:1e100\n1 1:1e-100\n", "x.fpm");
  ASSERT_THAT(f, IsOk());
  auto x = FpmBalance(*f, 1e15);
  ASSERT_THAT(x, IsOk());
  for (double v : *x) EXPECT_TRUE(std::isfinite(v) && v > 0) << v;
  auto bad = ParseSpeedFunctions("0 1:1\n1 1:1e-300\n", "x.fpm");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_EQ(std::string(bad.status().message()),
            "x.fpm:2: point '1:1e-300': speed 1e-300 at size 1 is outside "
            "[1e-100, 1e+100]");
  EXPECT_THAT(ParseSpeedFunctions("0 1e101:1\n", "x.fpm"), Not(IsOk()));
  // A processor id beyond the line count is refused on its line, before
  // anything is sized by it.
  auto far = ParseSpeedFunctions("2000000000 1:1\n", "x.fpm");
  ASSERT_THAT(far, Not(IsOk()));
  EXPECT_EQ(std::string(far.status().message()),
            "x.fpm:1: processor 2000000000 is out of range: 1 lines give "
            "processors 0 to 0");
  auto budget = ParseSpeedFunctions("0 1:1 2:1\n1 1:1\n", "x.fpm", 16);
  EXPECT_EQ(budget.status().code(), absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace rankmap::tiling
