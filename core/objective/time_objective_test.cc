#include "core/objective/time_objective.h"

#include <random>
#include <vector>

#include "core/baselines/baselines.h"
#include "core/mapper.h"
#include "core/objective/link_load.h"
#include "core/objective/objective.h"
#include "core/refine/refine.h"
#include "core/strategies/present_order.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::CommGraphBuilder;
using topology::Tree;

// 2 switches x 2 hosts x 2 cores. Routes: one host 0.5 us, 40 GB/s (the
// loopback); two hosts of a switch 1 + 1 us, 3.125 GB/s (25 Gb/s host links);
// two switches 1 + 2 + 2 + 1 = 6 us, 1.25 GB/s (10 Gb/s switch uplinks).
Tree Cluster() {
  auto t =
      topology::ParseTleaf("tleaf 3 2 10Gbps:2us 2 25Gbps:1us 2 40GBps:0.5us");
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

Tree Levels(std::vector<int64_t> arities, std::vector<double> costs) {
  return *Tree::FromLevels(arities, costs);
}

constexpr double kHostLat = 0.5e-6, kHostInv = 1 / 40e9;
constexpr double kSwitchLat = 2e-6, kSwitchInv = 1 / 3.125e9;
constexpr double kRootLat = 6e-6, kRootInv = 1 / 1.25e9;

TEST(MakeTimeTrees, PricesEveryLevelByItsRoute) {
  const Tree t = Cluster();
  auto trees = MakeTimeTrees(t);
  ASSERT_TRUE(trees.ok()) << trees.status();
  // Leaves 0,1 share host n0; 0,2 a switch; 0,4 only the root.
  EXPECT_DOUBLE_EQ(trees->latency.Distance(0, 1), kHostLat);
  EXPECT_DOUBLE_EQ(trees->inverse_bandwidth.Distance(0, 1), kHostInv);
  EXPECT_DOUBLE_EQ(trees->latency.Distance(0, 2), kSwitchLat);
  EXPECT_DOUBLE_EQ(trees->inverse_bandwidth.Distance(1, 3), kSwitchInv);
  EXPECT_DOUBLE_EQ(trees->latency.Distance(0, 4), kRootLat);
  EXPECT_DOUBLE_EQ(trees->inverse_bandwidth.Distance(3, 7), kRootInv);
  EXPECT_EQ(trees->latency.Distance(5, 5), 0.0);
  // The cost rule is the time of a 64 KiB message: latency + 64 KiB / bw.
  for (auto [a, b] : {std::pair{0, 1}, {0, 2}, {0, 7}}) {
    EXPECT_NEAR(t.Distance(a, b) * 1e-6,
                trees->latency.Distance(a, b) +
                    65536 * trees->inverse_bandwidth.Distance(a, b),
                1e-15);
  }
  EXPECT_FALSE(MakeTimeTrees(Levels({2, 2}, {10, 1})).ok());
}

// The pair 0-1 sends 1,000 messages of 8 bytes, the pair 0-2 one message of
// 100,000 bytes: bytes say keep 0 with 2, time says keep 0 with 1.
CommGraph ManySmallOrOneLarge() {
  CommGraphBuilder b(4);
  EXPECT_TRUE(b.AddTraffic(0, 1, 8000, 1000).ok());
  EXPECT_TRUE(b.AddTraffic(0, 2, 100000, 1).ok());
  EXPECT_TRUE(b.AddTraffic(2, 3, 10, 1).ok());
  return *std::move(b).Build();
}

TEST(TimeCost, IsMessagesTimesLatencyPlusBytesOverBandwidth) {
  const Tree t = Cluster();
  const TimeTrees trees = *MakeTimeTrees(t);
  const CommGraph g = ManySmallOrOneLarge();
  // 0,1 on one host; 2,3 on the other host of that switch.
  const Mapping m = {0, 1, 2, 3};
  const double expect = 1000 * kHostLat + 8000 * kHostInv +     // 0-1
                        1 * kSwitchLat + 100000 * kSwitchInv +  // 0-2
                        1 * kHostLat + 10 * kHostInv;           // 2-3
  EXPECT_NEAR(TimeCost(trees, g, m), expect, 1e-15);
}

TEST(TimeObjective, PicksTheFasterMappingWhereJPicksTheOther) {
  const Tree t = Cluster();
  const TimeTrees trees = *MakeTimeTrees(t);
  const CommGraph g = ManySmallOrOneLarge();
  // Only 4 of the 8 slots, so that 0 must leave one partner's host: the
  // topology restricted to the first switch (two hosts of two cores).
  auto part = topology::ParseTleaf("tleaf 2 2 25Gbps:1us 2 40GBps:0.5us");
  ASSERT_TRUE(part.ok());
  for (ObjectiveKind kind : {ObjectiveKind::kJ, ObjectiveKind::kTime}) {
    MappingOptions o;
    o.objective = kind;
    o.present = {0, 2, 1, 3};  // 0 alone with 2: neither optimum
    MapReport report;
    o.report = &report;
    auto m = Map(*part, g, o);
    ASSERT_TRUE(m.ok()) << m.status();
    const bool with_1 = (*m)[0] / 2 == (*m)[1] / 2;
    const bool with_2 = (*m)[0] / 2 == (*m)[2] / 2;
    if (kind == ObjectiveKind::kJ) {
      EXPECT_TRUE(with_2 && !with_1) << "J keeps the 100 kB pair together";
      EXPECT_EQ(report.objective, "J");
    } else {
      EXPECT_TRUE(with_1 && !with_2) << "time keeps the 1,000 messages";
      EXPECT_EQ(report.objective, "time");
    }
  }
  // Hand computation on the two-host tree: T(0 with 1) vs T(0 with 2).
  auto ptrees = MakeTimeTrees(*part);
  ASSERT_TRUE(ptrees.ok());
  const double with_1 = TimeCost(*ptrees, g, {0, 1, 2, 3});
  const double with_2 = TimeCost(*ptrees, g, {0, 2, 1, 3});
  EXPECT_NEAR(with_1,
              1000 * kHostLat + 8000 * kHostInv + kSwitchLat +
                  100000 * kSwitchInv + kHostLat + 10 * kHostInv,
              1e-15);
  EXPECT_NEAR(with_2,
              1000 * kSwitchLat + 8000 * kSwitchInv + kHostLat +
                  100000 * kHostInv + kSwitchLat + 10 * kSwitchInv,
              1e-15);
  EXPECT_LT(with_1, with_2);
  EXPECT_GT(ComputeJ(*part, g, {0, 1, 2, 3}), ComputeJ(*part, g, {0, 2, 1, 3}));
}

TEST(TimeObjective, AutoNeedsCountsAndLinksAndTimeSaysWhatIsMissing) {
  const CommGraph g = ManySmallOrOneLarge();
  CommGraphBuilder b(4);
  ASSERT_TRUE(b.AddEdge(0, 1, 5).ok());
  const CommGraph bytes_only = *std::move(b).Build();
  const Tree links = Cluster();
  const Tree costs = Levels({2, 2, 2}, {100, 10, 1});
  EXPECT_TRUE(*UsesTime(ObjectiveKind::kAuto, links, g));
  EXPECT_FALSE(*UsesTime(ObjectiveKind::kAuto, links, bytes_only));
  EXPECT_FALSE(*UsesTime(ObjectiveKind::kAuto, costs, g));
  EXPECT_FALSE(*UsesTime(ObjectiveKind::kJ, links, g));
  EXPECT_EQ(
      UsesTime(ObjectiveKind::kTime, costs, bytes_only).status().message(),
      "map: the time objective needs a topology with links and message "
      "counts (e.g. app.msgs.mat)");
  MappingOptions o;
  o.objective = ObjectiveKind::kTime;
  EXPECT_FALSE(Map(costs, g, o).ok());
}

// A random graph with counts on the 8-slot cluster.
CommGraph RandomTraffic(uint32_t seed) {
  std::mt19937 rng(seed);
  CommGraphBuilder b(8);
  for (int k = 0; k < 14; ++k) {
    const int u = rng() % 8, v = rng() % 8;
    EXPECT_TRUE(b.AddTraffic(u, v, rng() % 50000, rng() % 3000).ok());
  }
  return *std::move(b).Build();
}

TEST(TimeObjective, RefinementNeverRaisesTAndKeepsAPermutation) {
  const Tree t = Cluster();
  const TimeTrees trees = *MakeTimeTrees(t);
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const CommGraph g = RandomTraffic(seed);
    Mapping m = RandomMap(t, 8, seed);
    const double before = TimeCost(trees, g, m);
    RefineMapping(trees.inverse_bandwidth, g, 8, &m, nullptr, nullptr,
                  &trees.latency);
    EXPECT_TRUE(ValidateMapping(t, 8, m).ok());
    EXPECT_LE(TimeCost(trees, g, m), before * (1 + 1e-12)) << seed;
  }
}

