#include "tiling/partition.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"
#include "tiling/volume.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

ColumnLayout Dp(std::vector<double> s) {
  auto l = ColumnBasedPartition(s);
  EXPECT_THAT(l, IsOk());
  return *l;
}

// Becker digest 13: column-based DP (Beaumont et al.) on the unit square.
TEST(ColumnBasedPartitionTest, DigestSums) {
  EXPECT_NEAR(Dp({0.5, 0.25, 0.25}).HalfPerimeterSum(), 3.5, 1e-12);
  EXPECT_NEAR(Dp({0.4, 0.3, 0.2, 0.1}).HalfPerimeterSum(), 4.0, 1e-12);
  EXPECT_NEAR(
      Dp({0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05}).HalfPerimeterSum(), 5.5,
      1e-12);
  EXPECT_NEAR(Dp(std::vector<double>(9, 1.0 / 9)).HalfPerimeterSum(), 6.0,
              1e-12);
  EXPECT_NEAR(Dp({0.25, 0.25, 0.25, 0.25}).HalfPerimeterSum(), 4.0, 1e-12);
  EXPECT_NEAR(Dp({0.75, 0.25}).HalfPerimeterSum(), 3.0, 1e-12);
}

TEST(ColumnBasedPartitionTest, DigestColumns) {
  using V = std::vector<std::vector<int32_t>>;
  EXPECT_EQ(Dp({0.5, 0.25, 0.25}).columns, (V{{0}, {1, 2}}));
  EXPECT_EQ(Dp({0.4, 0.3, 0.2, 0.1}).columns, (V{{0, 1}, {2, 3}}));
  // Shuffled input: processors are sorted by speed (stable) before the DP.
  EXPECT_EQ(Dp({0.05, 0.3, 0.05, 0.1, 0.2, 0.15, 0.1, 0.05}).columns,
            (V{{1, 4}, {5, 3, 6}, {0, 2, 7}}));
  auto grid = Dp(std::vector<double>(9, 1.0));
  ASSERT_EQ(grid.columns.size(), 3u);
  for (const auto& c : grid.columns) EXPECT_EQ(c.size(), 3u);
  // Tie at p = 2 (one column or two): fewer columns wins.
  EXPECT_EQ(Dp({0.75, 0.25}).columns.size(), 1u);
  auto w = Dp({0.4, 0.3, 0.2, 0.1}).widths;
  EXPECT_NEAR(w[0], 0.7, 1e-12);
  EXPECT_NEAR(w[1], 0.3, 1e-12);
}

// Brute-force oracle: every split of the sorted speeds into consecutive
// columns.
double BestConsecutiveSplit(const std::vector<double>& sorted) {
  const int p = static_cast<int>(sorted.size());
  double best = 1e300;
  for (int mask = 0; mask < (1 << (p - 1)); ++mask) {
    double shp = 0, w = 0;
    int k = 0;
    for (int i = 0; i < p; ++i) {
      w += sorted[i];
      ++k;
      if (i == p - 1 || (mask >> i & 1)) {
        shp += k * w + 1;
        w = 0;
        k = 0;
      }
    }
    best = std::min(best, shp);
  }
  return best;
}

TEST(ColumnBasedPartitionTest, MatchesBruteForceAndLowerBound) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.01, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    int p = 1 + trial % 9;
    std::vector<double> s(p);
    for (double& x : s) x = u(rng);
    ColumnLayout l = Dp(s);
    std::vector<double> sorted = l.speeds;
    std::sort(sorted.rbegin(), sorted.rend());
    EXPECT_NEAR(l.HalfPerimeterSum(), BestConsecutiveSplit(sorted), 1e-9);
    EXPECT_GE(l.HalfPerimeterSum(), HalfPerimeterLowerBound(l.speeds) - 1e-12);
    // Areas equal speeds: heights within a column sum to 1, widths to 1.
    double wsum = 0;
    for (size_t j = 0; j < l.columns.size(); ++j) {
      double h = 0;
      for (int32_t i : l.columns[j]) h += l.speeds[i] / l.widths[j];
      EXPECT_NEAR(h, 1.0, 1e-12);
      wsum += l.widths[j];
    }
    EXPECT_NEAR(wsum, 1.0, 1e-12);
  }
}

