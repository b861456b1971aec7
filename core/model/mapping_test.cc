#include "core/model/mapping.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::MakeGrid2D;
using testing::MakeTleaf;
using topology::Tree;

graphs::CommGraph Cycle4(double w) {
  graphs::CommGraphBuilder b(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(b.AddEdge(i, (i + 1) % 4, w).ok());
  return *std::move(b).Build();
}

TEST(Cost, HandComputedFourCycle) {
  // tleaf 2 2 10 2 1: d(0,1) = 1, d(0,2) = 11. Cycle 0-1-2-3-0, weight 5.
  topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  graphs::CommGraph g = Cycle4(5);
  auto id = Cost(t, g, {0, 1, 2, 3});
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(id->j, 5 * (1 + 11 + 1 + 11));  // 120
  EXPECT_EQ(id->hop_bytes, 5 * (2 + 4 + 2 + 4));
  EXPECT_THAT(id->level_volume, ElementsAre(10, 10, 0));
  // Leaves 0-3, pair nodes 4 and 5, root 6.
  EXPECT_THAT(id->node_volume, ElementsAre(0, 0, 0, 0, 5, 5, 10));
  // Each leaf-to-parent link carries 2 edges = 10; each parent-to-root link 2
  // edges = 10.
  EXPECT_EQ(id->max_link_volume, 10);
  auto swapped = Cost(t, g, {0, 2, 1, 3});
  ASSERT_TRUE(swapped.ok());
  EXPECT_EQ(swapped->j, 5 * (11 + 11 + 11 + 11));  // 220
  EXPECT_THAT(swapped->level_volume, ElementsAre(20, 0, 0));
  EXPECT_EQ(swapped->max_link_volume,
            20);  // both edges of one pair node leave through its link
  EXPECT_EQ(ComputeJ(t, g, {0, 2, 1, 3}), 220);
}

TEST(Cost, OversubscribedLeafHasZeroDistance) {
  topology::Tree t =
      *testing::MakeTleaf("2 2 10 2 1").WithCapacities({2, 1, 1, 1});
  graphs::CommGraph g = Cycle4(5);
  auto r = Cost(t, g, {0, 0, 1, 2});
  ASSERT_TRUE(r.ok()) << r.status();
  // edges: (0,1) same leaf 0; (1,2) leaves 0,1: 1; (2,3) leaves 1,2: 11; (3,0)
  // leaves 2,0: 11.
  EXPECT_EQ(r->j, 5 * (0 + 1 + 11 + 11));
  EXPECT_EQ(r->level_volume.back(), 5);
}

TEST(PartitionCost, NToOneHandComputed) {
  // 4 processes on 2 leaves of tleaf 1 2 1 (d = 1): cycle 0-1-2-3-0, weight 5,
  // processes 0, 1 on leaf 0 and 2, 3 on leaf 1.
  const topology::Tree t = testing::MakeTleaf("1 2 1");
  const graphs::CommGraph g = Cycle4(5);
  auto r = PartitionCost(t, g, {0, 0, 1, 1}, 0.03);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->j, 5 * (0 + 1 + 0 + 1));
  EXPECT_EQ(r->hop_bytes, 5 * (2 + 2));
  EXPECT_THAT(r->level_volume, ElementsAre(10, 10));
  // Per LCA node: leaf 0 holds edge (0,1), leaf 1 edge (2,3), the root two.
  EXPECT_THAT(r->node_volume, ElementsAre(5, 5, 10));
  EXPECT_EQ(r->max_link_volume, 10);
  // Over the bound: 3 processes on one leaf.
  EXPECT_FALSE(PartitionCost(t, g, {0, 0, 0, 1}, 0.03).ok());
}

TEST(IsNTo1, MoreProcessesThanSlotsAndSlotsAtAll) {
  const topology::Tree t = testing::MakeTleaf("1 2 1");  // 2 slots
  EXPECT_FALSE(IsNTo1(t, testing::MakeGrid2D(1, 2, 1.0)));
  EXPECT_TRUE(IsNTo1(t, testing::MakeGrid2D(1, 3, 1.0)));
  // Oversubscription adds slots: 4 processes on 2 leaves of 2.
  const topology::Tree two = *t.WithCapacities({2, 2});
  EXPECT_FALSE(IsNTo1(two, Cycle4(1)));
  // A tree without slots maps nothing, n-to-1 or not: Map refuses it as
  // "more processes than slots", and a mapping onto it fails one-to-one.
  const topology::Tree none = *t.WithCapacities({0, 0});
  EXPECT_FALSE(IsNTo1(none, Cycle4(1)));
}

TEST(CheckedCost, PartitionOnNTo1InputsOneToOneOtherwise) {
  const graphs::CommGraph g = Cycle4(5);
  // n-to-1: the partition bound, not the capacity, decides; J as
  // PartitionCost's (hand-computed above: 10).
  const topology::Tree two_leaves = testing::MakeTleaf("1 2 1");
  auto p = CheckedCost(two_leaves, g, {0, 0, 1, 1}, 0.03);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->j, 10);
  EXPECT_EQ(p->hop_bytes, 20);
  EXPECT_THAT(CheckedCost(two_leaves, g, {0, 0, 0, 1}, 0.03).status().message(),
              HasSubstr("above its bound"));
  // A looser imbalance admits 3 of 4 processes on one leaf (bound 2 * 1.5).
  EXPECT_TRUE(CheckedCost(two_leaves, g, {0, 0, 0, 1}, 0.5).ok());
  // One-to-one: capacities decide and the imbalance plays no part.
  const topology::Tree four = testing::MakeTleaf("2 2 10 2 1");
  auto c = CheckedCost(four, g, {0, 2, 1, 3}, 0.03);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->j, 220);
  EXPECT_EQ(c->j, ComputeJ(four, g, {0, 2, 1, 3}));
  EXPECT_THAT(CheckedCost(four, g, {0, 0, 1, 2}, 10.0).status().message(),
              HasSubstr("already holds its capacity"));
}

