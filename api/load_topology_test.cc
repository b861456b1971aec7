#include "api/load_topology.h"

#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::api {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;

TEST(LoadTree, ADescriptionWithItsOptions) {
  TopologySpec spec;
  spec.description = "tleaf 2 2 10 2 1";
  auto t = LoadTree(spec);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 4);
  EXPECT_EQ(t->Capacity(t->root()), 4);
  EXPECT_EQ(t->Distance(0, 2), 11);
  spec.slots_per_leaf = 3;
  EXPECT_EQ(LoadTree(spec)->Capacity(t->root()), 12);
  // A tleaf's allowed leaves are logical indexes.
  spec.slots_per_leaf = 1;
  spec.allowed = "1-2";
  EXPECT_EQ(LoadTree(spec)->num_leaves(), 2);
}

TEST(LoadTree, AKahipMachineIsItsTleaf) {
  TopologySpec spec;
  spec.description = "never read";
  spec.kahip_hierarchy = "2:3";  // 2 PEs per node, 3 nodes
  spec.kahip_distance = "1:10";
  auto t = LoadTree(spec);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 6);
  EXPECT_EQ(t->Distance(0, 1), 1);
  EXPECT_EQ(t->Distance(0, 2), 10);
  spec.slots_per_leaf = 2;
  EXPECT_EQ(LoadTree(spec)->Capacity(t->root()), 12);
}

TEST(LoadTree, AKahipMachineNeedsBothLists) {
  TopologySpec spec;
  spec.kahip_hierarchy = "4:8";
  EXPECT_THAT(LoadTree(spec).status().message(),
              HasSubstr("--hierarchy and --distance go together"));
  spec.kahip_distance = "1:x";
  EXPECT_THAT(LoadTree(spec).status().message(),
              HasSubstr("--distance: expected a non-negative number, found "
                        "'x' at column 3"));
}

TEST(LoadTree, LeavesArePusOrCores) {
  TopologySpec spec;
  spec.description = "pack:2 core:2 pu:2";
  EXPECT_EQ(LoadTree(spec)->num_leaves(), 8);
  spec.leaf = "core";
  EXPECT_EQ(LoadTree(spec)->num_leaves(), 4);
}

TEST(LoadTree, BadNamesAreOneLine) {
  TopologySpec spec;
  spec.description = "tleaf 2 2 10 2 1";
  spec.leaf = "socket";
  EXPECT_EQ(LoadTree(spec).status().message(),
            "leaf: expected 'pu' or 'core', found 'socket'");
  spec.leaf = "pu";
  spec.slots_per_leaf = 0;
  EXPECT_EQ(LoadTree(spec).status().message(),
            "slots per leaf: expected a count >= 1, found 0");
  spec.slots_per_leaf = 1;
  spec.description = "tleaf 2 2";
  EXPECT_THAT(LoadTree(spec).status().message(), HasSubstr("tleaf"));
  // The options as the loader reads them.
  spec.leaf = "core";
  spec.level_costs = "numa=100";
  spec.node = "core:4";
  auto o = LoadOptionsOf(spec);
  ASSERT_THAT(o, IsOk());
  EXPECT_EQ(o->leaf, topology::LeafKind::kCore);
  EXPECT_EQ(o->level_costs, "numa=100");
  EXPECT_EQ(o->node, "core:4");
  EXPECT_EQ(o->capacity, 1);
}

}  // namespace
}  // namespace rankmap::api
