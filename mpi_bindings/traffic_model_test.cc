#include "mpi_bindings/traffic_model.h"

#include <cstddef>
#include <tuple>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::mpi_bindings::profile {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// What rank 0 writes at finalize: the rows of every process, fetched traffic
// folded in (as profile.cc does after gathering them).
struct Matrices {
  std::vector<double> bytes, messages;
};

Matrices Gather(const std::vector<TrafficModel>& models) {
  const int n = static_cast<int>(models.size());
  Matrices m;
  std::vector<double> fetched_bytes, fetched_messages;
  for (const TrafficModel& row : models) {
    m.bytes.insert(m.bytes.end(), row.bytes().begin(), row.bytes().end());
    m.messages.insert(m.messages.end(), row.messages().begin(),
                      row.messages().end());
    fetched_bytes.insert(fetched_bytes.end(), row.fetched_bytes().begin(),
                         row.fetched_bytes().end());
    fetched_messages.insert(fetched_messages.end(),
                            row.fetched_messages().begin(),
                            row.fetched_messages().end());
  }
  AddFetched(n, fetched_bytes, m.bytes);
  AddFetched(n, fetched_messages, m.messages);
  return m;
}

// Every member of a communicator with world ranks `world` makes the same
// call in a job of n processes: call(me, send_to) with send_to(j, bytes)
// sending to rank j of the communicator, as profile.cc does.
template <typename Call>
Matrices Collectively(int n, const std::vector<int>& world, Call call) {
  std::vector<TrafficModel> models(n, TrafficModel(n));
  for (int me = 0; me < static_cast<int>(world.size()); ++me) {
    TrafficModel& model = models[world[me]];
    call(me, [&](int j, double bytes) { model.Send(world, j, bytes); });
  }
  return Gather(models);
}

// Every member's share of collective `kind` with block `bytes`.
Matrices EveryMemberCalls(int n, const std::vector<int>& world, Collective kind,
                          int root, double bytes) {
  const int size = static_cast<int>(world.size());
  return Collectively(n, world, [&](int me, auto send_to) {
    ForEachTransfer(kind, size, me, root, bytes, send_to);
  });
}

// An n x n matrix with `entries` (from, to, value) and zeros elsewhere.
std::vector<double> Matrix(
    int n, const std::vector<std::tuple<int, int, double>>& entries) {
  std::vector<double> m(static_cast<size_t>(n) * n, 0.0);
  for (const auto& [from, to, value] : entries) m[from * n + to] += value;
  return m;
}

// A communicator of three of five processes: rank 0 is world 4, 1 is world 1,
// 2 is world 3.
const std::vector<int> kSub = {4, 1, 3};

TEST(TrafficModelTest, SendTranslatesTheDestinationToItsWorldRank) {
  TrafficModel model(5);
  model.Send(kSub, 0, 800);
  model.Send(kSub, 2, 40);
  model.Send(kSub, 2, 0);  // an empty message is still a message
  EXPECT_THAT(model.bytes(), ElementsAre(0, 0, 0, 40, 800));
  EXPECT_THAT(model.messages(), ElementsAre(0, 0, 0, 2, 1));
}

TEST(TrafficModelTest, SendIgnoresDestinationsWithoutAWorldRank) {
  TrafficModel model(5);
  const std::vector<int> with_undefined = {4, -32766};
  model.Send(kSub, -2, 8);                // MPI_PROC_NULL
  model.Send(kSub, 3, 8);                 // beyond the communicator
  model.Send(with_undefined, 1, 8);       // MPI_UNDEFINED in world
  model.Send(std::vector<int>{7}, 0, 8);  // beyond the rows
  EXPECT_THAT(model.bytes(), ElementsAre(0, 0, 0, 0, 0));
  EXPECT_THAT(model.messages(), ElementsAre(0, 0, 0, 0, 0));
}

TEST(TrafficModelTest, SelfSendsLandOnTheDiagonal) {
  TrafficModel model(2);
  model.Send(std::vector<int>{0, 1}, 1, 3);
  EXPECT_THAT(model.bytes(), ElementsAre(0, 3));
}

TEST(TrafficModelTest, BcastAndScatterSendFromTheRoot) {
  for (Collective kind : {Collective::kBcast, Collective::kScatter}) {
    const Matrices m = EveryMemberCalls(5, kSub, kind, /*root=*/1, 8);
    EXPECT_EQ(m.bytes, Matrix(5, {{1, 4, 8}, {1, 3, 8}}));
    EXPECT_EQ(m.messages, Matrix(5, {{1, 4, 1}, {1, 3, 1}}));
  }
}

TEST(TrafficModelTest, ReduceAndGatherSendToTheRoot) {
  for (Collective kind : {Collective::kReduce, Collective::kGather}) {
    const Matrices m = EveryMemberCalls(5, kSub, kind, /*root=*/2, 16);
    EXPECT_EQ(m.bytes, Matrix(5, {{4, 3, 16}, {1, 3, 16}}));
  }
}

TEST(TrafficModelTest, AllreduceReducesToRankZeroThenBroadcasts) {
  // The root argument means nothing to Allreduce.
  const Matrices m = EveryMemberCalls(5, kSub, Collective::kAllreduce, 2, 32);
  EXPECT_EQ(m.bytes,
            Matrix(5, {{1, 4, 32}, {3, 4, 32}, {4, 1, 32}, {4, 3, 32}}));
  EXPECT_EQ(m.messages,
            Matrix(5, {{1, 4, 1}, {3, 4, 1}, {4, 1, 1}, {4, 3, 1}}));
}

