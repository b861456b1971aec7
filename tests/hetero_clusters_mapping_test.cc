// The engine on the seeds' own platform: heterogeneous clusters with a
// bandwidth per cluster pair (network -> clusters -> nodes -> cores).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "base/status_matchers.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/hetero_clusters.h"

namespace rankmap {
namespace {

using ::rankmap::base::IsOk;

using graphs::CommGraph;
using topology::NodeId;
using topology::Tree;

// A tiny platform: 3 clusters of 1 or 2 nodes of 1 to 2 cores, pair costs
// 50..400, cluster costs 10..25, 1 inside a node.
Tree TinyPlatform(std::mt19937_64& rng, int32_t* cores) {
  topology::TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  std::vector<double> pair(9, 0.0);
  for (int a = 0; a < 3; ++a) {
    for (int c = a + 1; c < 3; ++c)
      pair[a * 3 + c] = pair[c * 3 + a] = 50.0 + rng() % 351;
  }
  b.SetPairCosts(root, pair);
  *cores = 0;
  for (int a = 0; a < 3; ++a) {
    const NodeId cl = b.AddChild(root, "cluster", 10.0 + rng() % 16);
    const int nodes = 1 + rng() % 2;
    for (int n = 0; n < nodes; ++n) {
      const NodeId node = b.AddChild(cl, "Machine", 1.0);
      const int k = 1 + rng() % 2;
      for (int i = 0; i < k; ++i) b.AddChild(node, "Core");
      *cores += k;
    }
  }
  return std::move(b).Build().value();
}

// Every one-to-one placement (n <= 9 processes on as many leaves).
double BruteForce(const Tree& t, const CommGraph& g) {
  std::vector<int32_t> leaves(t.num_leaves());
  std::iota(leaves.begin(), leaves.end(), 0);
  double best = -1.0;
  do {
    core::Mapping m(leaves.begin(), leaves.begin() + g.num_vertices());
    const double j = core::ComputeJ(t, g, m);
    if (best < 0 || j < best) best = j;
  } while (std::next_permutation(leaves.begin(), leaves.end()));
  return best;
}

// Up to 9 processes the default preset searches exactly
// (core/initial/exact_map.h): the stated factor is 1, on every instance.
TEST(HeteroClustersMappingTest, TinyInstancesAreOptimal) {
  std::mt19937_64 rng(2026);
  int optimal = 0, total = 0;
  double worst = 1.0;
  for (int instance = 0; instance < 60; ++instance) {
    int32_t n = 0;
    const Tree t = TinyPlatform(rng, &n);
    if (n < 4 || n > 9) continue;
    CommGraph g = testing::MakeRandomGraph(n, 2, rng());
    const double opt = BruteForce(t, g);
    const core::Mapping m = core::Map(t, g, core::MappingOptions{}).value();
    ASSERT_THAT(core::ValidateMapping(t, n, m), IsOk());
    const double ratio = core::ComputeJ(t, g, m) / opt;
    EXPECT_GE(ratio, 1.0 - 1e-12);
    EXPECT_LE(ratio, 1.0 + 1e-12) << "instance " << instance;
    optimal += ratio <= 1.0 + 1e-12;
    ++total;
    worst = std::max(worst, ratio);
  }
  std::printf("tiny heterogeneous instances: %d of %d optimal, worst %.4f\n",
              optimal, total, worst);
  EXPECT_GE(total, 30);
}

// The bench's family (bench/engine_bench, seeds 1001..1008 x stencil, random,
// clustered): the default never costs more than the Scotch baseline or the
// application's own order packed onto the clusters.
TEST(HeteroClustersMappingTest, FamilyNeverAboveScotchOrTheUnshuffledOrder) {
  for (uint64_t seed = 1001; seed <= 1008; ++seed) {
    for (testing::HeteroGraph kind :
         {testing::HeteroGraph::kStencil2D, testing::HeteroGraph::kRandom,
          testing::HeteroGraph::kClustered}) {
      const testing::HeteroInstance in =
          testing::MakeHeteroInstance(seed, kind);
      const Tree& t = in.platform.tree;
      core::MappingOptions o;
      const core::Mapping m = core::Map(t, in.graph, o).value();
      o.algorithm = core::Algorithm::kScotch;
      const core::Mapping scotch = core::Map(t, in.graph, o).value();
      const double j = core::ComputeJ(t, in.graph, m);
      // Ties are equal-cost mappings summed in another order: 1e-12.
      EXPECT_LE(j, core::ComputeJ(t, in.graph, scotch) * (1 + 1e-12))
          << in.name;
      EXPECT_LE(j, core::ComputeJ(t, in.graph, in.unshuffled)) << in.name;
    }
  }
}

}  // namespace
}  // namespace rankmap
