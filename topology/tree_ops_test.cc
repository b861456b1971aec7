#include "topology/tree_ops.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Tree Tleaf(const char* s) {
  auto t = ParseTleaf(s);
  EXPECT_THAT(t, IsOk());
  return *std::move(t);
}

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

// Root with a 3x3 pair matrix over three 2-leaf children.
Tree ThreeClusters() {
  TreeBuilder b;
  NodeId r = b.AddRoot("network", 0);
  for (int c = 0; c < 3; ++c) {
    NodeId n = b.AddChild(r, "cluster", 1);
    for (int i = 0; i < 2; ++i) b.SetOsIndex(b.AddChild(n, "core"), 10 * c + i);
  }
  b.SetPairCosts(r, {0, 5, 9, 5, 0, 7, 9, 7, 0});
  auto t = std::move(b).Build();
  EXPECT_THAT(t, IsOk());
  return *std::move(t);
}

TEST(Restrict, KeepsDistancesOfKeptLeaves) {
  const Tree t = Tleaf("tleaf 3 2 100 4 10 8 1");
  const std::vector<LeafId> allowed = {63, 0, 9, 1, 40, 9};
  auto r = Restrict(t, allowed);
  ASSERT_THAT(r, IsOk());
  ASSERT_THAT(r->Validate(), IsOk());
  const std::vector<LeafId> sorted = {0, 1, 9, 40, 63};
  ASSERT_EQ(r->num_leaves(), 5);
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j)
      EXPECT_EQ(r->Distance(i, j), t.Distance(sorted[i], sorted[j]));
  }
  EXPECT_EQ(r->Distance(0, 1), 1.0);
  EXPECT_EQ(r->Distance(1, 2), 11.0);
  EXPECT_EQ(r->Distance(2, 3), 111.0);
  EXPECT_EQ(r->height(), 3);
  EXPECT_FALSE(r->Balanced());
  // Leaves keep the number they had (as their logical index).
  EXPECT_EQ(NumbersBeforeRestrict(*r), sorted);
  // Without logical indexes (an unrestricted tleaf) there is nothing to tell.
  EXPECT_TRUE(NumbersBeforeRestrict(t).empty());
}

TEST(Restrict, PairMatrixFollowsTheKeptChildren) {
  const Tree t = ThreeClusters();
  const std::vector<LeafId> allowed = {0, 4, 5};
  auto r = Restrict(t, allowed);
  ASSERT_THAT(r, IsOk());
  ASSERT_THAT(r->Validate(), IsOk());
  EXPECT_EQ(r->num_leaves(), 3);
  EXPECT_EQ(r->Distance(0, 1), 9.0);  // clusters 0 and 2
  EXPECT_EQ(r->Distance(1, 2), 1.0);
  EXPECT_EQ(r->os_index(1), 20);
  EXPECT_EQ(r->num_children(r->root()), 2);
}

TEST(Restrict, KeepsSpeeds) {
  TreeBuilder b;
  const NodeId r = b.AddRoot("node", 1);
  for (int i = 0; i < 4; ++i) b.SetSpeed(b.AddChild(r, "core"), 1 + i);
  const Tree t = *std::move(b).Build();
  const std::vector<LeafId> allowed = {1, 3};
  auto small = Restrict(t, allowed);
  ASSERT_THAT(small, IsOk());
  EXPECT_THAT(small->speeds(), ElementsAre(2.0, 4.0));
}

TEST(Restrict, Errors) {
  const Tree t = Tleaf("tleaf 1 4 1");
  EXPECT_THAT(Msg(Restrict(t, {}).status()), HasSubstr("no leaf allowed"));
  const std::vector<LeafId> bad = {0, 4};
  EXPECT_THAT(Msg(Restrict(t, bad).status()),
              HasSubstr("leaf 4 is not in [0, 4)"));
  const std::vector<LeafId> neg = {-1};
  EXPECT_THAT(Restrict(t, neg), Not(IsOk()));
}

TEST(Oversubscribe, SetsCapacityOfAvailableLeaves) {
  const Tree t = Tleaf("tleaf 2 2 10 3 1");
  auto o = Oversubscribe(t, 3);
  ASSERT_THAT(o, IsOk());
  EXPECT_EQ(o->Capacity(o->root()), 18);
  EXPECT_EQ(o->capacity(5), 3);
  auto partial = t.WithCapacities({1, 0, 1, 1, 1, 0});
  ASSERT_THAT(partial, IsOk());
  auto p = Oversubscribe(*partial, 2);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->capacity(1), 0);
  EXPECT_EQ(p->capacity(2), 2);
  EXPECT_EQ(p->Capacity(p->root()), 8);
  EXPECT_EQ(p->Capacity(p->Lca(0, 1)), 4);  // leaves 0, 1, 2: 2 + 0 + 2
  EXPECT_THAT(Msg(Oversubscribe(t, 0).status()), HasSubstr(">= 1"));
}

TEST(AppendSubtree, CopiesUnderANewParentWithHosts) {
  const Tree node = Tleaf("tleaf 2 2 10 2 1");
  TreeBuilder b;
  NodeId root = b.AddRoot("switch", 1000);
  AppendSubtree(b, root, node, "a");
  AppendSubtree(b, root, node, "b");
  auto t = std::move(b).Build();
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 8);
  EXPECT_EQ(t->host(0), "a");
  EXPECT_EQ(t->host(7), "b");
  EXPECT_EQ(t->Distance(4, 5), 1.0);
  EXPECT_EQ(t->Distance(4, 6), 11.0);
  EXPECT_EQ(t->Distance(3, 4), 1000.0);
  EXPECT_EQ(t->depth(t->Lca(3, 4)), 0);
  EXPECT_EQ(t->depth(t->Lca(4, 6)), 1);
  EXPECT_EQ(t->depth(t->Lca(4, 5)), 2);
  EXPECT_EQ(t->depth(t->Lca(5, 5)), 3);
}

