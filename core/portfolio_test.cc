#include "core/portfolio.h"

#include <algorithm>

#include "core/mapper.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

TEST(PortfolioTest, NoWorseThanItsMembersAndThreadsChangeNothing) {
  const topology::Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  int refined_cases = 0, unrefined_cases = 0;
  for (uint64_t seed : {1, 2}) {
    for (const graphs::CommGraph& base :
         {testing::MakeGrid3D(4, 4, 4),
          testing::MakeCliqueChain(4, 16, 10.0, 1.0)}) {
      const graphs::CommGraph g =
          testing::Permute(base, testing::RandomPermutation(64, seed));
      MappingOptions o;
      o.seed = seed;
      const Mapping port = *Map(t, g, o);
      o.threads = 2;
      EXPECT_EQ(*Map(t, g, o), port);
      // Members: the refined multisection always competes; TreeMatch competes
      // refined when it is within 2% of it, else unrefined.
      o.algorithm = Algorithm::kMultisection;
      const double j_ms = ComputeJ(t, g, *Map(t, g, o));
      o.algorithm = Algorithm::kTreeMatch;
      o.refine.enabled = false;
      const double j_tm_raw = ComputeJ(t, g, *Map(t, g, o));
      o.refine.enabled = true;
      const double j_tm = ComputeJ(t, g, *Map(t, g, o));
      const double j_port = ComputeJ(t, g, port);
      EXPECT_LE(j_port, std::min(j_ms, j_tm_raw));
      if (j_tm_raw <= 1.02 * j_ms) {
        EXPECT_EQ(j_port, std::min(j_ms, j_tm));
        ++refined_cases;
      } else {
        ++unrefined_cases;
      }
    }
  }
  // The clique chains exercise the refined branch, the stencils the other.
  EXPECT_GT(refined_cases, 0);
  EXPECT_GT(unrefined_cases, 0);
}

TEST(PortfolioTest, DirectCallEqualsMap) {
  const topology::Tree t = testing::MakeTleaf("3 4 1000 4 100 4 10");
  const graphs::CommGraph g = testing::Permute(
      testing::MakeGrid3D(4, 4, 4), testing::RandomPermutation(64, 3));
  EXPECT_EQ(PortfolioMap(t, g, MappingOptions{}).value(),
            Map(t, g, MappingOptions{}).value());
}

}  // namespace
}  // namespace rankmap::core
