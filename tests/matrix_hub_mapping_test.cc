// Becker digest, acceptance test 10: for a three-way Square-Corner partition on
// a star network the mapping engine must put the largest partition at the hub,
// and a hub other than the largest costs exactly the P1 <-> other-leaf traffic
// more (2 N b for the middle one at the hub, 2 N a for the smallest).
#include <vector>

#include "base/status_matchers.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/frontends/summa.h"
#include "gtest/gtest.h"
#include "tiling/partition.h"
#include "topology/tree.h"

namespace rankmap {
namespace {

using ::rankmap::base::IsOk;

// Root with three leaves; leaf 0 is the hub: hub-leaf 1 hop, leaf-leaf 2 hops
// (relayed).
topology::Tree Star() {
  topology::TreeBuilder b;
  auto root = b.AddRoot("star");
  for (int i = 0; i < 3; ++i) b.AddChild(root, "site");
  b.SetPairCosts(root, {0, 1, 1, 1, 0, 2, 1, 2, 0});
  auto t = std::move(b).Build();
  EXPECT_THAT(t, IsOk());
  return *std::move(t);
}

TEST(MatrixHubMappingTest, LargestPartitionGoesToTheHub) {
  const topology::Tree star = Star();
  struct Case {
    std::vector<double> speeds;  // processor 0 is the fastest in every case
    int64_t n;
  };
  for (const Case& c : std::vector<Case>{{{92, 4, 4}, 20},
                                         {{87, 9, 4}, 10},
                                         {{70, 20, 10}, 40},
                                         {{90, 5, 5}, 200}}) {
    auto p = tiling::SquareCornerPartition3(c.speeds, c.n);
    ASSERT_THAT(p, IsOk());
    auto g = graphs::SquareCornerGraph(*p, graphs::CellSize{1, 1});
    ASSERT_THAT(g, IsOk());
    const double a =
        static_cast<double>(p->rects[0].height);  // processor 1's square
    const double b =
        static_cast<double>(p->rects[1].height);  // processor 2's square
    const double n = static_cast<double>(c.n);

    core::MappingOptions opts;
    opts.algorithm = core::Algorithm::kTreeMatch;
    auto m = core::Map(star, *g, opts);
    ASSERT_THAT(m, IsOk());
    EXPECT_EQ((*m)[0], 0) << "the fastest processor must sit at the hub";
    auto best = core::Cost(star, *g, *m);
    ASSERT_THAT(best, IsOk());
    EXPECT_DOUBLE_EQ(best->j, 2 * n * (a + b));

    // Every other hub costs exactly the relayed P1 <-> other-leaf traffic more.
    auto hub1 = core::Cost(star, *g, core::Mapping{1, 0, 2});
    auto hub2 = core::Cost(star, *g, core::Mapping{1, 2, 0});
    ASSERT_THAT(hub1, IsOk());
    ASSERT_THAT(hub2, IsOk());
    EXPECT_DOUBLE_EQ(hub1->j - best->j, 2 * n * b);
    EXPECT_DOUBLE_EQ(hub2->j - best->j, 2 * n * a);
  }
}

}  // namespace
}  // namespace rankmap
