#include "core/strategies/partition_choice.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "core/baselines/scotch_map.h"
#include "core/mapper.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"

namespace rankmap::core {
namespace {

// Two hosts of two cores: host links 1 GB/s, 1 us (a route between hosts: 2
// us, 1 GB/s); loopbacks 10 GB/s, 0.5 us. Leaves 0, 1 on host A; 2, 3 on B.
topology::Tree TwoHosts() {
  return topology::ParseTleaf("tleaf 2 2 1GBps:1us 2 10GBps:0.5us").value();
}

// Eight vertices, two a leaf. Edges 0-4 and 1-5 weigh 4, the others 1.
graphs::CommGraph EightVertices() {
  graphs::CommGraphBuilder b(8);
  for (auto [u, v, w] : {std::tuple{0, 4, 4.0},
                         {1, 5, 4.0},
                         {0, 1, 1.0},
                         {4, 5, 1.0},
                         {4, 6, 1.0},
                         {5, 7, 1.0},
                         {2, 3, 1.0},
                         {6, 7, 1.0}}) {
    EXPECT_TRUE(b.AddEdge(u, v, w).ok());
  }
  return std::move(b).Build().value();
}

// The status quo S: vertex v on leaf v / 2. Parts 0-2 share cut 8 (edges 0-4,
// 1-5) across the hosts, parts 2-3 cut 2 inside host B: two pairs.
const Mapping kStatusQuo = {0, 0, 1, 1, 2, 2, 3, 3};
// M: {0, 4} {1, 5} {2, 3} {6, 7}. Parts 0-1 cut 2 inside host A, 0-3 and 1-3
// cut 1 each across: three pairs, a third of S's bytes between the hosts.
const Mapping kMachineAware = {0, 1, 2, 2, 0, 1, 3, 3};

MappingOptions WithModel(double bytes, double messages) {
  MappingOptions o;
  o.exchange = {.bytes_per_unit = bytes,
                .messages_per_pair = messages,
                .source = ExchangeModel::Source::kGiven};
  return o;
}

// By hand, with b bytes per unit and m messages per pair each way (the
// exchange graph carries 2b x cut bytes and 2m messages per pair):
//   S: host uplinks carry 16b, busy 16b / 2 / 1e9 = 8b ns; rounds: m x 2 us;
//      T = 2m (2 us + 0.5 us) + 16b x 1 ns + 4b x 0.1 ns = 5m us + 16.4b ns.
//   M: host uplinks carry 4b: 2b ns; rounds m x 2 us;
//      T = 2m x 0.5 us + 4b x 0.1 ns + 2 (2m x 2 us + 2b x 1 ns)
//        = 9m us + 4.4b ns.
// The predicted time (core/objective/link_load.h, SMPI's default model) at b = 1 MB,
// m = 1: S sends 8 MB each way between the hosts, M 1 MB on each of two
// pairs; both pay 11.6436 x the 2 us route latency, then share a host link
// (1 GB/s x the bandwidth factor 0.940694, acknowledgements taking 5% of the
// other direction): S 8 MB x 1.05, M 2 x 1 MB x 1.05 on the busiest link.
TEST(PartitionChoiceTest, HandComputedPredictions) {
  const topology::Tree t = TwoHosts();
  const graphs::CommGraph g = EightVertices();
  const MappingOptions o = WithModel(1e6, 1);
  const ExchangePrediction s = PredictExchange(t, g, kStatusQuo, o).value();
  EXPECT_DOUBLE_EQ(s.busiest, 8e-3);
  EXPECT_DOUBLE_EQ(s.latency, 2e-6);
  EXPECT_NEAR(s.seconds, 2e-6 * 11.6436 + 8e6 * 1.05 / 0.940694e9, 1e-12);
  EXPECT_DOUBLE_EQ(s.cost, 5e-6 + 16.4e-3);
  EXPECT_DOUBLE_EQ(s.cut, 10);
  EXPECT_EQ(s.pairs, 2);
  EXPECT_DOUBLE_EQ(s.bytes, 20e6);
  EXPECT_DOUBLE_EQ(s.messages, 4);
  const ExchangePrediction m = PredictExchange(t, g, kMachineAware, o).value();
  EXPECT_DOUBLE_EQ(m.busiest, 2e-3);
  EXPECT_DOUBLE_EQ(m.latency, 2e-6);
  EXPECT_DOUBLE_EQ(m.cost, 9e-6 + 4.4e-3);
  EXPECT_DOUBLE_EQ(m.cut, 4);
  EXPECT_EQ(m.pairs, 3);
}

// Bandwidth-bound (1 MB per unit, one message a pair): M is 4x faster and
// replaces the status quo.
TEST(PartitionChoiceTest, BandwidthBoundTrafficReplacesTheStatusQuo) {
  PartitionReport r;
  const Mapping chosen =
      ChooseAmong(TwoHosts(), EightVertices(), WithModel(1e6, 1), kStatusQuo,
                  {{"machine-aware", kMachineAware}}, &r)
          .value();
  EXPECT_EQ(chosen, kMachineAware);
  EXPECT_EQ(r.winner, "machine-aware");
  EXPECT_EQ(r.objective, "time");
  EXPECT_NEAR(r.status_quo.seconds,
              2e-6 * 11.6436 + 8e6 * 1.05 / 0.940694e9, 1e-12);
  EXPECT_NEAR(r.chosen.seconds, 2e-6 * 11.6436 + 2e6 * 1.05 / 0.940694e9,
              1e-12);
  ASSERT_EQ(r.candidates.size(), 2u);
  EXPECT_EQ(r.candidates[0].name, "status quo");
  EXPECT_EQ(r.model,
            "1e+06 B per unit of edge weight and 1 message per neighbouring "
            "pair, each way (given)");
}

// Latency-bound (8 B per unit, 1,000 messages a pair): both predictions are
// 1,000 rounds of an empty message between the hosts (2 us x 2.01467, SMPI's
// latency factor), and S's two pairs cost T = 5 ms against M's three, 9 ms:
// the status quo wins.
TEST(PartitionChoiceTest, LatencyBoundTrafficKeepsTheStatusQuo) {
  PartitionReport r;
  const Mapping chosen =
      ChooseAmong(TwoHosts(), EightVertices(), WithModel(8, 1000), kStatusQuo,
                  {{"machine-aware", kMachineAware}}, &r)
          .value();
  EXPECT_EQ(chosen, kStatusQuo);
  EXPECT_EQ(r.winner, "status quo");
  EXPECT_NEAR(r.status_quo.seconds, 1000 * 2e-6 * 2.01467, 1e-12);
  EXPECT_NEAR(r.candidates[1].prediction.seconds, 1000 * 2e-6 * 2.01467,
              1e-12);
  EXPECT_DOUBLE_EQ(r.status_quo.cost, 5e-3 + 131.2e-9);
  EXPECT_DOUBLE_EQ(r.candidates[1].prediction.cost, 9e-3 + 35.2e-9);
}

// Without links the exchange's bytes are priced by J, and the report says
// so: S has 16b at distance 2 (tleaf costs 1 + 1 between hosts, here 10 +
// 1), M less.
TEST(PartitionChoiceTest, TreeWithoutLinksChoosesByJ) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  PartitionReport r;
  const Mapping chosen =
      ChooseAmong(t, EightVertices(), WithModel(1, 1000), kStatusQuo,
                  {{"machine-aware", kMachineAware}}, &r)
          .value();
  EXPECT_EQ(r.objective, "J");
  EXPECT_NE(r.note.find("no links"), std::string::npos);
  // J of the exchange graph: S = 16 x 11 + 4 x 1 = 180; M = 4 x 1 + 2 x 2
  // x 11 = 48.
  EXPECT_DOUBLE_EQ(r.status_quo.cost, 180);
  EXPECT_DOUBLE_EQ(r.chosen.cost, 48);
  EXPECT_EQ(chosen, kMachineAware);
  EXPECT_EQ(r.status_quo.seconds, 0.0);
  // The time objective needs links.
  MappingOptions o = WithModel(1, 1);
  o.objective = ObjectiveKind::kTime;
  EXPECT_FALSE(PredictExchange(t, EightVertices(), kStatusQuo, o).ok());
}

// A graph with message counts and no model given is its own exchange: the
// counts between parts are summed.
TEST(PartitionChoiceTest, OwnCountsWhenNoModelIsGiven) {
  graphs::CommGraphBuilder b(8);
  ASSERT_TRUE(b.AddTraffic(0, 4, 100, 6).ok());   // parts 0-2 under S
  ASSERT_TRUE(b.AddTraffic(1, 5, 300, 10).ok());  // parts 0-2
  ASSERT_TRUE(b.AddTraffic(2, 3, 50, 40).ok());   // inside part 1
  const graphs::CommGraph g = std::move(b).Build().value();
  const MappingOptions o;  // default model
  const graphs::CommGraph x =
      ExchangeGraph(TwoHosts(), g, kStatusQuo, o.exchange).value();
  ASSERT_EQ(x.num_vertices(), 4);
  EXPECT_DOUBLE_EQ(x.EdgeWeight(0, 2), 400);
  EXPECT_DOUBLE_EQ(x.TotalMessages(), 16);
  EXPECT_EQ(x.num_edges(), 1);
  EXPECT_NE(DescribeExchange(o.exchange, g).find("own"), std::string::npos);
}

TEST(PartitionChoiceTest, BadModelIsAnError) {
  MappingOptions o = WithModel(-1, 1);
  EXPECT_FALSE(ValidateOptions(o).ok());
  EXPECT_FALSE(
      PredictExchange(TwoHosts(), EightVertices(), kStatusQuo, o).ok());
  o = WithModel(1, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(ValidateOptions(o).ok());
}

// The exchange graph by brute force: cut per pair of parts.
std::map<std::pair<int, int>, double> CutPerPair(const graphs::CommGraph& g,
                                                 const Mapping& m) {
  std::map<std::pair<int, int>, double> cut;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    auto nbrs = g.neighbors(u);
    auto w = g.weights(u);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      const int p = m[u], q = m[nbrs[e]];
      if (nbrs[e] > u && p != q) cut[{std::min(p, q), std::max(p, q)}] += w[e];
    }
  }
  return cut;
}

