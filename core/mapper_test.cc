#include "core/mapper.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/cpus.h"
#include "core/model/mapping.h"
#include "core/model/progress.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/progress_recorder.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using topology::Tree;

// J on tleaf "3 4 1000 4 100 4 10" recomputed from its definition: leaves are
// numbered in mixed radix 4 x 4 x 4 and a node costs the link costs summed
// from its leaves up to it, so two leaves meet at the root (1000 + 100 + 10)
// when their quotients by 16 differ, under a depth-1 node (100 + 10) when
// their quotients by 4 differ, under a depth-2 node (10) otherwise.
double JOn444(const CommGraph& g, const Mapping& m) {
  double j = 0.0;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    auto nbrs = g.neighbors(u);
    auto wgts = g.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      const int32_t a = m[u], b = m[nbrs[k]];
      if (nbrs[k] < u || a == b) continue;
      j += wgts[k] * (a / 16 != b / 16 ? 1110 : a / 4 != b / 4 ? 110 : 10);
    }
  }
  return j;
}

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
    EXPECT_DOUBLE_EQ(cost->j, JOn444(g, *m)) << AlgorithmName(a);
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

TEST(MapperTest, ProgressReportsPhasesWithoutChangingTheResult) {
  const Tree t = testing::MakeTleaf("3 4 100 4 10 4 1");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(8, 8),
                                       testing::RandomPermutation(64, 3));
  MappingOptions o;
  const Mapping plain = *Map(t, g, o);
  testing::ProgressRecorder r;
  o.progress = &r;
  EXPECT_EQ(*Map(t, g, o), plain);
  // Each phase starts at 0, never goes back, and ends at 1.
  std::map<std::string, std::vector<double>> by_phase;
  for (const auto& [phase, f] : r.reports()) by_phase[phase].push_back(f);
  for (const char* phase :
       {"portfolio: treematch", "portfolio: multisection", "refinement"}) {
    ASSERT_TRUE(by_phase.count(phase)) << phase;
    const std::vector<double>& f = by_phase[phase];
    EXPECT_EQ(f.front(), 0) << phase;
    EXPECT_EQ(f.back(), 1) << phase;
  }
  // Refinement of a 3-level tree: levels 1 and 2, then single processes.
  const std::vector<double> want = {0, 1.0 / 3, 2.0 / 3, 1};
  std::vector<double> first(by_phase["refinement"].begin(),
                            by_phase["refinement"].begin() + 4);
  EXPECT_EQ(first, want);
  // n-to-1: four attempts, a quarter each. Inside one, the multisection's
  // walk: 64 processes on a tree of height 2 make 128 process-levels; the
  // root's split does half, each node's a quarter (the last shown as 99%
  // until the walk ends).
  testing::ProgressRecorder n1;
  o.progress = &n1;
  ASSERT_TRUE(Map(testing::MakeTleaf("2 2 10 2 1"), g, o).ok());
  const std::vector<double> attempts = n1.Fractions("n-to-1 attempts");
  std::vector<double> want_attempts;
  for (int a = 0; a < 4; ++a) {
    for (double step : {0.0, 0.5, 0.75, 0.99, 1.0})
      want_attempts.push_back((a + step) / 4);
  }
  want_attempts.push_back(1);
  ASSERT_EQ(attempts.size(), want_attempts.size());
  for (size_t i = 0; i < attempts.size(); ++i)
    EXPECT_NEAR(attempts[i], want_attempts[i], 1e-12) << i;
}

TEST(MapperTest, NoMoreWorkersThanUsableCpus) {
  const int32_t cpus = base::UsableCpus();
  EXPECT_EQ(internal::WorkerThreads(1), 1);
  EXPECT_EQ(internal::WorkerThreads(cpus), cpus);
  EXPECT_EQ(internal::WorkerThreads(1000000), cpus);
  EXPECT_EQ(internal::WorkerThreads(-1), -1);  // refused by ValidateOptions
  // A million requested threads: the usable CPUs run, with the same mapping
  // (one-to-one and n-to-1); a negative count is refused.
  const Tree t = testing::MakeTleaf("3 4 100 4 10 4 1");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(8, 8),
                                       testing::RandomPermutation(64, 5));
  for (const Tree& tree : {t, testing::MakeTleaf("2 4 10 4 1")}) {
    MappingOptions o;
    const Mapping one = *Map(tree, g, o);
    o.threads = 1000000;
    EXPECT_EQ(*Map(tree, g, o), one);
  }
  MappingOptions bad;
  bad.threads = -1;
  EXPECT_EQ(Map(t, g, bad).status().code(), absl::StatusCode::kInvalidArgument);
}

