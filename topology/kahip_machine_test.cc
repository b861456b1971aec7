#include "topology/kahip_machine.h"

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(KahipMachine, KahipBottomUpIsTleafTopDown) {
  absl::StatusOr<std::string> t = KahipMachineToTleaf("4:8:6", "1:10:100");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(*t, "tleaf 3 6 90 8 9 4 1");
  absl::StatusOr<Tree> tree = ParseTleaf(*t);
  ASSERT_THAT(tree, IsOk());
  EXPECT_EQ(tree->num_leaves(), 192);
  // KaHIP's distances: same processor 1, same node 10, other nodes 100.
  EXPECT_EQ(tree->Distance(0, 3), 1);
  EXPECT_EQ(tree->Distance(0, 4), 10);
  EXPECT_EQ(tree->Distance(0, 31), 10);
  EXPECT_EQ(tree->Distance(0, 32), 100);
  EXPECT_EQ(*KahipMachineToTleaf("2", "5"), "tleaf 1 2 5");
  EXPECT_EQ(*KahipMachineToTleaf("2:2", "1.5:1.5"), "tleaf 2 2 0 2 1.5");
}

TEST(KahipMachine, Errors) {
  auto e = [](std::string_view h, std::string_view d) {
    absl::StatusOr<std::string> t = KahipMachineToTleaf(h, d);
    EXPECT_THAT(t, Not(IsOk()));
    return std::string(t.status().message());
  };
  EXPECT_EQ(e("4:0:6", "1:10:100"),
            "--hierarchy: expected a positive integer, found '0' at column 3");
  EXPECT_EQ(e("4::6", "1:10:100"),
            "--hierarchy: expected a positive integer, found '' at column 3");
  EXPECT_EQ(
      e("4:8", "1:10:x"),
      "--distance: expected a non-negative number, found 'x' at column 6");
  EXPECT_EQ(e("4:8:6", "1:10"),
            "--hierarchy has 3 levels but --distance has 2");
  EXPECT_THAT(e("4:8", "10:1"),
              HasSubstr("must not decrease going up at column 4"));
  EXPECT_THAT(KahipMachineToTleaf("", ""), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::topology