// Becker digest 4 (reproduction of Beaumont et al.'s random-sample study): mean
// SHP / LB of the column DP with s_i = u_i / sum u, u ~ U(0, 1). p = 2: 1.105
// (minimum 3 / (2 sqrt 2) = 1.0607); p = 3..10 (20k
// samples): 1.0536, 1.0463, 1.0344, 1.0550, 1.0382, 1.0311, 1.0263, 1.0252.
TEST(ColumnBasedPartitionTest, RandomSampleRatiosToTheLowerBound) {
  const std::vector<double> expected = {1.105,  1.0536, 1.0463, 1.0344, 1.0550,
                                        1.0382, 1.0311, 1.0263, 1.0252};
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int p = 2; p <= 10; ++p) {
    const int samples = 20000;
    double sum = 0, min_ratio = 1e9;
    for (int t = 0; t < samples; ++t) {
      std::vector<double> s(p);
      for (double& x : s) x = u(rng) + 1e-300;
      ColumnLayout l = *ColumnBasedPartition(s);
      double ratio = l.HalfPerimeterSum() / HalfPerimeterLowerBound(l.speeds);
      sum += ratio;
      min_ratio = std::min(min_ratio, ratio);
    }
    EXPECT_NEAR(sum / samples, expected[p - 2], 0.002) << "p = " << p;
    if (p == 2) {
      EXPECT_NEAR(min_ratio, 3 / (2 * std::sqrt(2.0)), 1e-3);
    }
  }
}

// FPM-BR with constant speed functions is the column-based DP of those
// constants (Malik Table 3.1: BR is FPM-BR's constant-speed case), down to the
// integer partition.
TEST(FpmColumnBasedPartitionTest, ConstantFunctionsAreTheConstantSpeedDp) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u(0.05, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> speeds(2 + trial % 9);
    std::vector<SpeedFunction> f;
    for (double& s : speeds) {
      s = u(rng);
      f.push_back(SpeedFunction::Constant(s));
    }
    auto cpm = ColumnBasedPartition(speeds);
    auto fpm = FpmColumnBasedPartition(f, 128.0 * 128.0);
    ASSERT_THAT(cpm, IsOk());
    ASSERT_THAT(fpm, IsOk());
    EXPECT_EQ(fpm->columns, cpm->columns);
    for (size_t j = 0; j < cpm->widths.size(); ++j) {
      EXPECT_NEAR(fpm->widths[j], cpm->widths[j], 1e-12);
    }
    EXPECT_EQ(*ToIntegerPartition(*fpm, 128, 128),
              *ToIntegerPartition(*cpm, 128, 128));
  }
}

// The speed functions move the partition: on a 12 x 12 block grid p0 runs at a
// constant 1 block/s and p1 at 2 blocks/s up to 60 blocks, falling linearly to
// 1 at 100. FPM balances at 60 / 84 blocks (hand-computed in
// speed_function_test), so the one-column layout gives p1 7 rows and p0 5; the
// constant speeds 1 : 2 measured on small problems would give 8 and 4 (96 /
// 48), 1 : 1 measured on large ones 6 and 6.
TEST(FpmColumnBasedPartitionTest, FunctionsChangeTheRowsByHand) {
  const std::vector<SpeedFunction> f = {SpeedFunction::Constant(1),
                                        SpeedFunction{{{60, 2}, {100, 1}}}};
  auto fpm = FpmColumnBasedPartition(f, 144);
  ASSERT_THAT(fpm, IsOk());
  EXPECT_NEAR(fpm->speeds[0], 60.0 / 144, 1e-12);
  EXPECT_NEAR(fpm->speeds[1], 84.0 / 144, 1e-12);
  auto p = ToIntegerPartition(*fpm, 12, 12);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(OwnerAreas(*p), (std::vector<int64_t>{60, 84}));
  auto cpm = ToIntegerPartition(
      *ColumnBasedPartition(std::vector<double>{1, 2}), 12, 12);
  EXPECT_EQ(OwnerAreas(*cpm), (std::vector<int64_t>{48, 96}));
}