TEST(ValidateMapping, RejectsBadMappings) {
  topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  EXPECT_TRUE(ValidateMapping(t, 4, {3, 2, 1, 0}).ok());
  EXPECT_THAT(ValidateMapping(t, 4, {0, 1, 2}).message(),
              HasSubstr("3 entries"));
  EXPECT_THAT(ValidateMapping(t, 4, {0, 1, 2, 4}).message(),
              HasSubstr("process 3"));
  EXPECT_THAT(ValidateMapping(t, 4, {0, 1, 1, 2}).message(),
              HasSubstr("process 2"));
  EXPECT_FALSE(ValidateMapping(t, 2, {-1, 0}).ok());
  EXPECT_FALSE(Cost(t, Cycle4(1), {0, 0, 1, 2}).ok());
}

// tleaf distance from the mixed-radix digits of the two leaves, independent of
// Tree: the link costs from the first level where the digits differ down to the
// leaves.
double TleafDistance(const std::vector<int>& arity,
                     const std::vector<double>& cost, int a, int b) {
  double d = 0.0;
  for (int level = static_cast<int>(arity.size()) - 1; level >= 0; --level) {
    if (a == b) break;
    d += cost[level];
    a /= arity[level];
    b /= arity[level];
  }
  return d;
}

// Property: Cost agrees with a naive O(n^2) evaluator over all pairs on random
// inputs.
TEST(Cost, MatchesNaiveEvaluator) {
  std::mt19937_64 rng(7);
  struct Case {
    const char* levels;
    std::vector<int> arity;
    std::vector<double> cost;
  };
  const Case cases[] = {{"2 2 10 2 1", {2, 2}, {10, 1}},
                        {"3 2 100 3 10 2 1", {2, 3, 2}, {100, 10, 1}},
                        {"2 3 7.5 4 0.5", {3, 4}, {7.5, 0.5}},
                        {"1 9 3", {9}, {3}}};
  for (int trial = 0; trial < 40; ++trial) {
    const Case& c = cases[trial % 4];
    topology::Tree t = testing::MakeTleaf(c.levels);
    const int32_t n = 1 + static_cast<int32_t>(rng() % t.num_leaves());
    graphs::CommGraph g = testing::MakeRandomGraph(n, 3, rng());
    std::vector<int32_t> leaves =
        testing::RandomPermutation(t.num_leaves(), rng());
    Mapping m(leaves.begin(), leaves.begin() + n);
    double naive = 0.0;
    for (int32_t i = 0; i < n; ++i) {
      for (int32_t j = i + 1; j < n; ++j) {
        naive +=
            g.EdgeWeight(i, j) * TleafDistance(c.arity, c.cost, m[i], m[j]);
      }
    }
    auto r = Cost(t, g, m);
    ASSERT_TRUE(r.ok());
    EXPECT_DOUBLE_EQ(r->j, naive);
    double total = 0.0;
    for (double v : r->level_volume) total += v;
    EXPECT_DOUBLE_EQ(total, g.TotalVolume());
  }
}

TEST(PartitionLoadBounds, ShareTimesImbalanceOrCeiling) {
  const Tree tree = MakeTleaf("1 4 1").WithCapacities({1, 1, 2, 0}).value();
  const CommGraph g = MakeGrid2D(10, 10);  // W = 100, C = 4
  std::vector<double> b = PartitionLoadBounds(tree, g, 0.03);
  EXPECT_DOUBLE_EQ(b[0], 25.75);
  EXPECT_DOUBLE_EQ(b[1], 25.75);
  EXPECT_DOUBLE_EQ(b[2], 51.5);
  EXPECT_DOUBLE_EQ(b[3], 0.0);
  // 6 vertices on 4 leaves: share 1.5, (1.03 * 1.5) < ceil(1.5) = 2.
  EXPECT_DOUBLE_EQ(
      PartitionLoadBounds(MakeTleaf("1 4 1"), MakeGrid2D(2, 3), 0.03)[0], 2.0);
}

TEST(ValidatePartitionMapping, ReportsTheOverloadedLeaf) {
  const Tree tree = MakeTleaf("1 2 1");
  const CommGraph g = MakeGrid2D(2, 5);  // W = 10, bound 5.15 per leaf
  Mapping ok = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, ok, 0.03).ok());
  Mapping bad = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
  absl::Status s = ValidatePartitionMapping(tree, g, bad, 0.03);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("leaf 0 carries vertex weight 6"),
            std::string::npos)
      << s;
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, bad, 0.2).ok());
  Mapping out = ok;
  out[3] = 2;
  EXPECT_EQ(ValidatePartitionMapping(tree, g, out, 0.03).code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(ValidatePartitionMapping(tree, g, ok, -1.0).ok());
  EXPECT_FALSE(ValidatePartitionMapping(tree, g, Mapping(3, 0), 0.03).ok());
}

}  // namespace
}  // namespace rankmap::core
