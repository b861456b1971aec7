#include "topology/tree_size.h"

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;

TEST(TreeSizeTest, EstimatesAndChecks) {
  EXPECT_EQ(EstimatedTreeBytes(1000), 256000);
  EXPECT_EQ(EstimatedTreeBytes(int64_t{1} << 60),
            std::numeric_limits<int64_t>::max());
  EXPECT_THAT(CheckTreeSize("t", 4000, 3000, 1 << 20), IsOk());
  const absl::Status big = CheckTreeSize("t.tgt:1:1: tleaf", int64_t{1} << 25,
                                         int64_t{1} << 25, int64_t{2} << 30);
  EXPECT_EQ(big.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(big.message(),
            "t.tgt:1:1: tleaf of 33554432 leaves (33554432 nodes) needs about "
            "8.0 GiB, above the memory budget of 2.0 GiB");
  const absl::Status ids =
      CheckTreeSize("x", int64_t{1} << 31, int64_t{1} << 30, int64_t{1} << 62);
  EXPECT_EQ(ids.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ids.message(),
            "x of 1073741824 leaves has 2147483648 nodes, more than 32-bit "
            "node ids can number");
}

TEST(TreeSizeTest, HostNamesCount) {
  EXPECT_EQ(HostNameBytes(1000, 249), 250000);
  EXPECT_EQ(HostNameBytes(1000, 15), 0);  // inside the string object
  EXPECT_EQ(HostNameBytes(1000, 16), 17000);
  EXPECT_EQ(HostNameBytes(int64_t{1} << 60, 1000),
            std::numeric_limits<int64_t>::max());
  // 4,000 nodes fit 1 MiB (1,024,000 bytes) alone, not with 1,000 leaves of
  // 100-character names (101,000 bytes more).
  EXPECT_THAT(CheckTreeSize("t", 4000, 1000, 1 << 20), IsOk());
  const absl::Status names =
      CheckTreeSize("t", 4000, 1000, 1 << 20, HostNameBytes(1000, 100));
  EXPECT_EQ(names.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(names.message(),
            "t of 1000 leaves (4000 nodes) needs about 1.1 MiB, above the "
            "memory budget of 1.0 MiB");
}

}  // namespace
}  // namespace rankmap::topology