// Becker's random-sample study of Square-Corner against the lower bound LB = 2
// sum sqrt(s_i), with the reading the digest (4, 6.3) found to reproduce the
// printed numbers: u_i ~ U(0, 1) i.i.d., s_i = u_i / sum u, sorted. Seed 001
// section 4.2.1 (Fig. 4.5), p = 2, samples with s1 / s2 >= 3 only: SHP / LB of
// Square-Corner (2 + 2 sqrt(s2)) averages 1.054 and its minimum tends to 1
// ("1.000001"). Section 6.1.3, p = 3, samples where Square-Corner beats the
// Straight-Line layout on a fully connected network (eq. 6.11 margin < 0):
// rectangular (SHP 3 + s2 + s3, the Kalinov-Lastovetsky layout {1}{2,3})
// averages 1.128 with minimum 1.0595, Square-Corner (eq. 6.14 corrected to 2 +
// 2 (sqrt s2 + sqrt s3)) 1.079 with minimum 1.0001; with s_max / s_min <= 100
// as well: 1.104 / 1.059 and 1.062 / 1.008. Tolerance: averages +-0.002 (the
// thesis prints three decimals; 400k draws, fixed seed). Minima are extremes
// of a sample: the thesis used 2M draws, so ours sit slightly above its values
// (within 0.002; the Square-Corner minimum of the capped set within 0.003).
// This seed computes 1.0545 / 1.0000019; 1.1278 / 1.0601 and 1.0797 /
// 1.0015 (19,077 samples pass the filter); capped 1.1041 / 1.0601 and 1.0618 /
// 1.0094.
TEST(SquareCornerTest, RandomSampleStatistics) {
  std::mt19937_64 rng(2010);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int kDraws = 400'000;
  // p = 2.
  double sum2 = 0, min2 = 1e9;
  int n2 = 0;
  for (int t = 0; t < kDraws; ++t) {
    std::vector<double> s = {u(rng), u(rng)};
    if (s[0] < s[1]) std::swap(s[0], s[1]);
    s = *NormalizeSpeeds(s);
    if (s[0] < 3 * s[1]) continue;
    const double r =
        internal::SquareCornerHalfPerimeterSum(s) / HalfPerimeterLowerBound(s);
    sum2 += r;
    min2 = std::min(min2, r);
    ++n2;
  }
  EXPECT_NEAR(sum2 / n2, 1.054, 0.002);
  EXPECT_NEAR(min2, 1.000001, 1e-4);
  // p = 3.
  struct Stats {
    double rect_sum = 0, rect_min = 1e9, scp_sum = 0, scp_min = 1e9;
    int n = 0;
  } all, capped;
  for (int t = 0; t < kDraws; ++t) {
    std::vector<double> s = {u(rng), u(rng), u(rng)};
    std::sort(s.begin(), s.end(), std::greater<double>());
    if (s[2] <= 0) continue;
    s = *NormalizeSpeeds(s);
    if (internal::SquareCorner3FullyConnectedMargin(s[0], s[1], s[2]) >= 0)
      continue;
    const double lb = HalfPerimeterLowerBound(s);
    const double rect =
        KalinovLastovetskyPartition(s, {{0}, {1, 2}})->HalfPerimeterSum() / lb;
    const double scp = internal::SquareCornerHalfPerimeterSum(s) / lb;
    for (Stats* st : {&all, &capped}) {
      if (st == &capped && s[0] > 100 * s[2]) continue;
      st->rect_sum += rect;
      st->rect_min = std::min(st->rect_min, rect);
      st->scp_sum += scp;
      st->scp_min = std::min(st->scp_min, scp);
      ++st->n;
    }
  }
  EXPECT_NEAR(all.rect_sum / all.n, 1.128, 0.002);
  EXPECT_NEAR(all.rect_min, 1.0595, 0.002);
  EXPECT_NEAR(all.scp_sum / all.n, 1.079, 0.002);
  EXPECT_NEAR(all.scp_min, 1.0001, 0.002);
  EXPECT_NEAR(capped.rect_sum / capped.n, 1.104, 0.002);
  EXPECT_NEAR(capped.rect_min, 1.059, 0.002);
  EXPECT_NEAR(capped.scp_sum / capped.n, 1.062, 0.002);
  EXPECT_NEAR(capped.scp_min, 1.008, 0.003);
}

