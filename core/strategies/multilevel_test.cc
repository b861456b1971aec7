#include "core/strategies/multilevel.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/initial/exact_map.h"
#include "core/model/mapping.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/hetero_clusters.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using topology::Tree;

// Coarse levels on small graphs: the engine coarsens above this many.
constexpr int64_t kSmallSplit = 200;

Mapping OneToOne(const Tree& t, const CommGraph& g, int32_t threads = 1,
                 int64_t split = kSmallSplit) {
  MappingOptions o;
  o.threads = threads;
  absl::StatusOr<Mapping> m =
      internal::RunMultilevel(t, g, o, /*one_to_one=*/true, split);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Mapping();
}

Mapping NTo1(const Tree& t, const CommGraph& g, int32_t threads = 1,
             int64_t split = kSmallSplit) {
  MappingOptions o;
  o.threads = threads;
  absl::StatusOr<Mapping> m =
      internal::RunMultilevel(t, g, o, /*one_to_one=*/false, split);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Mapping();
}

TEST(MultilevelTest, OneToOneIsValidOnEveryKindOfTree) {
  const CommGraph grid = testing::Permute(testing::MakeGrid2D(24, 24),
                                          testing::RandomPermutation(576, 7));
  // Balanced, irregular arities, capacity 2 leaves, restricted leaves.
  const Tree trees[] = {
      testing::MakeTleaf("4 6 1000 4 100 2 10 12 1"),
      testing::MakeTleaf("3 3 100 8 10 24 1"),
      *testing::MakeTleaf("3 4 100 6 10 12 1")
           .WithCapacities(std::vector<int32_t>(288, 2)),
  };
  for (const Tree& t : trees) {
    const Mapping m = OneToOne(t, grid);
    EXPECT_TRUE(ValidateMapping(t, 576, m).ok());
  }
  // Fewer processes than slots, on the restricted two-node tree.
  const auto [small_tree, small_graph] = testing::MakeRestrictedTwoNodeCase();
  const Mapping m = OneToOne(small_tree, small_graph);
  EXPECT_TRUE(ValidateMapping(small_tree, small_graph.num_vertices(), m).ok());
}

TEST(MultilevelTest, NTo1KeepsEveryLeafWithinItsBound) {
  const Tree t = testing::MakeTleaf("3 4 90 4 9 3 1");  // 48 leaves
  const CommGraph mesh = testing::Permute(testing::MakeGrid2D(60, 50),
                                          testing::RandomPermutation(3000, 1));
  const Mapping m = NTo1(t, mesh);
  EXPECT_TRUE(ValidatePartitionMapping(t, mesh, m, 0.03).ok());
  // Weighted vertices (bounds are not integral).
  graphs::CommGraphBuilder b(3000);
  for (int32_t v = 0; v < 3000; ++v)
    ASSERT_TRUE(b.SetVertexWeight(v, v % 3 == 0 ? 1.5 : 1.0).ok());
  const CommGraph grid = testing::MakeGrid2D(60, 50);
  for (int32_t u = 0; u < 3000; ++u) {
    for (int32_t v : grid.neighbors(u)) ASSERT_TRUE(b.AddEdge(u, v, 1).ok());
  }
  const CommGraph weighted = std::move(b).Build().value();
  const Mapping w = NTo1(t, weighted);
  EXPECT_TRUE(ValidatePartitionMapping(t, weighted, w, 0.03).ok());
}

TEST(MultilevelTest, HeterogeneousClustersWithPairCosts) {
  const testing::HeteroInstance in =
      testing::MakeHeteroInstance(5, testing::HeteroGraph::kClustered);
  const Tree& t = in.platform.tree;
  const Mapping m = OneToOne(t, in.graph);
  ASSERT_TRUE(ValidateMapping(t, in.graph.num_vertices(), m).ok());
  // Better than placing the processes where the shuffle left them.
  EXPECT_LT(ComputeJ(t, in.graph, m),
            ComputeJ(t, in.graph, Slots(t, in.graph.num_vertices())));
}

