#include "topology/tree.h"

#include <cmath>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::Not;

TEST(Tree, FromLevelsFollowsTheTleafRule) {
  // tleaf 2 2 10 2 1: leaves 0,1 share a parent (distance 1); 0,2 meet at the
  // root (1 + 10).
  const int64_t arities[] = {2, 2};
  const double costs[] = {10, 1};
  auto t = Tree::FromLevels(arities, costs);
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 4);
  EXPECT_EQ(t->num_nodes(), 7);
  EXPECT_EQ(t->height(), 2);
  EXPECT_EQ(t->Distance(0, 1), 1.0);
  EXPECT_EQ(t->Distance(2, 3), 1.0);
  EXPECT_EQ(t->Distance(0, 2), 11.0);
  EXPECT_EQ(t->Distance(3, 0), 11.0);
  EXPECT_EQ(t->Distance(2, 2), 0.0);
  EXPECT_TRUE(t->Balanced());
  EXPECT_THAT(t->Arities(), ElementsAre(2, 2));
  EXPECT_EQ(t->Capacity(t->root()), 4);
  EXPECT_EQ(t->leaf_begin(t->Lca(2, 3)), 2);
  EXPECT_EQ(t->leaf_end(t->Lca(2, 3)), 4);
}

TEST(Tree, MixedRadixLeafNumbering) {
  // tleaf 3 2 100 3 10 4 1: leaf index = ((i1 * 3) + i2) * 4 + i3.
  const int64_t arities[] = {2, 3, 4};
  const double costs[] = {100, 10, 1};
  auto t = Tree::FromLevels(arities, costs);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 24);
  EXPECT_EQ(t->Distance(0, 3), 1.0);
  EXPECT_EQ(t->Distance(3, 4), 11.0);
  EXPECT_EQ(t->Distance(11, 12), 111.0);
  EXPECT_EQ(t->Distance(12, 23), 11.0);
}

TEST(Tree, UnbalancedTreeWithPairCosts) {
  // Two clusters: one node with 3 cores, one cluster of two 2-core nodes.
  TreeBuilder b;
  NodeId root = b.AddRoot("network", 1000);
  NodeId c0 = b.AddChild(root, "cluster", 100);
  NodeId c1 = b.AddChild(root, "cluster", 100);
  NodeId n0 = b.AddChild(c0, "node", 1);
  for (int i = 0; i < 3; ++i) b.SetOsIndex(b.AddChild(n0, "Core"), 10 + i);
  for (int k = 0; k < 2; ++k) {
    NodeId n = b.AddChild(c1, "node", 1);
    for (int i = 0; i < 2; ++i)
      b.SetHost(b.AddChild(n, "Core"), k == 0 ? "a" : "b");
  }
  b.SetPairCosts(root, {0, 500, 500, 0});
  auto t = std::move(b).Build();
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 7);
  EXPECT_FALSE(t->Balanced());
  EXPECT_TRUE(t->Arities().empty());
  EXPECT_EQ(t->os_index(1), 11);
  EXPECT_EQ(t->host(3), "a");
  EXPECT_EQ(t->host(6), "b");
  EXPECT_EQ(t->host(0), "");
  EXPECT_EQ(t->Distance(0, 2), 1.0);
  EXPECT_EQ(t->Distance(3, 4), 1.0);
  EXPECT_EQ(t->Distance(3, 5), 100.0);
  EXPECT_EQ(t->Distance(0, 6),
            500.0);  // from the pair matrix, not the root's cost
  EXPECT_EQ(t->kind(t->root()), "network");
  for (NodeId v = 0; v + 1 < t->num_nodes(); ++v) EXPECT_GT(t->parent(v), v);
}

