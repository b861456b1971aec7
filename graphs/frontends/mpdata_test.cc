#include "graphs/frontends/mpdata.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;
using tiling::MpdataGrid;

TEST(MpdataTest, HaloGraphOfAnArrangement) {
  // 8 x 8 x 2 domain on a 2 x 2 grid: nB = mB = 4. Left/right: 4 bars of 1 x 1
  // x 2 = 8 elements = 64 bytes each way; top/bottom: 1 x (1 + 4 + 1) x 2 = 12
  // elements = 96 bytes.
  MpdataGrid g{2, 2, true, {3, 1, 0, 2}};
  MpdataDomain d;
  d.n = 8;
  d.m = 8;
  d.l = 2;
  auto graph = MpdataHaloGraph(g, d);
  ASSERT_THAT(graph, IsOk());
  EXPECT_EQ(graph->num_edges(), 4);
  EXPECT_DOUBLE_EQ(graph->EdgeWeight(3, 1), 128.0);  // same row
  EXPECT_DOUBLE_EQ(graph->EdgeWeight(3, 0), 192.0);  // same column
  EXPECT_DOUBLE_EQ(graph->EdgeWeight(3, 2), 0.0);
  d.periodic = true;
  auto wrapped = MpdataHaloGraph(g, d);
  ASSERT_THAT(wrapped, IsOk());
  EXPECT_DOUBLE_EQ(wrapped->EdgeWeight(3, 1),
                   256.0);  // left and right are the same process
  // Direction-aware weights: bytes / effective bandwidth (Grisou, GB/s): a
  // horizontal halo of 128 bytes at 0.03834 outweighs a vertical one of 192
  // at 0.48916 by 3338.6 / 392.5 = 8.5.
  d.periodic = false;
  d.horizontal_weight = 1 / 0.03834;
  d.vertical_weight = 1 / 0.48916;
  auto timed = MpdataHaloGraph(g, d);
  ASSERT_THAT(timed, IsOk());
  EXPECT_NEAR(timed->EdgeWeight(3, 1), 128 / 0.03834, 1e-9);
  EXPECT_NEAR(timed->EdgeWeight(3, 0), 192 / 0.48916, 1e-9);
  d.vertical_weight = 0;
  EXPECT_THAT(MpdataHaloGraph(g, d), Not(IsOk()));
  d.vertical_weight = 1;
  d.horizontal_weight = 1;
  // Uneven rows: n = 7 on 2 rows gives 4 + 3 rows: the top pair 4 bars of 16
  // bytes each way, the bottom pair 3.
  d.n = 7;
  auto uneven = MpdataHaloGraph(g, d);
  ASSERT_THAT(uneven, IsOk());
  EXPECT_DOUBLE_EQ(uneven->EdgeWeight(3, 1), 128.0);  // row 0: 2 * 4 * 16
  EXPECT_DOUBLE_EQ(uneven->EdgeWeight(0, 2), 96.0);   // row 1: 2 * 3 * 16
  d.n = 1;
  EXPECT_THAT(MpdataHaloGraph(g, d), Not(IsOk()));
}

TEST(MpdataTest, HostileCountsAndSizes) {
  MpdataFrontendOptions o;
  o.procs = int64_t{1} << 40;
  auto many = MpdataFrontend(o);
  ASSERT_THAT(many, Not(IsOk()));
  EXPECT_EQ(std::string(many.status().message()),
            "mpdata: 1099511627776 processors, expected 1 to 1048576");
  // A group id of 2^31 - 1 asks for 2^62 matrix entries: sized, refused.
  o.group = {0, INT32_MAX, 0, 0};
  auto groups = MpdataFrontend(o);
  ASSERT_THAT(groups, Not(IsOk()));
  EXPECT_EQ(groups.status().code(), absl::StatusCode::kResourceExhausted);
  o.group = {0, -1, 0, 0};
  EXPECT_THAT(MpdataFrontend(o), Not(IsOk()));
  // 720720 has 240 divisors: every round visits 2 x 240 grids of 720720
  // cells, beyond the work limit (it ran for minutes).
  o.group.clear();
  o.procs = 720720;
  auto work = MpdataFrontend(o);
  ASSERT_THAT(work, Not(IsOk()));
  EXPECT_EQ(std::string(work.status().message()),
            "mpdata: Algorithm 3 on 720720 processors needs more than "
            "100000000 cell visits");
  // Domain extents near 2^63: the halo weights are products in doubles,
  // finite and positive (int64 products wrapped negative).
  o.procs = 4;
  o.domain = {int64_t{1} << 62, int64_t{1} << 62, int64_t{1} << 62};
  auto huge = MpdataFrontend(o);
  ASSERT_THAT(huge, IsOk());
  for (int32_t v = 0; v < huge->graph.num_vertices(); ++v) {
    for (double w : huge->graph.weights(v)) {
      EXPECT_TRUE(std::isfinite(w) && w > 0) << w;
    }
  }
}

}  // namespace
}  // namespace rankmap::graphs