TEST(ColumnBasedPartitionTest, RejectsBadSpeeds) {
  EXPECT_THAT(ColumnBasedPartition(std::vector<double>{}), Not(IsOk()));
  EXPECT_THAT(ColumnBasedPartition(std::vector<double>(50001, 1.0)),
              Not(IsOk()));
  EXPECT_THAT(ColumnBasedPartition(std::vector<double>{1, 0}), Not(IsOk()));
  EXPECT_THAT(ColumnBasedPartition(std::vector<double>{1, -2}), Not(IsOk()));
  EXPECT_THAT(ColumnBasedPartition(std::vector<double>{1, std::nan("")}),
              Not(IsOk()));
}

TEST(KalinovLastovetskyTest, DigestThreeByThree) {
  std::vector<double> s = {0.2, 0.1, 0.1, 0.15, 0.1, 0.05, 0.1, 0.1, 0.1};
  auto l = KalinovLastovetskyPartition(s, {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}});
  ASSERT_THAT(l, IsOk());
  EXPECT_NEAR(l->widths[0], 0.4, 1e-12);
  EXPECT_NEAR(l->widths[1], 0.3, 1e-12);
  EXPECT_NEAR(l->widths[2], 0.3, 1e-12);
  EXPECT_NEAR(l->speeds[0] / l->widths[0], 0.5, 1e-12);
  EXPECT_NEAR(l->speeds[1] / l->widths[0], 0.25, 1e-12);
  EXPECT_NEAR(l->speeds[4] / l->widths[1], 1.0 / 3, 1e-12);
  EXPECT_NEAR(l->speeds[5] / l->widths[1], 1.0 / 6, 1e-12);
  EXPECT_NEAR(l->speeds[7] / l->widths[2], 1.0 / 3, 1e-12);
  EXPECT_NEAR(l->HalfPerimeterSum(), 6.0, 1e-12);
  EXPECT_THAT(KalinovLastovetskyPartition(s, {{0, 1, 2}, {3, 4, 5}, {6, 7}}),
              Not(IsOk()));
  EXPECT_THAT(
      KalinovLastovetskyPartition(s, {{0, 1, 2}, {3, 4, 5}, {6, 7, 7, 8}}),
      Not(IsOk()));
  EXPECT_THAT(
      KalinovLastovetskyPartition(s, {{0, 1, 2}, {}, {3, 4, 5, 6, 7, 8}}),
      Not(IsOk()));
}

TEST(GridShapeTest, DigestTable) {
  const std::vector<std::array<int, 3>> table = {
      {1, 1, 1},  {2, 1, 2},  {3, 1, 3},  {4, 2, 2},  {5, 1, 5},  {6, 2, 3},
      {7, 1, 7},  {8, 2, 4},  {9, 3, 3},  {10, 2, 5}, {12, 3, 4}, {16, 4, 4},
      {18, 3, 6}, {24, 4, 6}, {30, 5, 6}, {36, 6, 6}, {40, 5, 8}};
  for (auto [p, r, c] : table) {
    EXPECT_EQ(GridShape(p), std::make_pair(r, c)) << "p = " << p;
    auto l = GridBasedPartition(std::vector<double>(p, 1.0 + p % 3));
    ASSERT_THAT(l, IsOk());
    EXPECT_NEAR(l->HalfPerimeterSum(), r + c, 1e-9) << "p = " << p;
  }
}

