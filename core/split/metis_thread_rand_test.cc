// rand() replaced by //core/split:metis_thread_rand (core/split/metis_rand.h):
// one glibc-compatible state per thread, and METIS on several threads with the
// results of one.
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/initial/multisection.h"
#include "core/mapper.h"
#include "core/split/metis_rand.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/hetero_clusters.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using testing::MakeGrid3D;
using testing::MakeRandomGraph;
using testing::MakeTleaf;
using testing::Permute;
using testing::RandomPermutation;
using topology::Tree;

TEST(MetisThreadRandTest, RandIsGlibcsSequenceWithOneStatePerThread) {
  ASSERT_TRUE(MetisRunsInParallel());
  // Two threads seed differently and draw in lockstep; each sees its own
  // seed's sequence, as if alone.
  auto draws = [](unsigned seed, std::vector<int>* out) {
    std::srand(seed);
    for (int i = 0; i < 1000; ++i) {
      out->push_back(std::rand());
      std::this_thread::yield();
    }
  };
  std::vector<int> a, b;
  std::thread ta(draws, 7u, &a), tb(draws, 8u, &b);
  ta.join();
  tb.join();
  internal::LibcRandom ra(7), rb(8);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(a[i], ra.Next()) << i;
    ASSERT_EQ(b[i], rb.Next()) << i;
  }
}

// The multisection (strategy and refinement, as Map runs it) with 1 and 2
// threads.
void ExpectSameOnThreads(const Tree& tree, const CommGraph& graph,
                         Algorithm algorithm) {
  MappingOptions o;
  o.algorithm = algorithm;
  absl::StatusOr<Mapping> one = Map(tree, graph, o);
  o.threads = 2;
  absl::StatusOr<Mapping> two = Map(tree, graph, o);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(*one, *two);
}

TEST(MetisThreadRandTest, MultisectionOnTwoThreadsGivesTheSameMapping) {
  // Shuffled 3D stencil, 2048 processes on 8 nodes x 16 x 2 x 8.
  const Tree tree = MakeTleaf("4 8 1000 16 100 2 10 8 1");
  const CommGraph stencil =
      Permute(MakeGrid3D(16, 16, 8), RandomPermutation(2048, 3));
  ExpectSameOnThreads(tree, stencil, Algorithm::kMultisection);
  ExpectSameOnThreads(tree, MakeRandomGraph(2048, 4, 5),
                      Algorithm::kMultisection);
  // The portfolio: TreeMatch beside a multisection that itself uses both.
  ExpectSameOnThreads(tree, stencil, Algorithm::kPortfolio);
}

TEST(MetisThreadRandTest, PairCostTreesAndNTo1GiveTheSameMappingOnTwoThreads) {
  const testing::HeteroInstance in =
      testing::MakeHeteroInstance(4, testing::HeteroGraph::kClustered);
  ExpectSameOnThreads(in.platform.tree, in.graph, Algorithm::kMultisection);
  // n-to-1: 4096 processes onto 64 leaves.
  const Tree small = MakeTleaf("3 4 100 4 10 4 1");
  ExpectSameOnThreads(
      small, Permute(MakeGrid3D(16, 16, 16), RandomPermutation(4096, 9)),
      Algorithm::kMultisection);
}

}  // namespace
}  // namespace rankmap::core
