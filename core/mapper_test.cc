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
  bad = MappingOptions{};
  bad.metis_effort = -1;
  absl::StatusOr<Mapping> m = Map(t, testing::MakeRandomGraph(4, 2, 1), bad);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("metis_effort"), absl::string_view::npos);
  // The strong preset spends more METIS effort and refinement than default.
  const MappingOptions strong = *MappingOptions::Preset("strong");
  EXPECT_EQ(strong.metis_effort, 2);
  EXPECT_EQ(strong.refine_rounds, 32);
  EXPECT_EQ(strong.exhaustive_limit, 0);
}

}  // namespace
}  // namespace rankmap::core

namespace rankmap::core {
namespace {

TEST(MapperTest, PortfolioIsNoWorseThanItsMembersAndThreadsChangeNothing) {
  const topology::Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  int refined_cases = 0, unrefined_cases = 0;
  for (uint64_t seed : {1, 2}) {
    for (const graphs::CommGraph& base :
         {testing::MakeGrid3D(4, 4, 4),
          testing::MakeCliqueChain(4, 16, 10.0, 1.0)}) {
      const graphs::CommGraph g =
          testing::Permute(base, testing::RandomPermutation(64, seed));
      MappingOptions o;
      o.seed = seed;
      const Mapping port = *Map(t, g, o);
      o.threads = 2;
      EXPECT_EQ(*Map(t, g, o), port);
      // Members: the refined multisection always competes; TreeMatch competes
      // refined when it is within 2% of it, else unrefined.
      o.algorithm = Algorithm::kMultisection;
      const double j_ms = ComputeJ(t, g, *Map(t, g, o));
      o.algorithm = Algorithm::kTreeMatch;
      o.refine = false;
      const double j_tm_raw = ComputeJ(t, g, *Map(t, g, o));
      o.refine = true;
      const double j_tm = ComputeJ(t, g, *Map(t, g, o));
      const double j_port = ComputeJ(t, g, port);
      EXPECT_LE(j_port, std::min(j_ms, j_tm_raw));
      if (j_tm_raw <= 1.02 * j_ms) {
        EXPECT_EQ(j_port, std::min(j_ms, j_tm));
        ++refined_cases;
      } else {
        ++unrefined_cases;
      }
    }
  }
  // The clique chains exercise the refined branch, the stencils the other.
  EXPECT_GT(refined_cases, 0);
  EXPECT_GT(unrefined_cases, 0);
}

}  // namespace
}  // namespace rankmap::core