TEST(ApportionTest, LargestRemainder) {
  auto a = Apportion(std::vector<double>{0.4, 0.3, 0.3}, 10);
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(*a, (std::vector<int64_t>{4, 3, 3}));
  a = Apportion(std::vector<double>{1, 1, 1},
                10);  // 3.33 each; leftover to the lowest index
  EXPECT_EQ(*a, (std::vector<int64_t>{4, 3, 3}));
  a = Apportion(std::vector<double>{0.98, 0.01, 0.01}, 10);  // minimum one each
  EXPECT_EQ(*a, (std::vector<int64_t>{8, 1, 1}));
  EXPECT_THAT(Apportion(std::vector<double>{1, 1, 1}, 2), Not(IsOk()));
}

TEST(ToIntegerPartitionTest, ValidAndNearProportional) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.05, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    int p = 2 + trial % 12;
    std::vector<double> s(p);
    for (double& x : s) x = u(rng);
    ColumnLayout l = Dp(s);
    const int64_t n = 64 + trial;
    auto part = ToIntegerPartition(l, n, n);
    ASSERT_THAT(part, IsOk());
    ASSERT_THAT(ValidatePartition(*part), IsOk());
    std::vector<int64_t> areas = OwnerAreas(*part);
    for (int i = 0; i < p; ++i) {
      // Within one full strip of the exact share (one row and one column of
      // rounding).
      EXPECT_NEAR(static_cast<double>(areas[i]), l.speeds[i] * n * n,
                  2.0 * n + 1)
          << i;
    }
  }
  EXPECT_THAT(ToIntegerPartition(Dp(std::vector<double>(9, 1.0)), 2, 2),
              Not(IsOk()));
}

// Becker digest 13/14: two processors.
TEST(SquareCornerTest, ClosedForms) {
  EXPECT_DOUBLE_EQ(SquareCornerTvc(4500, 8), 13'500'000.0);
  EXPECT_DOUBLE_EQ(StraightLineTvc(4500), 20'250'000.0);
  EXPECT_DOUBLE_EQ(SquareCornerTvc(4500, 3), 20'250'000.0);
  EXPECT_DOUBLE_EQ(SquareCornerTvc(4500, 15), 10'125'000.0);
  EXPECT_DOUBLE_EQ(SquareCornerTvc(15000, 8), 150'000'000.0);
  EXPECT_DOUBLE_EQ(SquareCornerTvc(7000, 15) / StraightLineTvc(7000), 0.5);
  EXPECT_EQ(SquareCornerSide(4500, 8), 1500);
  EXPECT_EQ(SquareCornerSide(4500, 24), 900);
  for (double n : {12.0, 4500.0}) {
    for (double rho = 1.0; rho <= 25.0; rho += 0.25) {
      double scp = SquareCornerTvc(n, rho), slp = StraightLineTvc(n);
      EXPECT_NEAR(scp, 2 * n * n / std::sqrt(1 + rho), 1e-12 * scp);
      // Serial crossover exactly at rho = 3.
      if (rho < 3) {
        EXPECT_GT(scp, slp) << rho;
      }
      if (rho > 3) {
        EXPECT_LT(scp, slp) << rho;
      }
      // Full-duplex crossover exactly at rho = 2.
      double scp_d = SquareCornerDominantVolume(n, rho),
             slp_d = StraightLineDominantVolume(n, rho);
      if (rho < 2) {
        EXPECT_GT(scp_d, slp_d) << rho;
      }
      if (rho > 2) {
        EXPECT_LT(scp_d, slp_d) << rho;
      }
    }
  }
  EXPECT_NEAR(SquareCornerDominantVolume(4500, 2), 2.0 / 3 * 4500 * 4500, 1e-3);
  EXPECT_NEAR(StraightLineDominantVolume(4500, 2), 2.0 / 3 * 4500 * 4500, 1e-3);
  EXPECT_NEAR(SquareCornerDominantVolume(4500, 8), 9'000'000, 1e-6);
  EXPECT_NEAR(StraightLineDominantVolume(4500, 8), 18'000'000, 1e-6);
}

