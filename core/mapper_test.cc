#include "core/mapper.h"

#include <algorithm>

#include "core/mapping.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using topology::Tree;

TEST(MapperTest, EveryAlgorithmGivesAValidMappingWithConsistentCost) {
  const Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(8, 8),
                                       testing::RandomPermutation(64, 1));
  for (Algorithm a :
       {Algorithm::kTreeMatch, Algorithm::kPortfolio, Algorithm::kIdentity,
        Algorithm::kRoundRobin, Algorithm::kRandom, Algorithm::kMpipp}) {
    MappingOptions o;
    o.algorithm = a;
    auto m = Map(t, g, o);
    ASSERT_TRUE(m.ok()) << AlgorithmName(a) << ": " << m.status();
    auto cost = Cost(t, g, *m);
    ASSERT_TRUE(cost.ok());
    EXPECT_DOUBLE_EQ(cost->j, ComputeJ(t, g, *m));
    auto again = Map(t, g, o);
    EXPECT_EQ(*m, *again) << AlgorithmName(a);
  }
}

TEST(MapperTest, EngineBeatsBaselinesOnAShuffledStencil) {
  const Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(8, 8),
                                       testing::RandomPermutation(64, 1));
  auto j = [&](Algorithm a) {
    MappingOptions o;
    o.algorithm = a;
    return ComputeJ(t, g, *Map(t, g, o));
  };
  const double engine = j(Algorithm::kPortfolio);
  EXPECT_LT(engine, j(Algorithm::kIdentity));
  EXPECT_LT(engine, j(Algorithm::kRandom));
  EXPECT_LE(engine, j(Algorithm::kMpipp));
}

TEST(MapperTest, PresetsAndErrors) {
  ASSERT_TRUE(MappingOptions::Preset("fast").ok());
  ASSERT_TRUE(MappingOptions::Preset("strong").ok());
  EXPECT_FALSE(MappingOptions::Preset("turbo").ok());
  EXPECT_FALSE(ParseAlgorithm("nope").ok());
  EXPECT_EQ(*ParseAlgorithm("mpipp"), Algorithm::kMpipp);
  const Tree t = testing::MakeTleaf("1 4 1");
  // More processes than slots: n-to-1 mapping (leaf loads within the imbalance
  // bound).
  EXPECT_TRUE(Map(t, testing::MakeRandomGraph(5, 2, 1), MappingOptions{}).ok());
  MappingOptions bad;
  bad.refine_rounds = -1;
  EXPECT_FALSE(Map(t, testing::MakeRandomGraph(4, 2, 1), bad).ok());
}

}  // namespace
}  // namespace rankmap::core

namespace rankmap::core {
namespace {

TEST(MapperTest, PortfolioIsNoWorseThanItsMembersAndThreadsChangeNothing) {
  const topology::Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  for (uint64_t seed : {1, 2}) {
    const graphs::CommGraph g = testing::Permute(
        testing::MakeGrid3D(4, 4, 4), testing::RandomPermutation(64, seed));
    MappingOptions o;
    o.seed = seed;
    const Mapping port = *Map(t, g, o);
    o.threads = 2;
    EXPECT_EQ(*Map(t, g, o), port);
    o.algorithm = Algorithm::kTreeMatch;
    const double j_tm = ComputeJ(t, g, *Map(t, g, o));
    o.algorithm = Algorithm::kMultisection;
    const double j_ms = ComputeJ(t, g, *Map(t, g, o));
    EXPECT_LE(ComputeJ(t, g, port), std::min(j_tm, j_ms));
  }
}

}  // namespace
}  // namespace rankmap::core
