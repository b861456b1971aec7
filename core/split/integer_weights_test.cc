#include "core/split/integer_weights.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

TEST(ScaleToMetisWeights, KeepsRatiosAndCapsTheLargest) {
  std::vector<int32_t> w =
      ScaleToMetisWeights(std::vector<double>{1.0, 2.0, 0.5, 0.0});
  // scale = min(2^20 / 2, (2^30 - 4) / 3.5) = 2^19
  EXPECT_EQ(w, (std::vector<int32_t>{524288, 1048576, 262144, 0}));
}

TEST(ScaleToMetisWeights, SumStaysBelowTwoToTheThirty) {
  std::vector<double> big(4096, 1e300);
  big.push_back(1e-300);  // tiny positive weights stay positive
  std::vector<int32_t> w = ScaleToMetisWeights(big);
  int64_t sum = 0;
  for (int32_t x : w) sum += x;
  EXPECT_LT(sum, int64_t{1} << 30);
  // scale = (2^30 - 4097) / (4096 * 1e300): each big weight becomes 262142.9998
  // -> 262143.
  EXPECT_EQ(w[0], 262143);
  EXPECT_EQ(w[4095], 262143);
  EXPECT_EQ(w[4096], 1);
}

TEST(IntegerVertexWeights, SmallIntegersKeptOthersScaledZeroAsAsked) {
  EXPECT_EQ(IntegerVertexWeights(std::vector<double>{3, 0, 5}, 0),
            (std::vector<int32_t>{3, 0, 5}));
  EXPECT_EQ(IntegerVertexWeights(std::vector<double>{3, 0, 5}, 1),
            (std::vector<int32_t>{3, 1, 5}));
  // Not integral: scaled to a total of 2^28 (0.25 + 0.75 = 1).
  EXPECT_EQ(IntegerVertexWeights(std::vector<double>{0.25, 0.75}, 0),
            (std::vector<int32_t>{1 << 26, 3 << 26}));
  // A positive weight never rounds to 0.
  EXPECT_EQ(IntegerVertexWeights(std::vector<double>{1e-30, 1.5}, 0)[0], 1);
}

}  // namespace
}  // namespace rankmap::core
