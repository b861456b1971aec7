// End to end: a 3D 7-point stencil graph from the stencil front end, with its
// ranks shuffled (the structure a profile would hide), mapped by the engine
// onto a four-level tleaf machine.
#include <cstdint>
#include <vector>

#include "base/status_matchers.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "graphs/frontends/stencil.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap {
namespace {

using ::rankmap::base::IsOk;

// 512 processes as 8 x 8 x 8 blocks of a 32^3 grid: every face is 16 cells of 8
// bytes each way, w = 256 per neighbour pair, 1344 pairs. The machine: 4 x 4 x
// 2 x 16 slots with link costs 1000/100/10/1, i.e. distances 1 (same 16-slot
// node), 11, 111 and 1111 (across the root).
//
// Hand count of the natural block placement (rank r on slot r; slots of one
// 16-leaf node hold a 1 x 2 x 8 slab, 32 leaves a 1 x 4 x 8 slab, 128 leaves a
// 2 x 8 x 8 slab), in units of w: 448 k-pairs and 256 j-pairs at distance 1,
// 128 j-pairs at 11, 64 j-pairs + 256 i-pairs at 111 and 192 i-pairs at 1111:
// 250,944. A random placement costs about 856 per pair on average (the mean
// leaf distance), ~1.15e6, so natural / identity-on-shuffled ~ 0.22.
//
// Measured (engine seed 7, shuffle seed 2024; natural / identity = 0.221):
// the portfolio reaches 0.146 of the identity placement of the shuffled ranks,
// i.e. 0.66 of the natural block placement: it recovers the grid's locality
// from the shuffled graph alone and then nests the blocks under the tree
// better than the row-major order does. TreeMatch alone reaches 0.99 of natural
// (0.218 of identity). Assertions, with margins: portfolio J <= natural (the
// issue's bar) and J / identity < 0.18 (measured 0.146); TreeMatch J / identity
// < 0.25.
class StencilMappingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graphs::StencilOptions o;
    o.grid = {32, 32, 32};
    o.points = 7;
    o.procs = 512;
    auto g = graphs::StencilGraph(o);
    ASSERT_THAT(g, IsOk());
    graph_ = *std::move(g);
    perm_ = testing::RandomPermutation(512, 2024);
    shuffled_ = testing::Permute(graph_, perm_);
    tree_ = testing::MakeTleaf("4 4 1000 4 100 2 10 16 1");
  }

  double Identity() const {
    core::Mapping m(512);
    for (int32_t p = 0; p < 512; ++p) m[p] = p;
    return core::ComputeJ(tree_, shuffled_, m);
  }
  // Vertex perm[v] of the shuffled graph is rank v of the grid: put it on slot
  // v.
  double Natural() const {
    core::Mapping m(512);
    for (int32_t v = 0; v < 512; ++v) m[perm_[v]] = v;
    return core::ComputeJ(tree_, shuffled_, m);
  }
  double Engine(core::Algorithm a) const {
    core::MappingOptions opts;
    opts.algorithm = a;
    opts.seed = 7;
    auto m = core::Map(tree_, shuffled_, opts);
    EXPECT_THAT(m, IsOk());
    if (!m.ok()) return -1;
    EXPECT_THAT(core::ValidateMapping(tree_, 512, *m), IsOk());
    return core::ComputeJ(tree_, shuffled_, *m);
  }

  graphs::CommGraph graph_, shuffled_;
  std::vector<int32_t> perm_;
  topology::Tree tree_;
};

TEST_F(StencilMappingTest, GraphAndBaselines) {
  ASSERT_EQ(shuffled_.num_vertices(), 512);
  EXPECT_EQ(shuffled_.num_edges(), 1344);
  EXPECT_DOUBLE_EQ(graph_.EdgeWeight(0, 1), 2 * 16 * 8.0);
  EXPECT_DOUBLE_EQ(Natural(), 250944 * 256.0);
  EXPECT_LT(Natural() / Identity(), 0.3);
}

TEST_F(StencilMappingTest, PortfolioBeatsIdentityAndNaturalBlocks) {
  const double identity = Identity(), natural = Natural();
  const double j = Engine(core::Algorithm::kPortfolio);
  ASSERT_GT(j, 0);
  // The engine sees only the shuffled graph, yet must do at least as well as
  // the grid order.
  EXPECT_LE(j, natural * (1 + 1e-12));
  EXPECT_LT(j / identity, 0.18);
  RecordProperty("portfolio_over_identity", std::to_string(j / identity));
  RecordProperty("portfolio_over_natural", std::to_string(j / natural));
}

TEST_F(StencilMappingTest, TreeMatchWellBelowIdentity) {
  const double j = Engine(core::Algorithm::kTreeMatch);
  ASSERT_GT(j, 0);
  EXPECT_LT(j / Identity(), 0.25);
  RecordProperty("treematch_over_natural", std::to_string(j / Natural()));
  RecordProperty("treematch_over_identity", std::to_string(j / Identity()));
}

}  // namespace
}  // namespace rankmap
