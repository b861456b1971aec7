#include "models/cost_model_fit.h"

#include <cmath>
#include <random>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

TEST(FitLine, ExactLineIsRecovered) {
  // t = 1e-6 + 1e-9 m at m = 1, 1e3, 1e6.
  const std::vector<Sample> s = {
      {1, 1e-6 + 1e-9}, {1e3, 2e-6}, {1e6, 1.001e-3}};
  auto f = FitLine(s);
  ASSERT_THAT(f, IsOk());
  EXPECT_NEAR(f->intercept, 1e-6, 1e-15);
  EXPECT_NEAR(f->slope, 1e-9, 1e-20);
  EXPECT_NEAR(f->rms_residual, 0.0, 1e-15);
}

TEST(FitLine, HandComputedLeastSquares) {
  // Points (0, 1), (1, 1), (2, 4): mean x 1, mean y 2; Sxx = 2, Sxy = (-1)(-1)
  // + 0 + 1 * 2 = 3; slope 1.5, intercept 2 - 1.5 = 0.5; residuals 0.5, -1, 0.5
  // -> rms sqrt(1.5 / 3).
  const std::vector<Sample> s = {{0, 1}, {1, 1}, {2, 4}};
  auto f = FitLine(s);
  ASSERT_THAT(f, IsOk());
  EXPECT_DOUBLE_EQ(f->slope, 1.5);
  EXPECT_DOUBLE_EQ(f->intercept, 0.5);
  EXPECT_NEAR(f->rms_residual, std::sqrt(0.5), 1e-12);
}

TEST(FitLine, NoisySamplesCloseToTruth) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0.0, 1e-8);
  std::vector<Sample> s;
  for (int rep = 0; rep < 20; ++rep) {
    for (double m = 1; m <= 1 << 22; m *= 4)
      s.push_back({m, 2e-6 + 5e-10 * m + noise(rng)});
  }
  auto f = FitLine(s);
  ASSERT_THAT(f, IsOk());
  EXPECT_NEAR(f->slope, 5e-10, 1e-13);
  EXPECT_NEAR(f->intercept, 2e-6, 1e-8);
}

TEST(FitLine, Errors) {
  EXPECT_THAT(FitLine(std::vector<Sample>{}), Not(IsOk()));
  EXPECT_THAT(FitLine(std::vector<Sample>{{5, 1}, {5, 2}}),
              Not(IsOk()));  // one size only
  EXPECT_THAT(FitLine(std::vector<Sample>{{1, 1}, {2, -1}}), Not(IsOk()));
  EXPECT_THAT(FitLine(std::vector<Sample>{{1, 1}, {2, NAN}}), Not(IsOk()));
}

TEST(FitHockney, ClampsNoiseBelowZero) {
  // Decreasing times (pure noise) give a negative slope: clamped to 0.
  auto h = FitHockney(std::vector<Sample>{{1, 2e-6}, {2, 1e-6}});
  ASSERT_THAT(h, IsOk());
  EXPECT_EQ(h->beta, 0.0);
  EXPECT_DOUBLE_EQ(h->alpha, 3e-6);
}

TEST(FitTauLop, OneLinePerTauMonotonePerByte) {
  // tau = 1: 1e-6 + 1e-9 m; tau = 2: 1.2e-6 + 1.8e-9 m; tau = 3 measured faster
  // per byte than tau = 2 (noise): lifted to 1.8e-9.
  std::vector<std::vector<Sample>> per_tau(3);
  for (double m : {1e3, 1e5, 1e6}) {
    per_tau[0].push_back({m, 1e-6 + 1e-9 * m});
    per_tau[1].push_back({m, 1.2e-6 + 1.8e-9 * m});
    per_tau[2].push_back({m, 1.5e-6 + 1.7e-9 * m});
  }
  auto p = FitTauLop(per_tau);
  ASSERT_THAT(p, IsOk());
  ASSERT_EQ(p->table.size(), 3u);
  EXPECT_EQ(p->o, 0.0);
  EXPECT_EQ(p->transfers, 1);
  EXPECT_NEAR(p->table[0].latency, 1e-6, 1e-15);
  EXPECT_NEAR(p->table[0].per_byte, 1e-9, 1e-18);
  EXPECT_NEAR(p->table[1].latency, 1.2e-6, 1e-15);
  EXPECT_NEAR(p->table[1].per_byte, 1.8e-9, 1e-18);
  EXPECT_NEAR(p->table[2].latency, 1.5e-6, 1e-15);
  EXPECT_NEAR(p->table[2].per_byte, 1.8e-9, 1e-18);
  per_tau[1].resize(1);
  auto bad = FitTauLop(per_tau);
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_NE(std::string(bad.status().message()).find("tau 2"),
            std::string::npos);
  EXPECT_THAT(FitTauLop({}), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::models
