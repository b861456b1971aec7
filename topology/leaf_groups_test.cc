#include "topology/leaf_groups.h"

#include <cstdlib>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/hwloc_import.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::Not;

std::string Xml(const std::string& name) {
  const char* dir = std::getenv("TEST_SRCDIR");
  return std::string(dir ? dir : ".") + "/rankmap/tests/data/hwloc-xml/" + name;
}

TEST(LeafGroupsTest, FourCoreGroupsOfADualSocketMachine) {
  // 16em64t-4s2c2t: 4 packages x 2 cores x 2 PUs; package 0 holds PUs
  // 0,8,4,12 (hwloc-calc --intersect pu package:0).
  HwlocImportOptions o;
  absl::StatusOr<Tree> tree = TreeFromXmlFile(Xml("16em64t-4s2c2t.xml"), o);
  ASSERT_THAT(tree, IsOk());
  absl::StatusOr<LeafGroups> g = GroupLeaves(*tree, 4);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->tree.num_leaves(), 4);
  EXPECT_THAT(g->first, ElementsAre(0, 4, 8, 12));
  EXPECT_THAT(
      std::vector<int32_t>(g->tree.pus(0).begin(), g->tree.pus(0).end()),
      ElementsAre(0, 4, 8, 12));
  // A group is one package: its four PUs, and groups are as far apart as
  // packages are.
  for (LeafId c = 0; c < 4; ++c) {
    std::vector<int32_t> want;
    for (LeafId l = 4 * c; l < 4 * c + 4; ++l) want.push_back(tree->pus(l)[0]);
    std::sort(want.begin(), want.end());
    EXPECT_THAT(
        std::vector<int32_t>(g->tree.pus(c).begin(), g->tree.pus(c).end()),
        ::testing::ElementsAreArray(want));
  }
  EXPECT_EQ(g->tree.Distance(0, 1), tree->Distance(0, 4));
}

TEST(LeafGroupsTest, LeftoversAndErrors) {
  absl::StatusOr<Tree> tree = TreeFromSynthetic("pack:2 core:3 pu:1");
  ASSERT_THAT(tree, IsOk());
  absl::StatusOr<LeafGroups> g = GroupLeaves(*tree, 4);
  ASSERT_THAT(g, IsOk());
  EXPECT_THAT(g->first, ElementsAre(0));  // leaves 4 and 5 are left out
  EXPECT_EQ(GroupLeaves(*tree, 7).status().message(),
            "--threads-per-process 7: no node has 7 leaves (the largest has "
            "6)");
  EXPECT_THAT(GroupLeaves(*tree, 0), Not(IsOk()));
  EXPECT_EQ(GroupLeaves(*tree, 1)->tree.num_leaves(), 6);
}

}  // namespace
}  // namespace rankmap::topology
