// The comparison table's closing line about the present order.
#include "cli/comparison.h"

#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

TEST(PresentOrderLine, SaysHowIdentityComparesWithTheFastest) {
  EXPECT_EQ(PresentOrderLine(1.0, 1.0, "identity"),
            "the present order (identity) is the fastest");
  EXPECT_EQ(PresentOrderLine(2.0, 2.0, "portfolio"),
            "the present order (identity) is as fast as the fastest "
            "(portfolio)");
  EXPECT_EQ(PresentOrderLine(1.004, 1.0, "multisection"),
            "the present order (identity) is within 0.4% of the fastest "
            "(multisection)");
  EXPECT_EQ(PresentOrderLine(1.123, 1.0, "tm"),
            "the present order (identity) is 12.3% slower than the fastest "
            "(tm)");
  // 1% is no longer "within".
  EXPECT_EQ(PresentOrderLine(101.0, 100.0, "tm"),
            "the present order (identity) is 1.0% slower than the fastest "
            "(tm)");
}

}  // namespace
}  // namespace rankmap::cli