TEST(SquareCornerTest, HybridThresholds) {
  EXPECT_EQ(ChooseTwoProcessorShape(2.99, LinkModel::kSerial),
            MatrixShape::kStraightLine);
  EXPECT_EQ(ChooseTwoProcessorShape(3.0, LinkModel::kSerial),
            MatrixShape::kSquareCorner);
  EXPECT_EQ(ChooseTwoProcessorShape(1.99, LinkModel::kFullDuplex),
            MatrixShape::kStraightLine);
  EXPECT_EQ(ChooseTwoProcessorShape(2.0, LinkModel::kFullDuplex),
            MatrixShape::kSquareCorner);
  // The hybrid never has a larger volume than either shape (within the model).
  for (double rho = 1.0; rho <= 25.0; rho += 0.5) {
    double pick = ChooseTwoProcessorShape(rho, LinkModel::kSerial) ==
                          MatrixShape::kSquareCorner
                      ? SquareCornerTvc(100, rho)
                      : StraightLineTvc(100);
    EXPECT_LE(pick,
              std::min(SquareCornerTvc(100, rho), StraightLineTvc(100)) + 1e-9);
  }
}

TEST(SquareCornerTest, DiscretePartitionsMatchClosedForm) {
  // N = 4500, rho = 8: side 1500, TVC 13,500,000, directions 9,000,000 and
  // 4,500,000.
  auto p = SquareCornerPartition2(std::vector<double>{8, 1}, 4500);
  ASSERT_THAT(p, IsOk());
  ASSERT_THAT(ValidatePartition(*p), IsOk());
  EXPECT_EQ(p->rects[0], (Rect{0, 0, 1500, 1500, 1}));
  auto v = MatmulVolumes(*p);
  ASSERT_THAT(v, IsOk());
  EXPECT_EQ(v->Total(), 13'500'000);
  EXPECT_EQ(v->at(0, 1), 9'000'000);
  EXPECT_EQ(v->at(1, 0), 4'500'000);
  auto slp = StraightLinePartition2(std::vector<double>{8, 1}, 4500);
  ASSERT_THAT(slp, IsOk());
  auto vs = MatmulVolumes(*slp);
  EXPECT_EQ(vs->Total(), 20'250'000);
  EXPECT_EQ(vs->at(0, 1), 18'000'000);
  // Ratio 0.5 at rho = 15 on the discrete grid (side exactly N / 4).
  auto p15 = SquareCornerPartition2(std::vector<double>{1, 15}, 4500);
  ASSERT_THAT(p15, IsOk());
  EXPECT_EQ(p15->rects[0].owner, 0);
  EXPECT_EQ(MatmulVolumes(*p15)->Total() * 2, MatmulVolumes(*slp)->Total());
  EXPECT_THAT(SquareCornerPartition2(std::vector<double>{1, 2, 3}, 10),
              Not(IsOk()));
  EXPECT_THAT(SquareCornerPartition2(std::vector<double>{1, 2}, 1),
              Not(IsOk()));
}