// Map n-to-1 on a 3D mesh over two switches: every vertex placed once,
// within the bound, never predicted slower than the status quo, the report's
// figures equal to a recomputation, the same result for the same seed.
TEST(PartitionChoiceTest, MapNTo1Properties) {
  const topology::Tree t = topology::ParseTleaf(
                               "tleaf 3 2 1GBps:5us 2 10GBps:1us 4 "
                               "40GBps:0.2us")
                               .value();
  const graphs::CommGraph mesh = testing::Permute(
      testing::MakeGrid3D(8, 8, 6), testing::RandomPermutation(384, 3));
  for (const auto& [bytes, messages] :
       {std::pair{40.0, 1.0}, std::pair{0.5, 2000.0}}) {
    MappingOptions o = WithModel(bytes, messages);
    PartitionReport r;
    o.partition_report = &r;
    const Mapping m = Map(t, mesh, o).value();
    ASSERT_EQ(m.size(), 384u);
    EXPECT_TRUE(ValidatePartitionMapping(t, mesh, m, o.imbalance).ok());
    ASSERT_TRUE(r.weighed);
    ASSERT_GE(r.candidates.size(), 2u);
    EXPECT_EQ(r.candidates[0].name, "status quo");
    EXPECT_LE(r.chosen.seconds, r.status_quo.seconds);
    const ExchangePrediction again = PredictExchange(t, mesh, m, o).value();
    EXPECT_DOUBLE_EQ(again.seconds, r.chosen.seconds);
    EXPECT_DOUBLE_EQ(again.cost, r.chosen.cost);
    double cut = 0;
    const auto pairs = CutPerPair(mesh, m);
    for (const auto& [pq, w] : pairs) cut += w;
    EXPECT_DOUBLE_EQ(r.chosen.cut, cut);
    EXPECT_EQ(r.chosen.pairs, static_cast<int64_t>(pairs.size()));
    EXPECT_DOUBLE_EQ(r.chosen.bytes, 2 * bytes * cut);
    EXPECT_DOUBLE_EQ(r.chosen.messages, 2 * messages * pairs.size());
    o.partition_report = nullptr;
    EXPECT_EQ(Map(t, mesh, o).value(), m);
  }
}