TEST(MultilevelTest, SameSeedSameMappingOnAnyThreadCount) {
  const Tree t = testing::MakeTleaf("4 4 1000 4 100 2 10 8 1");
  const CommGraph g = testing::Permute(testing::MakeGrid3D(8, 8, 4),
                                       testing::RandomPermutation(256, 3));
  const Tree leaves = testing::MakeTleaf("3 4 90 4 9 3 1");
  const CommGraph mesh = testing::Permute(testing::MakeGrid2D(40, 40),
                                          testing::RandomPermutation(1600, 4));
  const Mapping one = OneToOne(t, g, 1), part = NTo1(leaves, mesh, 1);
  for (int32_t threads : {2, 3}) {
    EXPECT_EQ(OneToOne(t, g, threads), one) << threads;
    EXPECT_EQ(NTo1(leaves, mesh, threads), part) << threads;
  }
}

TEST(MultilevelTest, CoarseLevelsAndTheWholeGraphAgreeOnValidity) {
  // The same inputs split whole and through coarse levels: both valid, both
  // far below a random placement's J.
  const Tree t = testing::MakeTleaf("3 4 100 4 10 16 1");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(16, 16),
                                       testing::RandomPermutation(256, 9));
  const Mapping whole = OneToOne(t, g, 1, /*split=*/1 << 19);
  const Mapping coarse = OneToOne(t, g, 1, /*split=*/40);
  ASSERT_TRUE(ValidateMapping(t, 256, whole).ok());
  ASSERT_TRUE(ValidateMapping(t, 256, coarse).ok());
  const double identity = ComputeJ(t, g, Slots(t, 256));
  EXPECT_LT(ComputeJ(t, g, whole), 0.5 * identity);
  EXPECT_LT(ComputeJ(t, g, coarse), 0.5 * identity);
}

TEST(MultilevelTest, TinyInstancesReachTheOptimum) {
  // Two cliques of four joined by one light edge on 2 x 4 cores: each clique
  // on one node, J = 3 * 6 * 10 * 1 (inside) ... the brute force decides.
  const Tree t = testing::MakeTleaf("2 2 10 4 1");
  const CommGraph g = testing::Permute(testing::MakeCliqueChain(2, 4, 10, 1),
                                       testing::RandomPermutation(8, 2));
  MappingOptions o;
  const Mapping m = MultilevelMap(t, g, o).value();
  Mapping exact = m;
  double j = ComputeJ(t, g, exact);
  ASSERT_TRUE(ExactMap(t, g, int64_t{1} << 22, &exact, &j));
  EXPECT_DOUBLE_EQ(ComputeJ(t, g, m), j);
  EXPECT_DOUBLE_EQ(j, 2 * 6 * 10.0 * 1 + 1 * 11);
  // n-to-1: the same graph on the two nodes as leaves of capacity 4.
  const Tree two = testing::MakeTleaf("1 2 11");
  const Mapping p = MultilevelPartition(two, g, o).value();
  EXPECT_DOUBLE_EQ(ComputeJ(two, g, p), 11.0);
}

// Records which phases reported.
class Phases : public ProgressSink {
 public:
  void Report(std::string_view phase, double fraction) override {
    std::lock_guard<std::mutex> lock(mu_);
    last_[std::string(phase)] = fraction;
  }
  std::map<std::string, double> last() const { return last_; }

 private:
  std::mutex mu_;
  std::map<std::string, double> last_;
};

TEST(MultilevelTest, ReportsItsPhases) {
  const Tree t = testing::MakeTleaf("3 4 100 4 10 16 1");
  const CommGraph g = testing::MakeGrid2D(16, 16);
  Phases phases;
  MappingOptions o;
  o.progress = &phases;
  ASSERT_TRUE(internal::RunMultilevel(t, g, o, true, 40).ok());
  const std::map<std::string, double> last = phases.last();
  for (const char* phase : {"multilevel: coarsening", "multilevel: initial",
                            "multilevel: refinement"}) {
    ASSERT_TRUE(last.count(phase)) << phase;
    EXPECT_EQ(last.at(phase), 1.0) << phase;
  }
}

}  // namespace
}  // namespace rankmap::core
