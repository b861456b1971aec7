#include "models/level_classes.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/topology.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;

using Depths = std::vector<char>;

// This machine as hwloc merges it: one level that is machine, package, NUMA
// node and L3 at once, over two PU leaves.
topology::Tree MergedMachine() {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("Machine+Package+NUMANode+L3Cache", 1);
  b.AddChild(root, "L2Cache+L1Cache+Core+PU");
  b.AddChild(root, "L2Cache+L1Cache+Core+PU");
  return *std::move(b).Build();
}

// Machine -> 2 x Group+NUMANode -> 2 x Core -> 2 x PU.
topology::Tree GroupNuma() {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("Machine", 100);
  for (int g = 0; g < 2; ++g) {
    const auto numa = b.AddChild(root, "Group+NUMANode", 10);
    for (int c = 0; c < 2; ++c) {
      const auto core = b.AddChild(numa, "Core", 1);
      b.AddChild(core, "PU");
      b.AddChild(core, "PU");
    }
  }
  return *std::move(b).Build();
}

Depths Select(const topology::Tree& t, const char* selector) {
  return SelectDepthsByName(t, ClassifyLevels(t), selector);
}

TEST(SelectDepthsByName, EveryPartOfAMergedKind) {
  const topology::Tree t = MergedMachine();
  for (const char* s : {"Package", "package", "pack", "socket", "numa",
                        "NUMANode", "node", "Machine", "L3Cache",
                        "machine+package+numanode+l3cache"}) {
    EXPECT_EQ(Select(t, s), Depths({1})) << s;
  }
  // L3 is shared by the cores of a socket: not the core class.
  EXPECT_EQ(Select(t, "core"), Depths({0}));
  EXPECT_EQ(Select(t, "Core"), Depths({0}));
  EXPECT_EQ(Select(t, "cluster"), Depths({0}));
}

TEST(SelectDepthsByName, GroupNumaAndClasses) {
  const topology::Tree t = GroupNuma();
  EXPECT_EQ(Select(t, "numa"), Depths({0, 1, 0}));
  EXPECT_EQ(Select(t, "NUMANode"), Depths({0, 1, 0}));
  EXPECT_EQ(Select(t, "Group"), Depths({0, 1, 0}));
  EXPECT_EQ(Select(t, "socket"), Depths({0, 1, 0}));
  EXPECT_EQ(Select(t, "node"), Depths({1, 0, 0}));
  EXPECT_EQ(Select(t, "Machine"), Depths({1, 0, 0}));
  EXPECT_EQ(Select(t, "core"), Depths({0, 0, 1}));
  EXPECT_EQ(Select(t, "network"), Depths({0, 0, 0}));
}

TEST(ClassifyLevels, HwlocKindsGiveGroups) {
  const LevelClasses c = ClassifyLevels(GroupNuma());
  EXPECT_EQ(c.group, std::vector<DefaultGroup>({DefaultGroup::kNode,
                                                 DefaultGroup::kSocket,
                                                 DefaultGroup::kCache}));
  // The merged level's innermost part is a cache.
  EXPECT_EQ(ClassifyLevels(MergedMachine()).group,
            std::vector<DefaultGroup>({DefaultGroup::kCache}));
}

TEST(ClassifyLevels, TleafFromTheBottom) {
  const LevelClasses c =
      ClassifyLevels(testing::MakeTleaf("5 2 1 2 1 2 1 2 1 2 1"));
  EXPECT_EQ(c.group, std::vector<DefaultGroup>(
                         {DefaultGroup::kNetwork, DefaultGroup::kNetwork,
                          DefaultGroup::kNode, DefaultGroup::kSocket,
                          DefaultGroup::kCache}));
}

TEST(ClassifyLevels, NetworkSpecLevelsAreNetwork) {
  // Two clusters of tleaf nodes with one level of cores each: the root joins
  // clusters, depth 1 nodes of one cluster, depth 2 cores of one node.
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string path = std::string(tmp) + "/two.net";
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("network\ncluster a\n2 x tleaf 1 4 1\ncluster b\n"
               "2 x tleaf 1 4 1\n",
               f);
    std::fclose(f);
  }
  auto t = topology::LoadTopology(path);
  ASSERT_THAT(t, IsOk());
  ASSERT_EQ(t->height(), 3);
  const LevelClasses c = ClassifyLevels(*t);
  EXPECT_EQ(c.group, std::vector<DefaultGroup>({DefaultGroup::kNetwork,
                                                 DefaultGroup::kNetwork,
                                                 DefaultGroup::kNode}));
  EXPECT_EQ(Select(*t, "network"), Depths({1, 0, 0}));
  EXPECT_EQ(Select(*t, "cluster"), Depths({0, 1, 0}));
  EXPECT_EQ(Select(*t, "node"), Depths({0, 0, 1}));
  EXPECT_EQ(DescribeLevels(*t),
            "network (depth 0), cluster (depth 1), level0 (depth 2)");
}

TEST(ParseLevelClass, Names) {
  for (const char* n : {"core", "socket", "numa", "node", "cluster",
                        "network"}) {
    ASSERT_TRUE(ParseLevelClass(n).has_value()) << n;
    EXPECT_EQ(LevelClassName(*ParseLevelClass(n)), std::string(n));
  }
  EXPECT_EQ(ParseLevelClass("NODE"), LevelClass::kNode);
  EXPECT_FALSE(ParseLevelClass("rack").has_value());
}

}  // namespace
}  // namespace rankmap::models