// The status quo is a partition of the flat tree: balanced, and its parts do
// not depend on the tree's levels.
TEST(PartitionChoiceTest, StatusQuoIgnoresTheLevels) {
  const graphs::CommGraph mesh = testing::MakeGrid2D(16, 16);
  const MappingOptions o;
  const Mapping a =
      StatusQuoPartition(testing::MakeTleaf("2 4 100 4 1"), mesh, o).value();
  const Mapping b =
      StatusQuoPartition(testing::MakeTleaf("2 2 1000 8 1"), mesh, o).value();
  EXPECT_EQ(a, b);
  EXPECT_TRUE(ValidatePartitionMapping(testing::MakeTleaf("2 4 100 4 1"), mesh,
                                       a, o.imbalance)
                  .ok());
}

// With the parts placed (present: part p on leaf present[p], one a slot),
// the status quo is the same partition, its parts moved to their leaves.
TEST(PartitionChoiceTest, StatusQuoPartsWhereTheRanksRun) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 4 1");
  const graphs::CommGraph mesh = testing::MakeGrid2D(16, 16);
  MappingOptions o;
  const Mapping in_order = StatusQuoPartition(t, mesh, o).value();
  o.present = {0, 4, 1, 5, 2, 6, 3, 7};  // ranks dealt over the two nodes
  const Mapping placed = StatusQuoPartition(t, mesh, o).value();
  for (size_t v = 0; v < placed.size(); ++v)
    EXPECT_EQ(placed[v], o.present[in_order[v]]) << v;
  // Every slot once: a leaf given twice is refused.
  o.present = {0, 0, 1, 5, 2, 6, 3, 7};
  EXPECT_NE(StatusQuoPartition(t, mesh, o)
                .status()
                .message()
                .find("2 parts on leaf 0 of capacity 1"),
            std::string::npos);
}

