#include "tiling/matmul_time.h"

#include <cmath>
#include <functional>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

constexpr int64_t kN = 5000;  // Becker 6.2: N = 5,000, three processors

Partition StraightLine3(const std::vector<double>& speeds, int64_t n) {
  auto l = KalinovLastovetskyPartition(speeds, {{0}, {1, 2}});
  EXPECT_THAT(l, IsOk());
  return *ToIntegerPartition(*l, n, n);
}

MatmulPlatform Platform(Network net, double compute) {
  return MatmulPlatform{net, LinkModel::kFullDuplex, 1.0, compute};
}

// Becker 6.1.4 / digest 6.4: at 90:5:5 on N = 5000 the fastest processor's
// immediate block is C1 = [a, n - b)^2 with a = b = round(5000 sqrt 0.05) =
// 1118: 2764^2 = 7,639,696 cells, 34% of its work; nothing at 50:25:25 (the
// squares meet in the middle); the other processors and the Straight-Line
// layout have none.
TEST(ImmediateCellsTest, SquareCornerBlock) {
  auto p = SquareCornerPartition3(std::vector<double>{90, 5, 5}, kN);
  ASSERT_THAT(p, IsOk());
  auto c = ImmediateCells(*p);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(*c, (std::vector<int64_t>{2764 * 2764, 0, 0}));
  EXPECT_NEAR(2764.0 * 2764 / OwnerAreas(*p)[0], 0.34, 0.005);
  auto even = SquareCornerPartition3(std::vector<double>{50, 25, 25}, kN);
  EXPECT_EQ(*ImmediateCells(*even), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(*ImmediateCells(StraightLine3({90, 5, 5}, kN)),
            (std::vector<int64_t>{0, 0, 0}));
  // A single owner computes everything at once.
  Partition one{4, 4, 1, {{0, 0, 4, 4, 0}}};
  EXPECT_EQ(*ImmediateCells(one), (std::vector<int64_t>{16}));
}

// Hand-checked times on a 10 x 10 two-processor Square-Corner (speeds 3 : 1,
// a = 5): volumes 1 -> 0 = 2 a^2 = 50, 0 -> 1 = 2 a (n - a) = 50.
TEST(MatmulTimeTest, HandCheckedTwoProcessors) {
  auto p = SquareCornerPartition2(std::vector<double>{3, 1}, 10);
  ASSERT_THAT(p, IsOk());
  MatmulPlatform serial{Network::FullyConnected(), LinkModel::kSerial, 10.0,
                        4.0};
  // Serial: 100 elements at 10 / s; areas 75 at 3 / s and 25 at 1 / s.
  auto t = TimeWithoutOverlap(*p, std::vector<double>{3, 1}, serial);
  ASSERT_THAT(t, IsOk());
  EXPECT_DOUBLE_EQ(t->communication, 10);
  EXPECT_DOUBLE_EQ(t->computation, 25);
  EXPECT_DOUBLE_EQ(t->total, 35);
  // Full duplex: the busier direction, 50 elements.
  serial.link = LinkModel::kFullDuplex;
  EXPECT_DOUBLE_EQ(
      TimeWithoutOverlap(*p, std::vector<double>{3, 1}, serial)->total, 30);
  // Overlap: processor 0 computes its 5 x 5 block (25 cells, 8.33 s) during
  // the 5 s of communication, then 50 cells; processor 1 waits 5 s, then 25.
  auto o = TimeWithOverlap(*p, std::vector<double>{3, 1}, serial);
  ASSERT_THAT(o, IsOk());
  EXPECT_DOUBLE_EQ(o->total, std::max(25.0 / 3 + 50.0 / 3, 5.0 + 25.0));
  EXPECT_THAT(TimeWithoutOverlap(*p, std::vector<double>{1}, serial),
              Not(IsOk()));
  serial.compute = 0;
  EXPECT_THAT(TimeWithoutOverlap(*p, std::vector<double>{3, 1}, serial),
              Not(IsOk()));
}

// With the squares proportional to the speeds the slow processors are the
// bottleneck: they wait for the data, then compute as long as without overlap.
TEST(MatmulTimeTest, OverlapNeedsTheRebalancedSquares) {
  const std::vector<double> s = {90, 5, 5};
  auto scp = SquareCornerPartition3(s, kN);
  const MatmulPlatform star = Platform(Network::Star(0), 1.0);
  const double plain = TimeWithoutOverlap(*scp, s, star)->total;
  // (Rounded sides leave the fastest processor a little more than its share.)
  EXPECT_NEAR(TimeWithOverlap(*scp, s, star)->total, plain, 1e-4 * plain);
  auto ov = SquareCornerOverlapPartition3(s, kN);
  ASSERT_THAT(ov, IsOk());
  // a = 2 n r sqrt(s2) / (1 + r^2) = n / 6 at 90:5:5.
  EXPECT_EQ(ov->rects[0].height, 833);
  EXPECT_LT(TimeWithOverlap(*ov, s, star)->total,
            TimeWithoutOverlap(*scp, s, star)->total);
}

// Finds the compute rate (bandwidth 1) at which f(compute) = target, f
// increasing in compute; bisection on a log scale.
double Solve(const std::function<double(double)>& f, double target) {
  double lo = std::log(1e-3), hi = std::log(1e3);
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(std::exp(mid)) < target ? lo : hi) = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

// Becker 6.2 (HCL, three processors, N = 5,000, 100 Mb/s, s2 = s3 from 5 to
// 25): with overlap, Square-Corner is 38% faster than Straight-Line at 90:5:5
// on the star. The figures are lost and the processor speed is not given, so
// the compute / bandwidth ratio (elements of C per second over elements per
// second) is open; we fix it from the experiment's other two figures and
// predict the 38%:
//   * the star's average 14% gain of Square-Corner without overlap (s2 = s3 =
//     5..25%) fixes compute = 8.53 bandwidth; the model then predicts 44.5%;
//   * the fully connected network's 30% gain with overlap at 90:5:5 (no relay,
//     so no schedule to guess) fixes compute = 1.11 bandwidth; the model then
//     predicts 32.5%.
// The seed's 38% lies between the two; neither reading reproduces it alone, and
// no single ratio fits all three figures. (At the stated 100 Mb/s, 1.56e6
// doubles/s, and the HCL nodes' ~1.8 GFlop/s, 1.96e5 elements of C per second
// for the three together, the ratio would be 0.125: communication would be a
// few percent of the run, so the measured gains imply a slower network or a
// faster processor than stated.) Model: full-duplex links, relays after the
// direct phase, overlap partition of SquareCornerOverlapPartition3.
TEST(MatmulTimeTest, BeckerOverlapGainAt90_5_5) {
  const std::vector<double> s90 = {90, 5, 5};
  const Partition slp90 = StraightLine3(s90, kN);
  const Partition ov90 = *SquareCornerOverlapPartition3(s90, kN);
  auto gain_at_90 = [&](Network net, double compute) {
    const MatmulPlatform pf = Platform(net, compute);
    return 1 - TimeWithOverlap(ov90, s90, pf)->total /
                   TimeWithoutOverlap(slp90, s90, pf)->total;
  };
  std::vector<std::vector<double>> speeds;
  std::vector<Partition> slp, scp;
  for (int x = 5; x <= 25; ++x) {
    speeds.push_back({100.0 - 2 * x, 1.0 * x, 1.0 * x});
    slp.push_back(StraightLine3(speeds.back(), kN));
    scp.push_back(*SquareCornerPartition3(speeds.back(), kN));
  }
  auto average_gain = [&](double compute) {
    const MatmulPlatform pf = Platform(Network::Star(0), compute);
    double sum = 0;
    for (size_t k = 0; k < speeds.size(); ++k) {
      sum += 1 - TimeWithoutOverlap(scp[k], speeds[k], pf)->total /
                     TimeWithoutOverlap(slp[k], speeds[k], pf)->total;
    }
    return sum / speeds.size();
  };
  const double from_star = Solve(average_gain, 0.14);
  const double from_fc = Solve(
      [&](double c) { return gain_at_90(Network::FullyConnected(), c); }, 0.30);
  const double high = gain_at_90(Network::Star(0), from_star);
  const double low = gain_at_90(Network::Star(0), from_fc);
  EXPECT_NEAR(from_star, 8.53, 0.01);
  EXPECT_NEAR(from_fc, 1.109, 0.001);
  EXPECT_NEAR(high, 0.4446, 0.0005);
  EXPECT_NEAR(low, 0.3250, 0.0005);
  EXPECT_LT(low, 0.38);
  EXPECT_GT(high, 0.38);
  // The overlap's benefit vanishes at 50:25:25 (no immediate block).
  const std::vector<double> even = {50, 25, 25};
  const MatmulPlatform pf = Platform(Network::Star(0), from_star);
  auto scp_even = SquareCornerPartition3(even, kN);
  EXPECT_NEAR(TimeWithOverlap(*scp_even, even, pf)->total,
              TimeWithoutOverlap(*scp_even, even, pf)->total, 1e-6);
}

// On a 2^30 grid the immediate block is found from the rectangles' edges (a
// line-per-index array needed 8 GiB per owner).
TEST(ImmediateCellsTest, HugeGrids) {
  const int64_t n = int64_t{1} << 30;
  auto p = SquareCornerPartition3(std::vector<double>{90, 5, 5}, n);
  ASSERT_THAT(p, IsOk());
  int64_t a = 0, b = 0;
  for (const Rect& r : p->rects) {
    if (r.owner == 1) a = r.height;
    if (r.owner == 2) b = r.height;
  }
  auto c = ImmediateCells(*p);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(*c, (std::vector<int64_t>{(n - a - b) * (n - a - b), 0, 0}));
}

}  // namespace
}  // namespace rankmap::tiling
