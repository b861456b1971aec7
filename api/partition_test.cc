#include "api/partition.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/file.h"
#include "base/temp_dir.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

namespace rankmap::api {
namespace {

// Two switches of two hosts of four cores, with links.
topology::Tree TwoSwitches() {
  return topology::ParseTleaf("tleaf 3 2 1GBps:5us 2 10GBps:1us 4 40GBps:0.2us")
      .value();
}

TEST(PartitionTest, OutcomeOfAMesh) {
  const topology::Tree t = TwoSwitches();
  const graphs::CommGraph mesh = testing::Permute(
      testing::MakeGrid2D(24, 20), testing::RandomPermutation(480, 5));
  core::MappingOptions o;
  o.exchange = {.bytes_per_unit = 40,
                .messages_per_pair = 1,
                .source = core::ExchangeModel::Source::kGiven};
  const PartitionOutcome out = Partition(t, mesh, o).value();
  // Every vertex on one leaf, 30 on each (480 / 16, within 3%).
  ASSERT_EQ(out.mapping.size(), 480u);
  std::vector<int> count(t.num_leaves(), 0);
  for (core::LeafId l : out.mapping) {
    ASSERT_GE(l, 0);
    ASSERT_LT(l, t.num_leaves());
    ++count[l];
  }
  int most = 0;
  for (int c : count) most = std::max(most, c);
  EXPECT_DOUBLE_EQ(out.imbalance, most / 30.0 - 1.0);
  EXPECT_LE(out.imbalance, o.imbalance + 1e-12);
  // The checked cost is J, recomputed pair by pair.
  EXPECT_DOUBLE_EQ(out.cost.j, testing::PairwiseJ(t, mesh, out.mapping));
  EXPECT_TRUE(out.choice.weighed);
  EXPECT_EQ(out.choice.objective, "time");
  EXPECT_LE(out.choice.chosen.seconds, out.choice.status_quo.seconds);
  EXPECT_NE(out.choice.model.find("(given)"), std::string::npos);
}

// No more vertices than slots: one vertex a slot, nothing to weigh.
TEST(PartitionTest, SmallGraphIsOneToOne) {
  const PartitionOutcome out =
      Partition(TwoSwitches(), testing::MakeGrid2D(2, 4), {}).value();
  EXPECT_FALSE(out.choice.weighed);
  EXPECT_EQ(std::set<int>(out.mapping.begin(), out.mapping.end()).size(), 8u);
}

// A path of eight vertices, ranks 0 and 1 owning four each (cut 1: edge
// 3-4); a third rank shares no edge with them. Profile: ranks 0 and 1 send
// 400 B in 10 messages each way; rank 2 sends rank 0 100 B in 1 message (a
// collective).
graphs::CommGraph Path() {
  graphs::CommGraphBuilder b(8);
  for (int v = 0; v + 1 < 8; ++v) EXPECT_TRUE(b.AddEdge(v, v + 1, 1).ok());
  return std::move(b).Build().value();
}

graphs::CommGraph Profile() {
  graphs::CommGraphBuilder b(3);
  EXPECT_TRUE(b.AddTraffic(0, 1, 400, 10).ok());
  EXPECT_TRUE(b.AddTraffic(1, 0, 400, 10).ok());
  EXPECT_TRUE(b.AddTraffic(2, 0, 100, 1).ok());
  return std::move(b).Build().value();
}

TEST(PartitionTest, FitByHand) {
  const std::vector<int32_t> part = {0, 0, 0, 0, 1, 1, 1, 1};
  const core::ExchangeModel m =
      FitExchangeModel(Path(), part, Profile(), "run.mat").value();
  // 800 B over both directions of one unit of cut; 20 messages of one pair.
  EXPECT_DOUBLE_EQ(m.bytes_per_unit, 400);
  EXPECT_DOUBLE_EQ(m.messages_per_pair, 10);
  EXPECT_EQ(m.source, core::ExchangeModel::Source::kFitted);
  EXPECT_EQ(m.origin,
            "run.mat, 1 neighbouring pairs, 88.9% of its bytes between them");
  // Ten exchanges in the profile: per exchange.
  const core::ExchangeModel ten =
      FitExchangeModel(Path(), part, Profile(), "run.mat", 10).value();
  EXPECT_DOUBLE_EQ(ten.bytes_per_unit, 40);
  EXPECT_DOUBLE_EQ(ten.messages_per_pair, 1);
}

TEST(PartitionTest, FitErrors) {
  const std::vector<int32_t> part = {0, 0, 0, 0, 1, 1, 1, 1};
  // A part the profile has no rank for.
  const std::vector<int32_t> far = {0, 0, 0, 0, 3, 3, 3, 3};
  EXPECT_EQ(FitExchangeModel(Path(), far, Profile()).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Wrong size.
  const std::vector<int32_t> two = {0, 1};
  EXPECT_FALSE(FitExchangeModel(Path(), two, Profile()).ok());
  // No cut.
  const std::vector<int32_t> one(8, 0);
  EXPECT_FALSE(FitExchangeModel(Path(), one, Profile()).ok());
  // No counts.
  graphs::CommGraphBuilder b(2);
  ASSERT_TRUE(b.AddEdge(0, 1, 5).ok());
  const absl::Status s =
      FitExchangeModel(Path(), part, std::move(b).Build().value()).status();
  EXPECT_NE(s.message().find("no message counts"), std::string::npos);
  EXPECT_FALSE(FitExchangeModel(Path(), part, Profile(), "", 0).ok());
}

TEST(PartitionTest, FitFromFiles) {
  const base::TempDir dir = base::TempDir::Create("partition_test").value();
  const std::string mat = dir.path() + "/run.mat";
  ASSERT_TRUE(base::WriteFile(mat, "0 400 0\n400 0 0\n100 0 0\n").ok());
  ASSERT_TRUE(
      base::WriteFile(dir.path() + "/run.msgs.mat", "0 10 0\n10 0 0\n1 0 0\n")
          .ok());
  const std::string part = dir.path() + "/run.part";
  ASSERT_TRUE(base::WriteFile(part, "0\n0\n0\n0\n1\n1\n1\n1\n").ok());
  const core::ExchangeModel m =
      FitExchangeModelFromFiles(Path(), mat, part).value();
  EXPECT_DOUBLE_EQ(m.bytes_per_unit, 400);
  EXPECT_DOUBLE_EQ(m.messages_per_pair, 10);
  EXPECT_NE(m.origin.find("run.msgs.mat"), std::string::npos);
  // A partition file of the wrong length names the file.
  ASSERT_TRUE(base::WriteFile(part, "0\n1\n").ok());
  const absl::Status s = FitExchangeModelFromFiles(Path(), mat, part).status();
  EXPECT_NE(s.message().find("run.part"), std::string::npos);
}

}  // namespace
}  // namespace rankmap::api

namespace rankmap::api {
namespace {

TEST(PartitionTest, ExchangeModelByName) {
  const graphs::CommGraph g = Path();
  core::ExchangeModel m = ExchangeModelByName("", "", g, "-x", "-p").value();
  EXPECT_EQ(m.source, core::ExchangeModel::Source::kDefault);
  m = ExchangeModelByName("40,2.5", "", g, "-x", "-p").value();
  EXPECT_EQ(m.bytes_per_unit, 40);
  EXPECT_EQ(m.messages_per_pair, 2.5);
  EXPECT_EQ(m.source, core::ExchangeModel::Source::kGiven);
  for (const char* bad : {"40", "40,x", "-1,1", "1,inf", "1,2,3"}) {
    const absl::Status s = ExchangeModelByName(bad, "", g, "-x", "-p").status();
    EXPECT_NE(s.message().find("-x '"), std::string::npos) << bad;
  }
  EXPECT_NE(ExchangeModelByName("1,1", "a,b", g, "-x", "-p")
                .status()
                .message()
                .find("give one of them"),
            std::string::npos);
  EXPECT_NE(ExchangeModelByName("", "a.mat,b,0", g, "-x", "-p")
                .status()
                .message()
                .find("K >= 1"),
            std::string::npos);
}

// Eight ranks on four leaves, two a leaf: each rank's vertices lie on its
// leaf, the leaf's share split between its two ranks.
TEST(PartitionTest, OntoRanksSharingLeaves) {
  const topology::Tree t =
      topology::Oversubscribe(topology::ParseTleaf("tleaf 2 2 10 2 1").value(),
                              2)
          .value();
  const std::vector<int32_t> slot_of_rank = {0, 0, 1, 1, 2, 2, 3, 3};
  const graphs::CommGraph mesh = testing::MakeGrid2D(16, 16);
  PartitionOutcome out;
  const std::vector<int32_t> part =
      PartitionOntoRanks(t, slot_of_rank, mesh, {}, &out).value();
  ASSERT_EQ(part.size(), 256u);
  std::vector<int> count(8, 0);
  for (graphs::VertexId v = 0; v < 256; ++v) {
    ASSERT_GE(part[v], 0);
    ASSERT_LT(part[v], 8);
    EXPECT_EQ(slot_of_rank[part[v]], out.mapping[v]) << v;
    ++count[part[v]];
  }
  for (int c : count) EXPECT_NEAR(c, 32, 2);
  // Capacities that do not match the ranks.
  const std::vector<int32_t> three = {0, 0, 0, 1, 2, 2, 3, 3};
  EXPECT_FALSE(PartitionOntoRanks(t, three, mesh, {}).ok());
}

TEST(PartitionTest, MemoryCheckNamesTheCounts) {
  core::MappingOptions o;
  o.max_memory_bytes = 1 << 20;
  const absl::Status s = CheckPartitionMemory(
      topology::ParseTleaf("tleaf 1 4 1").value(), 1000000, 6000000, o);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("1000000 vertices"), std::string::npos);
  EXPECT_TRUE(CheckPartitionMemory(topology::ParseTleaf("tleaf 1 4 1").value(),
                                   100, 600, o)
                  .ok());
}

}  // namespace
}  // namespace rankmap::api
