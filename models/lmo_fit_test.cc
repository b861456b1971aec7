#include "models/lmo_fit.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

// Known LMO parameters of p processors, drawn at random around the magnitudes
// of a Gigabit Ethernet cluster.
struct Truth {
  int32_t p;
  std::vector<double> C, t, L, inv_rate;  // L, inv_rate: p x p symmetric
};

Truth Draw(int32_t p, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Truth x{p, {}, {}, {}, {}};
  for (int32_t i = 0; i < p; ++i) {
    x.C.push_back(1e-6 + 9e-6 * u(rng));
    x.t.push_back(1e-10 + 9e-10 * u(rng));
  }
  x.L.assign(p * p, 0);
  x.inv_rate.assign(p * p, 0);
  for (int32_t i = 0; i < p; ++i) {
    for (int32_t j = i + 1; j < p; ++j) {
      x.L[i * p + j] = x.L[j * p + i] = 1e-6 + 4e-5 * u(rng);
      x.inv_rate[i * p + j] = x.inv_rate[j * p + i] = 1e-10 + 9.9e-9 * u(rng);
    }
  }
  return x;
}

// Eq. 8 one way.
double T(const Truth& x, int32_t i, int32_t j, double m) {
  return x.C[i] + x.t[i] * m + x.L[i * x.p + j] + m * x.inv_rate[i * x.p + j] +
         x.C[j] + x.t[j] * m;
}

// The experiments as the header defines them, with multiplicative noise of
// relative size `noise` (0: exact).
LmoExperiments Measure(const Truth& x, double m, double noise,
                       std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto jitter = [&](double v) { return v * (1 + noise * u(rng)); };
  LmoExperiments e(x.p, m);
  for (int size = 0; size < 2; ++size) {
    const double bytes = size == 0 ? 0 : m;
    for (int32_t i = 0; i < x.p; ++i) {
      for (int32_t j = 0; j < x.p; ++j) {
        if (i == j) continue;
        e.roundtrip(i, j, size) = jitter(T(x, i, j, bytes) + T(x, j, i, 0));
        for (int32_t k = j + 1; k < x.p; ++k) {
          if (k == i) continue;
          auto branch = [&](int32_t y) {
            return 2 * x.L[i * x.p + y] + 2 * x.C[y] + x.t[y] * bytes +
                   bytes * x.inv_rate[i * x.p + y];
          };
          e.one_to_two(i, j, k, size) = jitter(4 * x.C[i] + 2 * x.t[i] * bytes +
                                               std::max(branch(j), branch(k)));
        }
      }
    }
  }
  return e;
}

// Exact synthetic measurements give back the parameters they were made from.
TEST(EstimateLmoTest, RecoversKnownParameters) {
  std::mt19937_64 rng(404);
  for (int32_t p : {3, 4, 7}) {
    const Truth x = Draw(p, rng);
    auto est = EstimateLmo(Measure(x, 65536, 0.0, rng));
    ASSERT_THAT(est, IsOk());
    EXPECT_EQ(est->clamped, 0);
    for (int32_t i = 0; i < p; ++i) {
      EXPECT_NEAR(est->C[i], x.C[i], 1e-9 * x.C[i]) << p << " " << i;
      EXPECT_NEAR(est->t[i], x.t[i], 1e-6 * x.t[i]) << p << " " << i;
      for (int32_t j = 0; j < p; ++j) {
        if (i == j) continue;
        EXPECT_NEAR(est->L[i * p + j], x.L[i * p + j], 1e-8 * x.L[i * p + j]);
        EXPECT_NEAR(1 / est->rate[i * p + j], x.inv_rate[i * p + j],
                    1e-6 * x.inv_rate[i * p + j]);
      }
    }
  }
}

// With 0.1% noise on every time, 8 processors (21 triplets per root): the
// processor terms come back within 1% (C; 0.32% with this seed) and 5% (t, a
// small difference of large times; 2.9%), one-way times of 64 KiB within
// 0.2% (0.09%).
TEST(EstimateLmoTest, NoisyMeasurements) {
  std::mt19937_64 rng(405);
  const int32_t p = 8;
  const double m = 65536;
  const Truth x = Draw(p, rng);
  auto est = EstimateLmo(Measure(x, m, 1e-3, rng));
  ASSERT_THAT(est, IsOk());
  for (int32_t i = 0; i < p; ++i) {
    EXPECT_NEAR(est->C[i], x.C[i], 0.01 * x.C[i]) << i;
    EXPECT_NEAR(est->t[i], x.t[i], 0.05 * x.t[i]) << i;
    for (int32_t j = 0; j < p; ++j) {
      if (i == j) continue;
      const double predicted = est->C[i] + est->t[i] * m + est->L[i * p + j] +
                               m / est->rate[i * p + j] + est->C[j] +
                               est->t[j] * m;
      EXPECT_NEAR(predicted, T(x, i, j, m), 0.002 * T(x, i, j, m));
    }
  }
}

TEST(EstimateLmoTest, Errors) {
  std::mt19937_64 rng(406);
  EXPECT_THAT(EstimateLmo(LmoExperiments(2, 100)), Not(IsOk()));
  const Truth x = Draw(4, rng);
  LmoExperiments e = Measure(x, 100, 0, rng);
  EXPECT_THAT(EstimateLmo(e), IsOk());
  EXPECT_THAT(EstimateLmo(LmoExperiments(4, 0)), Not(IsOk()));
  // One direction of a round trip is enough; neither is not.
  e.roundtrip(1, 2, 0) = std::nan("");
  EXPECT_THAT(EstimateLmo(e), IsOk());
  e.roundtrip(2, 1, 0) = std::nan("");
  EXPECT_THAT(EstimateLmo(e), Not(IsOk()));
  // A processor that roots no one-to-two.
  LmoExperiments f = Measure(x, 100, 0, rng);
  for (int32_t j = 0; j < 4; ++j) {
    for (int32_t k = j + 1; k < 4; ++k) f.one_to_two(3, j, k, 1) = std::nan("");
  }
  EXPECT_THAT(EstimateLmo(f), Not(IsOk()));
  LmoExperiments g = Measure(x, 100, 0, rng);
  g.one_to_two(0, 1, 2, 0) = -1;
  EXPECT_THAT(EstimateLmo(g), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::models