TEST(SquareCorner3Test, FeasibilityAgreesOnAMillionTriples) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int64_t feasible = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    double x[3] = {u(rng), u(rng), u(rng)};
    std::sort(x, x + 3, std::greater<double>());
    if (x[2] <= 0) continue;
    double sum = x[0] + x[1] + x[2];
    double s1 = x[0] / sum, s2 = x[1] / sum, s3 = x[2] / sum;
    bool a = SquareCorner3Feasible(s1, s2, s3);
    bool b = internal::SquareCorner3FeasibleRatioForm(s1, s2, s3);
    // The two forms are algebraically equal; a disagreement may only sit on the
    // boundary.
    if (a != b) {
      ASSERT_NEAR(std::sqrt(s2) + std::sqrt(s3), 1.0, 1e-12)
          << s1 << " " << s2 << " " << s3;
    }
    feasible += a;
  }
  EXPECT_GT(feasible, 0);
  EXPECT_LT(feasible, 1'000'000);
  EXPECT_FALSE(SquareCorner3Feasible(1, 1, 1));
  EXPECT_TRUE(SquareCorner3Feasible(2, 1, 1));
  EXPECT_TRUE(internal::SquareCorner3FeasibleRatioForm(2, 1, 1));
  EXPECT_THAT(SquareCornerPartition3(std::vector<double>{1, 1, 1}, 12),
              Not(IsOk()));
}

TEST(SquareCorner3Test, DigestVectors) {
  // 50:25:25 on N = 10: squares of 5 touch at the centre; TVC 200; 2 <-> 3
  // silent.
  auto p = SquareCornerPartition3(std::vector<double>{25, 50, 25}, 10);
  ASSERT_THAT(p, IsOk());
  ASSERT_THAT(ValidatePartition(*p), IsOk());
  auto v = MatmulVolumes(*p);
  EXPECT_EQ(v->Total(), 200);
  EXPECT_EQ(v->at(1, 0), 50);  // fastest (id 1) -> middle (id 0)
  EXPECT_EQ(v->at(0, 1), 50);
  EXPECT_EQ(v->at(0, 2), 0);
  EXPECT_EQ(v->at(2, 0), 0);
  // 92:4:4 on N = 20: a = b = 4, TVC 320.
  p = SquareCornerPartition3(std::vector<double>{92, 4, 4}, 20);
  ASSERT_THAT(p, IsOk());
  v = MatmulVolumes(*p);
  EXPECT_EQ(v->Total(), 320);
  EXPECT_EQ(v->at(0, 1), 128);
  EXPECT_EQ(v->at(1, 0), 32);
  EXPECT_EQ(v->at(0, 2), 128);
  EXPECT_EQ(v->at(2, 0), 32);
  // 87:9:4 on N = 10: a = 3, b = 2.
  p = SquareCornerPartition3(std::vector<double>{87, 9, 4}, 10);
  ASSERT_THAT(p, IsOk());
  v = MatmulVolumes(*p);
  EXPECT_EQ(v->at(0, 1), 42);
  EXPECT_EQ(v->at(1, 0), 18);
  EXPECT_EQ(v->at(0, 2), 32);
  EXPECT_EQ(v->at(2, 0), 8);
  EXPECT_EQ(v->Total(), 100);
}

// The lift to the minimum as first written: one scan for the largest entry per
// unit (the oracle of the heap that replaced it).
std::vector<int64_t> LiftByScans(std::vector<int64_t> out, int64_t min_each) {
  for (size_t i = 0; i < out.size(); ++i) {
    while (out[i] < min_each) {
      const size_t donor =
          std::max_element(out.begin(), out.end()) - out.begin();
      --out[donor];
      ++out[i];
    }
  }
  return out;
}

TEST(ApportionTest, HeapLiftAgreesWithScans) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 30;
    const int64_t min_each = 1 + trial % 3;
    std::vector<double> w(n);
    // Many tiny weights next to a few large ones: most entries need a lift.
    for (double& x : w)
      x = u(rng) < 0.7 ? 1e-6 * (1 + u(rng)) : 1 + 10 * u(rng);
    const int64_t total = min_each * n + static_cast<int64_t>(u(rng) * 3 * n);
    auto got = Apportion(w, total, min_each);
    ASSERT_THAT(got, IsOk());
    // The same floors and remainders with min_each 0, then the scans.
    auto raw = Apportion(w, total, 0);
    ASSERT_THAT(raw, IsOk());
    EXPECT_EQ(*got, LiftByScans(*raw, min_each)) << trial;
  }
}

