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

TEST(MapperTest, NTo1AndErrors) {
  const Tree t = testing::MakeTleaf("1 4 1");
  // More processes than slots: n-to-1 mapping (leaf loads within the imbalance
  // bound), by the multisection unless Scotch is asked for.
  const CommGraph five = testing::MakeRandomGraph(5, 2, 1);
  MappingOptions o;
  o.algorithm = Algorithm::kTreeMatch;
  absl::StatusOr<Mapping> m = Map(t, five, o);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(ValidatePartitionMapping(t, five, *m, o.imbalance).ok());
  EXPECT_EQ(EffectiveAlgorithm(t, five, o), Algorithm::kMultisection);
  o.algorithm = Algorithm::kScotch;
  EXPECT_EQ(EffectiveAlgorithm(t, five, o), Algorithm::kScotch);
  EXPECT_EQ(EffectiveAlgorithm(t, testing::MakeRandomGraph(4, 2, 1),
                               MappingOptions{}),
            Algorithm::kPortfolio);
  // Invalid options are refused before anything runs, naming the field.
  MappingOptions bad;
  bad.multisection.metis_effort = -1;
  m = Map(t, testing::MakeRandomGraph(4, 2, 1), bad);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("metis_effort"), absl::string_view::npos);
  // A tree without a usable slot cannot take a process.
  const Tree none = t.WithCapacities({0, 0, 0, 0}).value();
  m = Map(none, testing::MakeRandomGraph(2, 1, 1), MappingOptions{});
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace rankmap::core