TEST(Restrict, KeepsPuSetsLogicalIndexesAndHosts) {
  TreeBuilder b;
  const NodeId root = b.AddRoot("Machine", 1);
  for (int c = 0; c < 3; ++c) {
    const NodeId core = b.AddChild(root, "Core");
    b.SetOsIndex(core, c);
    b.SetPus(core, {c, c + 8});
    b.SetLogicalIndex(core, c);
    b.SetHost(core, "h");
  }
  const Tree t = std::move(b).Build().value();
  const std::vector<LeafId> allowed = {2, 0};
  auto r = Restrict(t, allowed);
  ASSERT_THAT(r, IsOk());
  EXPECT_THAT(r->pus(1), ElementsAre(2, 10));
  EXPECT_EQ(r->logical_index(1), 2);
  EXPECT_EQ(r->os_index(1), 2);
  EXPECT_EQ(r->host(1), "h");
  TreeBuilder n;
  AppendSubtree(n, n.AddRoot("switch", 10), t, "other");
  auto copy = std::move(n).Build();
  ASSERT_THAT(copy, IsOk());
  EXPECT_THAT(copy->pus(2), ElementsAre(2, 10));
  EXPECT_EQ(copy->logical_index(2), 2);
  EXPECT_EQ(copy->host(2), "other");
}

TEST(ToJson, DescribesNodesLeavesAndPairCosts) {
  const std::string j = ToJson(Tleaf("tleaf 2 2 10 2 1"));
  EXPECT_THAT(j, HasSubstr("\"num_leaves\": 4"));
  EXPECT_THAT(j, HasSubstr("\"arities\": [2, 2]"));
  EXPECT_THAT(j, HasSubstr("\"id\": 6, \"kind\": \"level0\", \"depth\": 0, "
                           "\"cost\": 11, \"leaves\": [0, 4]"));
  EXPECT_THAT(j, HasSubstr("{\"id\": 3, \"kind\": \"leaf\", \"os_index\": -1, "
                           "\"host\": \"\", \"capacity\": 1}"));
  const std::string p = ToJson(ThreeClusters());
  EXPECT_THAT(p,
              HasSubstr("\"pair_costs\": [[0, 5, 9], [5, 0, 7], [9, 7, 0]]"));
  EXPECT_THAT(p, HasSubstr("\"balanced\": true"));
  for (const std::string& s : {j, p}) {
    EXPECT_EQ(std::count(s.begin(), s.end(), '{'),
              std::count(s.begin(), s.end(), '}'));
    EXPECT_EQ(std::count(s.begin(), s.end(), '['),
              std::count(s.begin(), s.end(), ']'));
  }
  TreeBuilder b;
  NodeId r = b.AddRoot("r");
  b.SetHost(b.AddChild(r, "x"), "a\"b");
  EXPECT_THAT(ToJson(*std::move(b).Build()), HasSubstr("\"host\": \"a\\\"b\""));
}

TEST(DrawTree, ShowsSpeedsWhenLeavesDiffer) {
  TreeBuilder b;
  const NodeId r = b.AddRoot("cluster", 10);
  for (int n = 0; n < 3; ++n) {
    const NodeId node = b.AddChild(r, "node", 1);
    for (int c = 0; c < 2; ++c)
      b.SetSpeed(b.AddChild(node, "core"), n == 2 ? 4 : 1);
  }
  const Tree t = *std::move(b).Build();
  const std::string text = DrawTree(t);
  // The fast node is not folded into the run of slow ones.
  EXPECT_THAT(text,
              HasSubstr("node  cost 1  leaves [0, 2)  2 x core  speed 1\n"
                        "  ... 1 more like this, leaves [2, 4)\n"
                        "  node  cost 1  leaves [4, 6)  2 x core  speed 4"))
      << text;
  EXPECT_THAT(ToJson(t), HasSubstr("\"capacity\": 1, \"speed\": 4}"));
  EXPECT_THAT(DrawTree(Tleaf("tleaf 1 2 1")), Not(HasSubstr("speed")));
}

TEST(DrawTree, CompressesRunsOfEqualSiblings) {
  EXPECT_EQ(DrawTree(Tleaf("tleaf 2 2 10 2 1")),
            "level0  cost 11  leaves [0, 4)  2 children\n"
            "  level1  cost 1  leaves [0, 2)  2 x leaf\n"
            "  ... 1 more like this, leaves [2, 4)\n");
  EXPECT_EQ(DrawTree(ThreeClusters()),
            "network  cost 0  leaves [0, 6)  3 children\n"
            "  pair costs (3 x 3):\n"
            "    0 5 9\n"
            "    5 0 7\n"
            "    9 7 0\n"
            "  cluster  cost 1  leaves [0, 2)  2 x core\n"
            "  ... 2 more like this, leaves [2, 6)\n");
  TreeBuilder b;
  NodeId r = b.AddRoot("r", 5);
  NodeId x = b.AddChild(r, "x", 1);
  b.AddChild(x, "pu");
  b.AddChild(x, "pu");
  b.SetOsIndex(b.AddChild(r, "pu"), 7);
  EXPECT_EQ(DrawTree(*std::move(b).Build()),
            "r  cost 5  leaves [0, 3)  2 children\n"
            "  x  cost 1  leaves [0, 2)  2 x pu\n"
            "  pu leaf 2 (os 7)\n");
}

}  // namespace
}  // namespace rankmap::topology