TEST(ApportionTest, HostileTotals) {
  // 50,000 entries to lift from one donor: a heap step each (the scans took
  // 2.5e9 steps).
  std::vector<double> w(50000, 1e-9);
  w[0] = 1;
  auto a = Apportion(w, 50000);
  ASSERT_THAT(a, IsOk());
  EXPECT_EQ(*std::min_element(a->begin(), a->end()), 1);
  EXPECT_EQ(*std::max_element(a->begin(), a->end()), 1);
  // Beyond 2^52 units a double's floor is no longer exact (2^63 looped).
  EXPECT_THAT(Apportion(std::vector<double>{2, 1}, int64_t{1} << 52), IsOk());
  EXPECT_THAT(Apportion(std::vector<double>{2, 1}, INT64_MAX), Not(IsOk()));
  EXPECT_THAT(Apportion(std::vector<double>{1, 1}, 10, INT64_MAX), Not(IsOk()));
  EXPECT_THAT(Apportion(std::vector<double>{1e308, 1e308}, 10), Not(IsOk()));
}

// Sides up to 2^31 - 1: the areas sum to the grid's without overflow; above,
// an error instead of wrapped areas.
TEST(PartitionLimitsTest, SidesAndCells) {
  const int64_t n = (int64_t{1} << 31) - 1;
  auto sq = SquareCornerPartition2(std::vector<double>{3, 1}, n);
  ASSERT_THAT(sq, IsOk());
  ASSERT_THAT(ValidatePartition(*sq), IsOk());
  const std::vector<int64_t> areas = OwnerAreas(*sq);
  EXPECT_EQ(areas[0] + areas[1], n * n);
  EXPECT_THAT(SquareCornerPartition2(std::vector<double>{3, 1}, n + 1),
              Not(IsOk()));
  EXPECT_THAT(StraightLinePartition2(std::vector<double>{3, 1}, n + 1),
              Not(IsOk()));
  EXPECT_THAT(SquareCornerPartition3(std::vector<double>{8, 1, 1}, INT64_MAX),
              Not(IsOk()));
  EXPECT_THAT(ToIntegerPartition(Dp({2, 1}), n + 1, 4), Not(IsOk()));
  Partition wide{int64_t{1} << 40,
                 int64_t{1} << 40,
                 1,
                 {{0, 0, int64_t{1} << 40, int64_t{1} << 40, 0}}};
  EXPECT_THAT(ValidatePartition(wide), Not(IsOk()));
  EXPECT_THAT(NormalizeSpeeds(std::vector<double>{5e-324, 1e300}), Not(IsOk()));
}

// The sweep finds an overlap exactly when some pair overlaps (every pair
// compared, on random rectangles).
TEST(FindOverlappingRectsTest, AgreesWithAllPairs) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Rect> rects;
    const int count = 1 + trial % 9;
    for (int i = 0; i < count; ++i) {
      rects.push_back(Rect{static_cast<int64_t>(rng() % 8),
                           static_cast<int64_t>(rng() % 8),
                           1 + static_cast<int64_t>(rng() % 4),
                           1 + static_cast<int64_t>(rng() % 4), 0});
    }
    auto meet = [](const Rect& a, const Rect& b) {
      return a.row < b.row + b.height && b.row < a.row + a.height &&
             a.col < b.col + b.width && b.col < a.col + a.width;
    };
    bool any = false;
    for (int i = 0; i < count; ++i)
      for (int j = 0; j < i; ++j) any = any || meet(rects[i], rects[j]);
    const auto found = FindOverlappingRects(rects);
    ASSERT_EQ(found.has_value(), any) << trial;
    if (found) {
      EXPECT_LT(found->first, found->second);
      EXPECT_TRUE(meet(rects[found->first], rects[found->second])) << trial;
    }
  }
}

}  // namespace
}  // namespace rankmap::tiling