// Where Scotch's partition breaks the bound (a 30 x 24 grid onto 48 parts of
// 15 cells: Scotch leaves some parts at 16), the status quo is Scotch's
// partition with only the excess moved off the parts over the bound.
TEST(PartitionChoiceTest, StatusQuoRepairsScotchOverTheBound) {
  const graphs::CommGraph mesh = testing::MakeGrid2D(30, 24);
  const topology::Tree tree = testing::MakeTleaf("3 2 100 4 10 6 1");
  const MappingOptions o;
  const Mapping scotch =
      ScotchPartitionMap(testing::MakeTleaf("1 48 1"), mesh, o.imbalance,
                         o.seed)
          .value();
  std::vector<int32_t> load(48, 0);
  for (const LeafId l : scotch) ++load[l];
  int32_t excess = 0;  // a part holds at most 15 cells (15 x 1.03 < 16)
  for (const int32_t n : load) excess += std::max(0, n - 15);
  ASSERT_GT(excess, 0) << "Scotch now meets the bound: pick another case";

  const Mapping status_quo = StatusQuoPartition(tree, mesh, o).value();
  EXPECT_TRUE(
      ValidatePartitionMapping(tree, mesh, status_quo, o.imbalance).ok());
  int32_t moved = 0;
  for (size_t v = 0; v < scotch.size(); ++v) {
    if (status_quo[v] == scotch[v]) continue;
    ++moved;
    EXPECT_GT(load[scotch[v]], 15) << "cell " << v << " left a part in bound";
  }
  EXPECT_EQ(moved, excess);
}

}  // namespace
}  // namespace rankmap::core