// Brute force over all 8! placements: the portfolio under time finds the
// optimum of T on these small instances.
TEST(TimeObjective, MapIsNearTheBruteForceOptimumOfT) {
  const Tree t = Cluster();
  const TimeTrees trees = *MakeTimeTrees(t);
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const CommGraph g = RandomTraffic(seed);
    Mapping p = {0, 1, 2, 3, 4, 5, 6, 7};
    double best = TimeCost(trees, g, p);
    while (std::next_permutation(p.begin(), p.end()))
      best = std::min(best, TimeCost(trees, g, p));
    // T alone decides (no estimate, no margin), from a random present order.
    MappingOptions o;
    o.present = RandomMap(t, 8, seed + 100);
    o.link_aware_choice = false;
    o.keep_margin = 0;
    auto m = Map(t, g, o);
    ASSERT_TRUE(m.ok());
    EXPECT_LE(TimeCost(trees, g, *m), best * (1 + 1e-9)) << seed;
  }
}

TEST(RoundsLatency, SumsEachRoundsSlowestPair) {
  // 10 messages at 1 us and 1 at 5 us: the first round waits 5 us, the nine
  // others 1 us.
  EXPECT_DOUBLE_EQ(RoundsLatency({{10, 1e-6}, {1, 5e-6}}), 14e-6);
  EXPECT_DOUBLE_EQ(RoundsLatency({{3, 2e-6}, {3, 1e-6}, {0, 9e-6}}), 6e-6);
  EXPECT_DOUBLE_EQ(RoundsLatency({}), 0.0);
}

