#include "base/cpu_list.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

TEST(FormatCpuListTest, CompressesRangesInAnyOrder) {
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{8, 0, 1, 2, 3, 3}), "0-3,8");
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{12, 4, 5, 4}), "4-5,12");
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{1, 3, 4}), "1,3-4");
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{5}), "5");
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{}), "");
}

}  // namespace
}  // namespace rankmap::base
