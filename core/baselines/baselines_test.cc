#include "core/baselines/baselines.h"

#include <algorithm>

#include "core/model/mapping.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using topology::Tree;

TEST(BaselinesTest, IdentityAndRoundRobin) {
  const Tree t = testing::MakeTleaf("2 2 10 4 1");
  EXPECT_EQ(IdentityMap(t, 5), (Mapping{0, 1, 2, 3, 4}));
  EXPECT_EQ(RoundRobinMap(t, 5), (Mapping{0, 4, 1, 5, 2}));
  const Tree over = *t.WithCapacities({2, 0, 1, 1, 1, 1, 1, 1});
  EXPECT_EQ(Slots(over), (std::vector<LeafId>{0, 0, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(IdentityMap(over, 3), (Mapping{0, 0, 2}));
  EXPECT_TRUE(ValidateMapping(over, 7, RoundRobinMap(over, 7)).ok());
}

TEST(BaselinesTest, HugeCapacitiesAreCountedNotListed) {
  // 2 x (2^31 - 1) slots: listing them would take 16 GiB.
  const Tree t = testing::MakeTleaf("1 2 1");
  const Tree over = *t.WithCapacities({2147483647, 2147483647});
  EXPECT_EQ(Slots(over, 3), (std::vector<LeafId>{0, 0, 0}));
  EXPECT_EQ(IdentityMap(over, 3), (Mapping{0, 0, 0}));
  EXPECT_EQ(RoundRobinMap(over, 3), (Mapping{0, 1, 0}));
  const Mapping r = RandomMap(over, 1000, 5);
  ASSERT_TRUE(ValidateMapping(over, 1000, r).ok());
  EXPECT_EQ(r, RandomMap(over, 1000, 5));
  // Uniform over the slots: both leaves get about half.
  const int64_t on_zero = std::count(r.begin(), r.end(), 0);
  EXPECT_GT(on_zero, 400);
  EXPECT_LT(on_zero, 600);
}

TEST(BaselinesTest, RoundRobinSkipsFullSubtrees) {
  // Root children with 1, 4 and 1 slots: after one turn only the middle one
  // takes processes.
  const Tree t = testing::MakeTleaf("2 3 10 2 1");
  const Tree over = *t.WithCapacities({1, 0, 2, 2, 0, 1});
  EXPECT_EQ(RoundRobinMap(over, 6), (Mapping{0, 2, 5, 2, 3, 3}));
}

TEST(BaselinesTest, RandomIsASeededPermutation) {
  const Tree t = testing::MakeTleaf("2 4 10 4 1");
  const Mapping a = RandomMap(t, 16, 3), b = RandomMap(t, 16, 3),
                c = RandomMap(t, 16, 4);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  Mapping sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, IdentityMap(t, 16));
}

// Exhaustive optimum for a tiny instance.
double Optimum(const Tree& t, const CommGraph& g) {
  std::vector<LeafId> p(t.num_leaves());
  for (LeafId l = 0; l < t.num_leaves(); ++l) p[l] = l;
  double best = 1e300;
  do {
    Mapping m(p.begin(), p.begin() + g.num_vertices());
    best = std::min(best, ComputeJ(t, g, m));
  } while (std::next_permutation(p.begin(), p.end()));
  return best;
}

TEST(BaselinesTest, MpippImprovesOnItsRandomStartAndIsDeterministic) {
  const Tree t = testing::MakeTleaf("3 2 100 2 10 2 1");
  MpippOptions o;
  o.starts = 3;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const CommGraph g = testing::MakeRandomGraph(8, 3, seed);
    const Mapping m = MpippMap(t, g, o, seed);
    ASSERT_TRUE(ValidateMapping(t, 8, m).ok());
    EXPECT_EQ(m, MpippMap(t, g, o, seed));
    const double j = ComputeJ(t, g, m);
    EXPECT_LE(j, ComputeJ(t, g, RandomMap(t, 8, seed)));
    EXPECT_GE(j, Optimum(t, g) - 1e-9);
  }
}

}  // namespace
}  // namespace rankmap::core
