#include "launch/cpu_sets.h"

#include <vector>

#include "gtest/gtest.h"

namespace rankmap::launch {
namespace {

TEST(CpuSetsTest, HexMask) {
  EXPECT_EQ(HexMask(std::vector<int32_t>{}), "0x0");
  EXPECT_EQ(HexMask(std::vector<int32_t>{1}), "0x2");
  EXPECT_EQ(HexMask(std::vector<int32_t>{5, 0, 5}), "0x21");
  // Bit 33 and bit 0: the low word keeps its leading zeros.
  EXPECT_EQ(HexMask(std::vector<int32_t>{33, 0}), "0x200000001");
  EXPECT_EQ(HexMask(std::vector<int32_t>{31}), "0x80000000");
}

TEST(CpuSetsTest, HwlocCpusetMatchesWhatHwlocBitmapSscanfReads) {
  EXPECT_EQ(HwlocCpuset(std::vector<int32_t>{}), "0x0");
  EXPECT_EQ(HwlocCpuset(std::vector<int32_t>{1}), "0x00000002");
  EXPECT_EQ(HwlocCpuset(std::vector<int32_t>{0, 33}), "0x00000002,0x00000001");
  EXPECT_EQ(HwlocCpuset(std::vector<int32_t>{33}), "0x00000002,0x00000000");
  EXPECT_EQ(HwlocCpuset(std::vector<int32_t>{64, 0, 5}),
            "0x00000001,0x00000000,0x00000021");
}

TEST(CpuSetsTest, JoinPusSortsAndDropsDuplicates) {
  EXPECT_EQ(JoinPus(std::vector<int32_t>{8, 0, 8}, "+"), "0+8");
  EXPECT_EQ(JoinPus(std::vector<int32_t>{3}, ","), "3");
  EXPECT_EQ(JoinPus(std::vector<int32_t>{}, ","), "");
}

}  // namespace
}  // namespace rankmap::launch