TEST(Tree, CapacitiesAndErrors) {
  const int64_t arities[] = {2, 2};
  const double costs[] = {10, 1};
  auto t = Tree::FromLevels(arities, costs);
  ASSERT_THAT(t, IsOk());
  auto over = t->WithCapacities({2, 2, 0, 1});
  ASSERT_THAT(over, IsOk());
  EXPECT_EQ(over->Capacity(over->root()), 5);
  EXPECT_EQ(over->Capacity(over->Lca(2, 3)), 1);
  EXPECT_THAT(t->WithCapacities({1, 1}), Not(IsOk()));
  EXPECT_THAT(t->WithCapacities({1, 1, -1, 1}), Not(IsOk()));

  const int64_t zero[] = {2, 0};
  EXPECT_THAT(Tree::FromLevels(zero, costs), Not(IsOk()));
  const double negative[] = {-1, 1};
  EXPECT_THAT(Tree::FromLevels(arities, negative), Not(IsOk()));
  EXPECT_THAT(Tree::FromLevels(arities, std::span<const double>(costs, 1)),
              Not(IsOk()));

  TreeBuilder none;
  EXPECT_THAT(std::move(none).Build(), Not(IsOk()));
  TreeBuilder two_roots;
  two_roots.AddRoot("a");
  two_roots.AddRoot("b");
  EXPECT_THAT(std::move(two_roots).Build(), Not(IsOk()));
  TreeBuilder bad_pairs;
  NodeId r = bad_pairs.AddRoot("r", 1);
  bad_pairs.AddChild(r, "x");
  bad_pairs.AddChild(r, "x");
  bad_pairs.SetPairCosts(r, {0, 1, 2, 0});  // not symmetric
  EXPECT_THAT(std::move(bad_pairs).Build(), Not(IsOk()));
}

TEST(Tree, SpeedsDefaultToOneAndSurviveCopies) {
  TreeBuilder b;
  const NodeId r = b.AddRoot("node", 1);
  b.AddChild(r, "core");
  b.SetSpeed(b.AddChild(r, "core"), 2.5);
  auto t = std::move(b).Build();
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->speed(0), 1.0);
  EXPECT_EQ(t->speed(1), 2.5);
  EXPECT_TRUE(t->has_speeds());
  EXPECT_EQ(t->WithCapacities({2, 2})->speed(1), 2.5);
  EXPECT_EQ(t->WithSpeeds({3, 3})->speed(0), 3.0);
  EXPECT_THAT(t->WithSpeeds({3}), Not(IsOk()));
  EXPECT_THAT(t->WithSpeeds({3, 0}), Not(IsOk()));
  const int64_t arities[] = {2};
  const double costs[] = {1};
  EXPECT_FALSE(Tree::FromLevels(arities, costs)->has_speeds());

  for (double bad : {0.0, -1.0, std::nan("")}) {
    TreeBuilder z;
    z.SetSpeed(z.AddChild(z.AddRoot("node", 1), "core"), bad);
    EXPECT_THAT(std::move(z).Build(), Not(IsOk())) << bad;
  }
}

TEST(Tree, PuSetsAndLogicalIndexes) {
  TreeBuilder b;
  const NodeId root = b.AddRoot("Machine", 1);
  const NodeId core = b.AddChild(root, "Core");
  b.SetOsIndex(core, 4);
  b.SetPus(core, {12, 4, 12});
  b.SetLogicalIndex(core, 1);
  const NodeId pu = b.AddChild(root, "PU");
  b.SetOsIndex(pu, 7);
  b.AddChild(root, "PU");  // no os index
  auto t = std::move(b).Build();
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_THAT(t->pus(0), ElementsAre(4, 12));
  EXPECT_EQ(t->logical_index(0), 1);
  EXPECT_THAT(t->pus(1), ElementsAre(7));  // {os_index} by default
  EXPECT_EQ(t->logical_index(1), -1);
  EXPECT_TRUE(t->pus(2).empty());
  // Capacities keep the PU sets.
  auto over = t->WithCapacities({2, 1, 1});
  ASSERT_THAT(over, IsOk());
  EXPECT_THAT(over->pus(0), ElementsAre(4, 12));

  TreeBuilder bad;
  const NodeId r = bad.AddRoot("r", 1);
  bad.SetPus(bad.AddChild(r, "Core"), {-1, 3});
  EXPECT_THAT(std::move(bad).Build(), Not(IsOk()));
}

// Two switches with uplinks 1.25 GB/s, 2 us; two hosts per switch (uplink
// 1.25 GB/s, 1 us; loopback 10 GB/s, 0.5 us); each host has two sockets of two
// cores with hwloc-like given costs 11 (host) and 1 (socket).
absl::StatusOr<Tree> LinkedTree() {
  TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  for (int s = 0; s < 2; ++s) {
    const NodeId sw = b.AddChild(root, "switch");
    b.SetUplink(sw, Link{1.25e9, 2e-6});
    for (int h = 0; h < 2; ++h) {
      const NodeId host = b.AddChild(sw, "Machine", 11);
      b.SetUplink(host, Link{1.25e9, 1e-6});
      b.SetLoopback(host, Link{1e10, 0.5e-6});
      for (int p = 0; p < 2; ++p) {
        const NodeId pack = b.AddChild(host, "Package", 1);
        for (int c = 0; c < 2; ++c) b.AddChild(pack, "Core");
      }
    }
  }
  return std::move(b).Build();
}