TEST(TrafficModelTest, AllToAllKindsSendToEveryOtherRank) {
  const std::vector<double> want = Matrix(
      5, {{4, 1, 4}, {4, 3, 4}, {1, 4, 4}, {1, 3, 4}, {3, 4, 4}, {3, 1, 4}});
  for (Collective kind : {Collective::kAllgather, Collective::kAlltoall,
                          Collective::kReduceScatterBlock}) {
    const Matrices m = EveryMemberCalls(5, kSub, kind, 0, 4);
    EXPECT_EQ(m.bytes, want);
  }
}

TEST(TrafficModelTest, ScanSendsToTheNextRank) {
  const Matrices m = EveryMemberCalls(5, kSub, Collective::kScan, 0, 8);
  EXPECT_EQ(m.bytes, Matrix(5, {{4, 1, 8}, {1, 3, 8}}));
}

TEST(TrafficModelTest, ZeroByteCollectivesStillCountMessages) {
  const Matrices m = EveryMemberCalls(2, {0, 1}, Collective::kAlltoall, 0, 0);
  EXPECT_EQ(m.bytes, Matrix(2, {}));
  EXPECT_EQ(m.messages, Matrix(2, {{0, 1, 1}, {1, 0, 1}}));
}

TEST(TrafficModelTest, PerPeerBlocksSkipSelfAndNegativeBlocks) {
  // Rank j sends (j + k) % 3 - 1 bytes to rank k: -1 means nothing, 0 an
  // empty message.
  std::vector<int> asked;
  const Matrices m = Collectively(5, kSub, [&](int me, auto send_to) {
    ForEachPeer(
        3, me,
        [&](int k) {
          asked.push_back(me * 3 + k);
          return static_cast<double>((me + k) % 3 - 1);
        },
        send_to);
  });
  // Ranks 0, 1, 2 are world 4, 1, 3. Sends: 0 -> 1 (0 bytes), 0 -> 2 (1),
  // 1 -> 0 (0), 2 -> 0 (1); 1 -> 2 and 2 -> 1 are -1.
  EXPECT_EQ(m.bytes, Matrix(5, {{4, 3, 1}, {3, 4, 1}}));
  EXPECT_EQ(m.messages,
            Matrix(5, {{4, 1, 1}, {4, 3, 1}, {1, 4, 1}, {3, 4, 1}}));
  // Nobody's own block is looked at.
  EXPECT_THAT(asked, ElementsAre(1, 2, 3, 5, 6, 7));
}

TEST(TrafficModelTest, OneSidedGetsCountFromTheTarget) {
  // Window group in reverse world order over 3 processes.
  const std::vector<int> win = {2, 1, 0};
  std::vector<TrafficModel> models(3, TrafficModel(3));
  models[2].OneSided(win, 1, /*put=*/20, /*got=*/0);  // world 2 puts into 1
  models[0].OneSided(win, 0, /*put=*/0, /*got=*/24);  // world 0 gets from 2
  models[1].OneSided(win, 2, /*put=*/4, /*got=*/4);   // fetch-and-op on 0
  models[1].OneSided(win, -2, 8, 8);                  // MPI_PROC_NULL
  models[1].OneSided(win, 0, 0, 0);                   // nothing moves
  const Matrices m = Gather(models);
  EXPECT_EQ(m.bytes, Matrix(3, {{2, 1, 20}, {2, 0, 24}, {1, 0, 4}, {0, 1, 4}}));
  EXPECT_EQ(m.messages,
            Matrix(3, {{2, 1, 1}, {2, 0, 1}, {1, 0, 1}, {0, 1, 1}}));
}

TEST(TrafficModelTest, AddFetchedTransposesIntoTheSentMatrix) {
  std::vector<double> sent = {0, 1, 2, 0};
  const std::vector<double> fetched = {0, 10, 0, 0};  // 0 fetched 10 from 1
  AddFetched(2, fetched, sent);
  EXPECT_THAT(sent, ElementsAreArray({0, 1, 12, 0}));
}

TEST(TrafficModelTest, MoveIntoAddsAndClears) {
  TrafficModel pending(5), counted(5);
  counted.Send(kSub, 0, 1);         // world 4
  pending.Send(kSub, 0, 10);        // world 4
  pending.Send(kSub, 2, 20);        // world 3
  pending.OneSided(kSub, 1, 0, 7);  // fetched from world 1
  pending.MoveInto(&counted);
  EXPECT_THAT(counted.bytes(), ElementsAre(0, 0, 0, 20, 11));
  EXPECT_THAT(counted.messages(), ElementsAre(0, 0, 0, 1, 2));
  EXPECT_THAT(counted.fetched_bytes(), ElementsAre(0, 7, 0, 0, 0));
  EXPECT_THAT(pending.bytes(), ElementsAre(0, 0, 0, 0, 0));
  EXPECT_THAT(pending.fetched_messages(), ElementsAre(0, 0, 0, 0, 0));
  // Cleared traffic is gone; the model records again from zero.
  pending.Send(kSub, 1, 5);
  pending.Clear();
  pending.Send(kSub, 1, 6);
  pending.MoveInto(&counted);
  EXPECT_THAT(counted.bytes(), ElementsAre(0, 6, 0, 20, 11));
}

TEST(TrafficModelTest, EmptyModelHasNoRows) {
  TrafficModel model;
  EXPECT_EQ(model.world_size(), 0);
  model.Send(kSub, 0, 8);
  EXPECT_TRUE(model.bytes().empty());
}

}  // namespace
}  // namespace rankmap::mpi_bindings::profile