TEST(LinkLoad, CountsMessageRoundsWhenTheGraphHasCounts) {
  const Tree t = Cluster();
  const CommGraph g = ManySmallOrOneLarge();
  const Mapping m = {0, 1, 2, 3};
  // Rounds: 0-1 has 500 each way on its host, 0-2 and 2-3 one half each way
  // (round weights 0.5). Latency: 499.5 rounds of 0.5 us, then 0.5 round
  // with 0-2's switch route (2 us).
  const LinkLoad load = EstimateLinkLoad(t, g, m);
  EXPECT_NEAR(load.latency, 499.5 * kHostLat + 0.5 * kSwitchLat, 1e-15);
}

TEST(PresentOrder, IsKeptUnlessBeatenAndTheReportSaysSo) {
  const Tree t = Cluster();
  // A ring 0-1-...-7-0 of many small messages: packed order is optimal.
  CommGraphBuilder b(8);
  for (int i = 0; i < 8; ++i)
    ASSERT_TRUE(b.AddTraffic(i, (i + 1) % 8, 3400, 10).ok());
  const CommGraph ring = *std::move(b).Build();
  MappingOptions o;
  MapReport report;
  o.report = &report;
  auto m = Map(t, ring, o);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(report.weighed);
  EXPECT_TRUE(report.kept_present);
  EXPECT_EQ(*m, IdentityMap(t, 8));
  EXPECT_EQ(report.moved, 0);
  EXPECT_LE(report.best_cost, report.present_cost * (1 + 1e-12) + 1e-18)
      << "the best found is reported beside the present order";
  // A shuffled present order loses by far more than the margin.
  o.present = {0, 4, 1, 5, 2, 6, 3, 7};
  auto shuffled = Map(t, ring, o);
  ASSERT_TRUE(shuffled.ok());
  EXPECT_FALSE(report.kept_present);
  EXPECT_LT(report.chosen_cost, (1 - o.keep_margin) * report.present_cost);
  EXPECT_NEAR(report.chosen_cost, TimeCost(*MakeTimeTrees(t), ring, *shuffled),
              1e-15);
  EXPECT_GT(report.moved, 0);
  // A present order that is not a mapping is an error naming it.
  o.present = {0, 0, 1, 2, 3, 4, 5, 6};
  EXPECT_NE(
      std::string(Map(t, ring, o).status().message()).find("present order"),
      std::string::npos);
}

}  // namespace
}  // namespace rankmap::core