TEST(Tree, CostsFromLinksByHand) {
  auto t = LinkedTree();
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  ASSERT_TRUE(t->has_links());
  // Loopback: 0.5 us + 65536 B / 1e10 B/s = 0.5 + 6.5536 us.
  const double host = 7.0536;
  EXPECT_NEAR(t->Distance(0, 2), host, 1e-9);       // two sockets, one host
  EXPECT_NEAR(t->Distance(0, 1), host / 11, 1e-9);  // one socket: scaled 1
  // Two hosts under one switch: 2 x 1 us + 65536 / 1.25e9 s = 2 + 52.4288 us.
  EXPECT_NEAR(t->Distance(0, 4), 54.4288, 1e-9);
  // Across switches: 2 x (1 + 2) us + 52.4288 us.
  EXPECT_NEAR(t->Distance(0, 8), 58.4288, 1e-9);
  EXPECT_EQ(t->HostOf(0), t->parent(t->parent(0)));
  EXPECT_TRUE(t->is_host(t->HostOf(5)));
  EXPECT_EQ(t->HostOf(t->root()), -1);
  EXPECT_EQ(t->uplink(t->HostOf(0)).latency, 1e-6);
  EXPECT_EQ(t->loopback(t->HostOf(0)).bandwidth, 1e10);
  // The routes the costs come from.
  EXPECT_NEAR(t->LcaRoute(t->root()).latency, 6e-6, 1e-18);
  EXPECT_EQ(t->LcaRoute(t->root()).bandwidth, 1.25e9);
  EXPECT_EQ(t->LcaRoute(t->Lca(0, 1)).bandwidth, 1e10);
  EXPECT_EQ(t->LcaRoute(t->Lca(0, 1)).latency, 0.5e-6);
}

TEST(Tree, PairLinksByHand) {
  TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  for (int c = 0; c < 3; ++c) {
    const NodeId host = b.AddChild(root, "host");
    b.SetUplink(host, Link{65536e6, 1e-6});  // 1 + 1 us per route
    b.SetLoopback(host, Link{1e10, 0});
    b.AddChild(host, "core");
    b.AddChild(host, "core");
  }
  const Link x{1e9, 1e-3}, y{2e9, 2e-6}, z{65536e6, 0}, none{};
  b.SetPairLinks(root, {none, x, y, x, none, z, y, z, none});
  auto t = std::move(b).Build();
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  // Host 0 - host 1: 1 ms + 2 us + 65536 / 1e9 s = 1000 + 2 + 65.536 us.
  EXPECT_NEAR(t->Distance(0, 2), 1067.536, 1e-9);
  // Host 0 - host 2: 2 + 2 us + 32.768 us; host 1 - host 2: 2 us + 1 us.
  EXPECT_NEAR(t->Distance(1, 5), 36.768, 1e-9);
  EXPECT_NEAR(t->Distance(3, 4), 3.0, 1e-9);
  EXPECT_NEAR(t->cost(t->root()), 1067.536, 1e-9);
  EXPECT_TRUE(t->has_pair_links(t->root()));
  EXPECT_EQ(t->pair_link(t->root(), 2, 1), z);
}

TEST(Tree, LinkErrors) {
  {
    TreeBuilder b;
    const NodeId r = b.AddRoot("r");
    const NodeId h = b.AddChild(r, "host");
    b.SetLoopback(r, Link{1e9, 0});
    b.SetLoopback(h, Link{1e9, 0});
    b.AddChild(h, "core");
    auto t = std::move(b).Build();
    ASSERT_THAT(t, Not(IsOk()));
    EXPECT_THAT(std::string(t.status().message()),
                ::testing::HasSubstr("hosts do not nest"));
  }
  {
    TreeBuilder b;
    const NodeId r = b.AddRoot("r");
    b.SetUplink(b.AddChild(r, "x"), Link{-1, 0});
    b.AddChild(r, "x");
    EXPECT_THAT(std::move(b).Build(), Not(IsOk()));
  }
  {
    TreeBuilder b;
    const NodeId r = b.AddRoot("r");
    b.AddChild(r, "x");
    b.AddChild(r, "x");
    b.SetPairLinks(r, {Link{}, Link{1e9, 0}, Link{2e9, 0}, Link{}});
    EXPECT_THAT(std::move(b).Build(), Not(IsOk()));
  }
}

}  // namespace
}  // namespace rankmap::topology