// n-to-1 with portfolio_multilevel (the strong preset's member): the lower J
// of the partition-and-map and the multilevel engine, within the bound.
TEST(MapperTest, NTo1KeepsTheBetterOfPartitionAndMultilevel) {
  const Tree t = testing::MakeTleaf("3 4 100 4 10 4 1");
  int multilevel_won = 0, partition_won = 0;
  for (uint64_t seed : {1, 2, 3, 4}) {
    const CommGraph g = testing::MakeRandomGraph(400, 4, seed);
    MappingOptions o;
    o.seed = seed;
    const double j_partition = ComputeJ(t, g, *Map(t, g, o));
    o.algorithm = Algorithm::kMultilevel;
    const double j_ml = ComputeJ(t, g, *Map(t, g, o));
    o.algorithm = Algorithm::kPortfolio;
    o.portfolio_multilevel = true;
    const Mapping both = *Map(t, g, o);
    EXPECT_TRUE(ValidatePartitionMapping(t, g, both, o.imbalance).ok());
    EXPECT_EQ(ComputeJ(t, g, both), std::min(j_partition, j_ml)) << seed;
    (j_ml < j_partition ? multilevel_won : partition_won)++;
  }
  // Both sides win on these seeds: both branches are exercised.
  EXPECT_GT(multilevel_won, 0);
  EXPECT_GT(partition_won, 0);
}

TEST(MapperTest, DefaultNTo1RunsTheMultilevelEngineOnLargeGraphs) {
  const Tree t = testing::MakeTleaf("2 4 10 4 1");
  // 64 x 64 = kMultilevelNTo1From cells onto 16 leaves: the multilevel
  // engine's partition; one row less: the multisection's attempts.
  const CommGraph large = testing::MakeGrid2D(64, 64);
  const CommGraph small = testing::MakeGrid2D(63, 64);
  ASSERT_EQ(large.num_vertices(), kMultilevelNTo1From);
  MappingOptions def, ml, ms;
  ml.algorithm = Algorithm::kMultilevel;
  ms.algorithm = Algorithm::kMultisection;
  EXPECT_EQ(EffectiveAlgorithm(t, large, def), Algorithm::kMultilevel);
  EXPECT_EQ(EffectiveAlgorithm(t, small, def), Algorithm::kMultisection);
  EXPECT_EQ(EffectiveAlgorithm(t, large, ms), Algorithm::kMultisection);
  // The strong preset keeps both and the lower J.
  EXPECT_EQ(EffectiveAlgorithm(t, large, *MappingOptions::Preset("strong")),
            Algorithm::kMultisection);
  EXPECT_EQ(*internal::MachineAwarePartition(t, large, def),
            *internal::MachineAwarePartition(t, large, ml));
  EXPECT_EQ(*internal::MachineAwarePartition(t, small, def),
            *internal::MachineAwarePartition(t, small, ms));
  const Mapping m = *Map(t, large, def);
  EXPECT_TRUE(ValidatePartitionMapping(t, large, m, def.imbalance).ok());
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

namespace rankmap::core {
namespace {

TEST(MapTest, VolumesWhoseCostOverflowsAreRefused) {
  // Finite weights whose sum times the distance passes DBL_MAX: J would be inf.
  graphs::CommGraphBuilder b(3);
  ASSERT_TRUE(b.AddEdge(0, 1, 1e308).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 1e308).ok());
  const graphs::CommGraph g = std::move(b).Build().value();
  const topology::Tree t = testing::MakeTleaf("2 2 100 2 1");
  for (const char* algorithm : {"portfolio", "identity", "scotch"}) {
    MappingOptions o;
    o.algorithm = ParseAlgorithm(algorithm).value();
    const absl::StatusOr<Mapping> m = Map(t, g, o);
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(m.status().message(),
              "cost: total volume 2e+308 times the largest distance 101 "
              "overflows a double (J must stay below 1.12e+307); scale the "
              "weights or costs down");
  }
  EXPECT_FALSE(Cost(t, g, Mapping{0, 1, 2}).ok());
}

TEST(MapTest, WorkingMemoryBeyondTheBudgetIsRefusedBeforeMapping) {
  MappingOptions o;
  o.max_memory_bytes = 1 << 20;
  const topology::Tree t = testing::MakeTleaf("2 64 10 64 1");
  const absl::StatusOr<Mapping> m = Map(t, testing::MakeGrid2D(64, 64), o);
  EXPECT_EQ(m.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(m.status().message(),
            "map: 4096 processes and 8064 edges onto 4096 leaves needs about "
            "1.7 MiB, above the memory budget of 1.0 MiB");
}

}  // namespace
}  // namespace rankmap::core
