#include "core/strategies/isolated_vertices.h"

#include <vector>

#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/strategies/partition_map.h"
#include "gmock/gmock.h"
#include "graphs/comm_graph.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using ::testing::ElementsAre;

// n vertices; edges (u, v, w) as given, every other vertex isolated.
graphs::CommGraph Graph(int32_t n,
                        const std::vector<std::tuple<int, int, double>>& e) {
  graphs::CommGraphBuilder b(n);
  for (const auto& [u, v, w] : e) EXPECT_TRUE(b.AddEdge(u, v, w).ok());
  return *std::move(b).Build();
}

MappingOptions Options(Algorithm a) {
  MappingOptions o = *MappingOptions::Preset("default");
  o.algorithm = a;
  return o;
}

TEST(IsolatedVertices, CountsDegreeZeroOnly) {
  EXPECT_EQ(CountIsolatedVertices(Graph(5, {{0, 3, 2.0}, {1, 4, 0.0}})), 1);
  EXPECT_EQ(CountIsolatedVertices(Graph(3, {})), 3);
}

// One-to-one: the strategy sees the connected part alone; the isolated
// vertices take the free slots in leaf order.
TEST(IsolatedVertices, OneToOneFillsFreeSlotsInLeafOrder) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const graphs::CommGraph g = Graph(4, {{1, 3, 5.0}});
  int32_t seen = -1;
  absl::StatusOr<Mapping> m = MapAroundIsolated(
      tree, g, false, 0.03,
      [&](const graphs::CommGraph& part) -> absl::StatusOr<Mapping> {
        seen = part.num_vertices();
        return Mapping{2, 3};  // vertex 1 on leaf 2, vertex 3 on leaf 3
      });
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(seen, 2);
  EXPECT_THAT(*m, ElementsAre(0, 2, 1, 3));
  // Through Map: the pair shares a node, J = 5 x 1, every slot used once.
  for (Algorithm a : {Algorithm::kPortfolio, Algorithm::kTreeMatch,
                      Algorithm::kMultisection}) {
    absl::StatusOr<Mapping> r = Map(tree, g, Options(a));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(ValidateMapping(tree, 4, *r).ok());
    EXPECT_EQ(ComputeJ(tree, g, *r), 5.0);
  }
}

// n-to-1: 300,000 isolated vertices become 16 fillers beside the connected
// pair; the pair shares a leaf (J = 0) and the loads are within the bounds.
// Given to METIS as they are, the isolated vertices took minutes.
TEST(IsolatedVertices, NTo1PartitionsTheConnectedPartWithFillers) {
  const topology::Tree tree = testing::MakeTleaf("1 4 1");
  const int32_t n = 300002;
  const graphs::CommGraph g = Graph(n, {{0, 300001, 7.0}});
  int32_t largest_part = 0;
  const MappingOptions o = Options(Algorithm::kPortfolio);
  absl::StatusOr<Mapping> m = MapAroundIsolated(
      tree, g, true, o.imbalance,
      [&](const graphs::CommGraph& part) -> absl::StatusOr<Mapping> {
        largest_part = std::max(largest_part, part.num_vertices());
        return PartitionMap(tree, part, o);
      });
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(largest_part, 2 + kFillersPerLeaf * 4);
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, *m, o.imbalance).ok());
  EXPECT_EQ((*m)[0], (*m)[300001]);
  absl::StatusOr<Mapping> through_map = Map(tree, g, o);
  ASSERT_TRUE(through_map.ok()) << through_map.status();
  EXPECT_TRUE(
      ValidatePartitionMapping(tree, g, *through_map, o.imbalance).ok());
  EXPECT_EQ(ComputeJ(tree, g, *through_map), 0.0);
  EXPECT_EQ(*through_map, *Map(tree, g, o));  // same inputs, same mapping
}

// Without edges nothing runs: n-to-1 spreads the vertices by room left
// (bounds of 3 per leaf for 10 vertices on 4 leaves), one-to-one packs them.
TEST(IsolatedVertices, NoEdgesAreSpreadOrPacked) {
  bool called = false;
  const auto never = [&](const graphs::CommGraph&) -> absl::StatusOr<Mapping> {
    called = true;
    return Mapping{};
  };
  absl::StatusOr<Mapping> spread = MapAroundIsolated(
      testing::MakeTleaf("1 4 1"), Graph(10, {}), true, 0.03, never);
  ASSERT_TRUE(spread.ok()) << spread.status();
  EXPECT_THAT(*spread, ElementsAre(0, 1, 2, 3, 0, 1, 2, 3, 0, 1));
  absl::StatusOr<Mapping> packed = MapAroundIsolated(
      testing::MakeTleaf("2 2 10 2 1"), Graph(3, {}), false, 0.03, never);
  ASSERT_TRUE(packed.ok()) << packed.status();
  EXPECT_THAT(*packed, ElementsAre(0, 1, 2));
  EXPECT_FALSE(called);
}

// Vertex weights: the fillers carry their members' weight, so the balance
// of the expanded mapping is the partition's.
TEST(IsolatedVertices, FillersCarryTheWeightOfTheirMembers) {
  const topology::Tree tree = testing::MakeTleaf("1 3 1");
  graphs::CommGraphBuilder b(40);
  ASSERT_TRUE(b.AddEdge(0, 1, 3.0).ok());
  ASSERT_TRUE(b.AddEdge(1, 2, 3.0).ok());
  for (int v = 0; v < 40; ++v)
    ASSERT_TRUE(b.SetVertexWeight(v, v % 3 == 0 ? 2.0 : 1.0).ok());
  const graphs::CommGraph g = *std::move(b).Build();
  const MappingOptions o = Options(Algorithm::kMultisection);
  absl::StatusOr<Mapping> m = Map(tree, g, o);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(ValidatePartitionMapping(tree, g, *m, o.imbalance).ok());
}

}  // namespace
}  // namespace rankmap::core
