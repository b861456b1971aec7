#include "core/map_budget.h"

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

TEST(MapBudgetTest, EstimateGrowsWithProcessesArcsAndLeaves) {
  const topology::Tree t = testing::MakeTleaf("2 4 10 4 1");  // 16 leaves
  const graphs::CommGraph g = testing::MakeGrid2D(4, 4);      // 48 arcs
  MappingOptions o;
  EXPECT_EQ(EstimatedMapBytes(t, g, o), 16 * 128 + 48 * 64 + 16 * 64);
  o.threads = 2;
  EXPECT_EQ(EstimatedMapBytes(t, g, o), (16 * 128 + 48 * 64 + 16 * 64) / 2 * 3);
  // The multilevel engine's coarse levels and refiner on top.
  o.threads = 1;
  o.algorithm = Algorithm::kMultilevel;
  EXPECT_EQ(EstimatedMapBytes(t, g, o),
            16 * 128 + 48 * 64 + 16 * 64 + 16 * 96 + 48 * 48);
  // ... also where the portfolio runs it beside the others (strong).
  o.algorithm = Algorithm::kPortfolio;
  o.portfolio_multilevel = true;
  EXPECT_EQ(EstimatedMapBytes(t, g, o),
            16 * 128 + 48 * 64 + 16 * 64 + 16 * 96 + 48 * 48);
}

TEST(MapBudgetTest, RefusesBeyondTheBudgetWithTheSizes) {
  const topology::Tree t = testing::MakeTleaf("2 4 10 4 1");
  const graphs::CommGraph g = testing::MakeGrid2D(4, 4);
  MappingOptions o;
  o.max_memory_bytes = 4096;
  const absl::Status s = CheckMapMemory(t, g, o);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(),
            "map: 16 processes and 24 edges onto 16 leaves needs about 6.0 "
            "KiB, above the memory budget of 4.0 KiB");
  o.max_memory_bytes = 1 << 20;
  EXPECT_TRUE(CheckMapMemory(t, g, o).ok());
}

}  // namespace
}  // namespace rankmap::core
