#include "sim/smpi_hostfile.h"

#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"

namespace rankmap::sim {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

TEST(SmpiHostfile, LineRIsTheHostOfRankR) {
  // 3 hosts of 2 cores: leaves 0-1 on n0, 2-3 on n1, 4-5 on n2.
  auto t = topology::ParseTleaf("tleaf 2 3 1Gbps:1us 2 10GBps:0s");
  ASSERT_THAT(t, IsOk());
  auto text = SmpiHostfile(*t, {5, 0, 2, 1, 4, 3});
  ASSERT_THAT(text, IsOk());
  EXPECT_EQ(*text, "n2\nn0\nn1\nn0\nn2\nn1\n");
  EXPECT_EQ(SmpiHostfile(*t, {}).value(), "");
}

TEST(SmpiHostfile, Errors) {
  auto t = topology::ParseTleaf("tleaf 2 3 1Gbps:1us 2 10GBps:0s");
  ASSERT_THAT(t, IsOk());
  auto text = SmpiHostfile(*t, {0, 6});
  ASSERT_THAT(text, Not(IsOk()));
  EXPECT_THAT(std::string(text.status().message()),
              ::testing::HasSubstr("rank 1 is on leaf 6, not in [0, 6)"));
  auto plain = topology::ParseTleaf("tleaf 1 4 1");
  ASSERT_THAT(plain, IsOk());
  text = SmpiHostfile(*plain, {0});
  ASSERT_THAT(text, Not(IsOk()));
  EXPECT_THAT(std::string(text.status().message()),
              ::testing::HasSubstr("leaf 0 has no host name"));
}

}  // namespace
}  // namespace rankmap::sim
