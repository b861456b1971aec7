#include "tiling/network_volume.h"

#include <cmath>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"
#include "tiling/partition.h"
#include "tiling/volume.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

// Straight-Line for three: the fastest (id 0) in a full-height left column, the
// other two stacked on the right.
Partition StraightLine3(std::vector<double> speeds, int64_t n) {
  auto l = KalinovLastovetskyPartition(speeds, {{0}, {1, 2}});
  EXPECT_THAT(l, IsOk());
  auto p = ToIntegerPartition(*l, n, n);
  EXPECT_THAT(p, IsOk());
  return *p;
}

LinkLoads Route(const Partition& p, const Network& net) {
  auto v = MatmulVolumes(p);
  EXPECT_THAT(v, IsOk());
  auto l = RouteVolumes(*v, net);
  EXPECT_THAT(l, IsOk());
  return *l;
}

// Becker digest 13 vectors (eqs. 6.4 and 6.5): the Straight-Line's leaf-to-leaf
// traffic is relayed through the hub and counted twice on the star.
TEST(RouteVolumesTest, StraightLineOnStarAndFullyConnected) {
  const Partition even = StraightLine3({50, 25, 25}, 10);
  EXPECT_EQ(Route(even, Network::FullyConnected()).Total(), 150);
  EXPECT_EQ(Route(even, Network::Star(0)).Total(), 200);
  const Partition skew = StraightLine3({80, 10, 10}, 10);
  EXPECT_EQ(Route(skew, Network::FullyConnected()).Total(), 120);
  const LinkLoads star = Route(skew, Network::Star(0));
  EXPECT_EQ(star.Total(), 140);
  // No link between the leaves; 2 -> 1 traffic (10) rides 2 -> 0 -> 1.
  EXPECT_EQ(star.at(1, 2), 0);
  EXPECT_EQ(star.relayed[0 * 3 + 2], 10);
  EXPECT_EQ(star.relayed[0 * 3 + 1], 10);
  EXPECT_EQ(star.direct[1 * 3 + 0], 10 + 10);  // its own to 0, and 1 -> 2
}

// Square-Corner: the two squares never talk, so with the fastest at the hub
// the star costs what full connection does (eq. 6.6); a slower hub relays the
// fastest processor's traffic with the other leaf, 2 n b for hub = the middle
// one (digest acceptance test 10; the printed Table 6.2 swaps hubs 2 and 3).
TEST(RouteVolumesTest, SquareCornerHubChoice) {
  auto p = SquareCornerPartition3(std::vector<double>{92, 4, 4}, 20);
  ASSERT_THAT(p, IsOk());
  const int64_t full = Route(*p, Network::FullyConnected()).Total();
  EXPECT_EQ(full, 320);
  EXPECT_EQ(Route(*p, Network::Star(0)).Total(), 320);
  EXPECT_EQ(Route(*p, Network::Star(1)).Total(), 320 + 2 * 20 * 4);
  auto q = SquareCornerPartition3(std::vector<double>{87, 9, 4}, 10);
  ASSERT_THAT(q, IsOk());
  // a = 3 (id 1), b = 2 (id 2): hub 1 relays 0 <-> 2 (2 n b = 40), hub 2
  // relays 0 <-> 1 (2 n a = 60).
  EXPECT_EQ(Route(*q, Network::Star(0)).Total(), 100);
  EXPECT_EQ(Route(*q, Network::Star(1)).Total(), 140);
  EXPECT_EQ(Route(*q, Network::Star(2)).Total(), 160);
  EXPECT_THAT(RouteVolumes(*MatmulVolumes(*q), Network::Star(3)), Not(IsOk()));
}

// Eqs. 6.8 and 6.10 against the routed volumes of the discrete partitions
// (n = 2000, s2 = s3 = x from 1% to 25%): where the margin is clearly negative
// Square-Corner moves less, where clearly positive more. On the star with the
// fastest at the hub Square-Corner never moves more (equal at 50:25:25).
TEST(RouteVolumesTest, MarginsAgreeWithDiscreteVolumes) {
  const int64_t n = 2000;
  for (int pct = 1; pct <= 25; ++pct) {
    const double x = pct / 100.0, s1 = 1 - 2 * x;
    const std::vector<double> speeds = {s1, x, x};
    auto scp = SquareCornerPartition3(speeds, n);
    ASSERT_THAT(scp, IsOk());
    const Partition slp = StraightLine3(speeds, n);
    for (bool star : {false, true}) {
      const Network net = star ? Network::Star(0) : Network::FullyConnected();
      const double margin =
          star ? internal::SquareCorner3StarMargin(s1, x, x)
               : internal::SquareCorner3FullyConnectedMargin(s1, x, x);
      const double scp_v = Route(*scp, net).Total();
      const double slp_v = Route(slp, net).Total();
      // Rounding the sides moves the volumes by O(n) elements.
      if (margin < -2.0 / n) {
        EXPECT_LT(scp_v, slp_v) << pct << " " << star;
      }
      if (margin > 2.0 / n) {
        EXPECT_GT(scp_v, slp_v) << pct << " " << star;
      }
      if (star) {
        EXPECT_LE(margin, 1e-12);
      }
    }
  }
  // The fully connected threshold (digest 6.2): x < (1 - 1/sqrt 2)^2.
  const double t = std::pow(1 - 1 / std::sqrt(2.0), 2);
  EXPECT_NEAR(internal::SquareCorner3FullyConnectedMargin(1 - 2 * t, t, t), 0,
              1e-12);
  EXPECT_NEAR(internal::SquareCorner3StarMargin(0.5, 0.25, 0.25), 0, 1e-12);
}

// Relayed traffic counts twice: leaf-to-leaf volumes of 2^61 each way fit one
// matrix but not the star's loads.
TEST(RouteVolumesTest, RoutedOverflowIsAnError) {
  const int64_t big = int64_t{1} << 61;
  VolumeMatrix v{3, {0, 0, 0, 0, 0, big, 0, big, 0}};
  ASSERT_THAT(RouteVolumes(v, Network::FullyConnected()), IsOk());
  auto star = RouteVolumes(v, Network::Star(0));
  ASSERT_THAT(star, Not(IsOk()));
  EXPECT_EQ(std::string(star.status().message()),
            "network: the routed volume exceeds 2^63 - 1 elements");
}

}  // namespace
}  // namespace rankmap::tiling
