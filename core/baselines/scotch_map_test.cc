#include "core/baselines/scotch_map.h"

#include <vector>

#include "core/strategies/partition_map.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::CommGraphBuilder;
using testing::MakeCliqueChain;
using testing::MakeGrid2D;
using testing::MakeTleaf;
using testing::PairwiseJ;
using testing::Permute;
using testing::RandomPermutation;
using topology::Tree;

TEST(ScotchMap, TleafTargetFindsHiddenCliques) {
  // Same instance as the multisection test: optimum 4 * 120 * 10 + 3 * 11 =
  // 4833.
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g =
      Permute(MakeCliqueChain(4, 16, 10.0, 1.0), RandomPermutation(64, 5));
  ScotchReport rep;
  Mapping m = ScotchMap(tree, g, 1, &rep).value();
  EXPECT_TRUE(rep.tleaf_target);
  ASSERT_TRUE(ValidateMapping(tree, 64, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 4833.0);
}

TEST(ScotchMap, ShuffledGridValidDeterministicAndBetterThanIdentity) {
  const Tree tree = MakeTleaf("3 4 100 2 10 8 1");
  const CommGraph g = Permute(MakeGrid2D(8, 8), RandomPermutation(64, 9));
  Mapping m = ScotchMap(tree, g, /*seed=*/3).value();
  ASSERT_TRUE(ValidateMapping(tree, 64, m).ok());
  EXPECT_EQ(ScotchMap(tree, g, 3).value(), m);
  EXPECT_DOUBLE_EQ(ComputeJ(tree, g, m), PairwiseJ(tree, g, m));
  EXPECT_GE(PairwiseJ(tree, g, m),
            2032.0);  // the optimum (see multisection_test)
  Mapping id(64);
  for (int32_t i = 0; i < 64; ++i) id[i] = i;
  EXPECT_LT(PairwiseJ(tree, g, m), PairwiseJ(tree, g, id));
}

TEST(ScotchMap, FewerProcessesThanSlotsArePadded) {
  const Tree tree = MakeTleaf("2 4 10 16 1");
  const CommGraph g = MakeCliqueChain(1, 16, 1.0, 0.0);
  Mapping m = ScotchMap(tree, g, 1).value();
  ASSERT_TRUE(ValidateMapping(tree, 16, m).ok());
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 120.0);  // one node
}

TEST(ScotchMap, UnbalancedTreeUsesGeneralTargetAndSkipsForbiddenLeaves) {
  // The multisection test's instance: optimum 180 with the 6-clique on node A.
  const auto [tree, g] = testing::MakeRestrictedTwoNodeCase();
  ScotchReport rep;
  Mapping m = ScotchMap(tree, g, 1, &rep).value();
  EXPECT_FALSE(rep.tleaf_target);
  ASSERT_TRUE(ValidateMapping(tree, 8, m).ok());
  for (LeafId l : m) EXPECT_GT(tree.capacity(l), 0);
  EXPECT_GE(PairwiseJ(tree, g, m), 180.0);
  EXPECT_DOUBLE_EQ(PairwiseJ(tree, g, m), 180.0);
}

TEST(ScotchMap, OversubscribedLeavesGetACapacityLevel) {
  const Tree tree =
      MakeTleaf("2 2 10 2 1").WithCapacities({2, 2, 2, 2}).value();
  const CommGraph g =
      Permute(testing::MakePairRing(4, 50, 1), RandomPermutation(8, 4));
  ScotchReport rep;
  Mapping m = ScotchMap(tree, g, 1, &rep).value();
  EXPECT_TRUE(rep.tleaf_target);
  ASSERT_TRUE(ValidateMapping(tree, 8, m).ok());
  EXPECT_GE(PairwiseJ(tree, g, m), 24.0);  // the optimum
}

TEST(ScotchPartitionMap, GridOntoHierarchyNearBalanced) {
  // Links against METIS too (multisection) in the same binary.
  const Tree tree = MakeTleaf("3 2 90 2 9 4 1");
  const CommGraph g = Permute(MakeGrid2D(32, 32), RandomPermutation(1024, 3));
  Mapping m = ScotchPartitionMap(tree, g, 0.03, 1).value();
  ASSERT_EQ(m.size(), 1024u);
  // Scotch's balance is its own; allow a little more than the requested 3%.
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, m, 0.10).ok());
  const double js = ComputeJ(tree, g, m);
  EXPECT_GE(js, 0.8 * 3648.0);  // nested tiling J (see multisection_test)
  Mapping ours = PartitionMap(tree, g, MappingOptions{}).value();
  EXPECT_GT(ComputeJ(tree, g, ours), 0.0);
}

}  // namespace
}  // namespace rankmap::core

namespace rankmap::core {
namespace {

TEST(ScotchMapTest, CapacitiesAboveNCountAsN) {
  // Two leaves of 2^31 - 1 slots: strict balance pads to 2 x 2 slots, not 2^32.
  graphs::CommGraphBuilder b(2);
  ASSERT_TRUE(b.AddEdge(0, 1, 5.0).ok());
  const graphs::CommGraph g = std::move(b).Build().value();
  const topology::Tree t =
      *testing::MakeTleaf("1 2 1").WithCapacities({2147483647, 2147483647});
  absl::StatusOr<Mapping> m = ScotchMap(t, g, 1);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(ValidateMapping(t, 2, *m).ok());
}

TEST(ScotchMapTest, PaddingBeyondTheBudgetIsRefused) {
  // 100,000 leaves of 65,536 slots and 65,536 processes: 6.5e9 padded slots.
  const topology::Tree t =
      *testing::MakeTleaf("1 100000 1")
           .WithCapacities(std::vector<int32_t>(100000, 65536));
  const graphs::CommGraph g = testing::MakeGrid2D(256, 256);
  absl::StatusOr<Mapping> m = ScotchMap(t, g, 1);
  EXPECT_EQ(m.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(m.status().message()),
              ::testing::HasSubstr("scotch: strict balance on 6553600000 "
                                   "slots needs about 976.6 GiB"));
}

}  // namespace
}  // namespace rankmap::core
