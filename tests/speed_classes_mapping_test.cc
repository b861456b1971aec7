// Speed-aware mapping: a heterogeneous partition assigns each processor a
// share of the work for its speed (seeds 000 section 3.2, 003 section II-B);
// the mapping may rearrange processes only among leaves of equal speed.
#include <algorithm>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/slot_classes.h"
#include "graphs/frontends/summa.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tiling/partition.h"

namespace rankmap {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

// Heterogeneous SUMMA for 8 processors, two of them 4x faster (processes 0
// and 1), on a column-based partition of a 64 x 64 grid.
graphs::CommGraph FastAndSlowSumma(const std::vector<double>& speeds) {
  const tiling::ColumnLayout layout =
      tiling::ColumnBasedPartition(speeds).value();
  const tiling::Partition p =
      tiling::ToIntegerPartition(layout, 64, 64).value();
  return graphs::HeterogeneousSummaGraph(p, graphs::PivotFlow::kOneToAll)
      .value();
}

TEST(SpeedClassesMappingTest, WithoutClassesAFastRectangleLandsOnASlowCore) {
  const std::vector<double> speeds = {4, 4, 1, 1, 1, 1, 1, 1};
  const graphs::CommGraph g = FastAndSlowSumma(speeds);
  // Two nodes of four cores (distance 1 inside, 11 across); the fast cores are
  // the last two leaves of the second node.
  const std::vector<double> leaf_speed = {1, 1, 1, 1, 1, 1, 4, 4};
  const topology::Tree t =
      testing::MakeTleaf("2 2 10 4 1").WithSpeeds(leaf_speed).value();
  const core::SlotClasses classes = core::ClassesForTree(t, speeds).value();
  const core::Mapping free = core::Map(t, g, core::MappingOptions{}).value();
  // The unconstrained engine minimises J only: a fast process ends on a slow
  // core.
  EXPECT_THAT(core::CheckClasses(classes, free), Not(IsOk()));
  for (uint64_t seed : {1, 2, 3, 4}) {
    core::MappingOptions o;
    o.seed = seed;
    const core::Mapping m = core::Map(t, g, o, classes).value();
    ASSERT_THAT(core::ValidateMapping(t, 8, m), IsOk());
    EXPECT_THAT(core::CheckClasses(classes, m), IsOk());
    EXPECT_EQ(leaf_speed[m[0]], 4.0);
    EXPECT_EQ(leaf_speed[m[1]], 4.0);
    // The price of the constraint is bounded by the classes themselves: no
    // better class-respecting mapping exists among the 2! * 6! arrangements.
    double best = -1;
    std::vector<int32_t> slow = {0, 1, 2, 3, 4, 5};
    do {
      for (int swap = 0; swap < 2; ++swap) {
        core::Mapping c = {swap ? 7 : 6, swap ? 6 : 7};
        for (int32_t l : slow) c.push_back(l);
        const double j = core::ComputeJ(t, g, c);
        if (best < 0 || j < best) best = j;
      }
    } while (std::next_permutation(slow.begin(), slow.end()));
    EXPECT_NEAR(core::ComputeJ(t, g, m), best, 1e-9 * best) << seed;
  }
}

}  // namespace
}  // namespace rankmap
