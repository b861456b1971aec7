#include "sim/smpi_hostfile.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"

namespace rankmap::sim {
namespace {

TEST(SmpiHostfile, LineRIsTheHostOfRankR) {
  // 3 hosts of 2 cores: leaves 0-1 on n0, 2-3 on n1, 4-5 on n2.
  auto t = topology::ParseTleaf("tleaf 2 3 1Gbps:1us 2 10GBps:0s");
  ASSERT_TRUE(t.ok()) << t.status();
  auto text = SmpiHostfile(*t, {5, 0, 2, 1, 4, 3});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "n2\nn0\nn1\nn0\nn2\nn1\n");
  EXPECT_EQ(SmpiHostfile(*t, {}).value(), "");
}

TEST(SmpiHostfile, Errors) {
  auto t = topology::ParseTleaf("tleaf 2 3 1Gbps:1us 2 10GBps:0s");
  ASSERT_TRUE(t.ok());
  auto text = SmpiHostfile(*t, {0, 6});
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(std::string(text.status().message()),
              ::testing::HasSubstr("rank 1 is on leaf 6, not in [0, 6)"));
  auto plain = topology::ParseTleaf("tleaf 1 4 1");
  ASSERT_TRUE(plain.ok());
  text = SmpiHostfile(*plain, {0});
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(std::string(text.status().message()),
              ::testing::HasSubstr("leaf 0 has no host name"));
}

}  // namespace
}  // namespace rankmap::sim
