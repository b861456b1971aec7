#include "mpi_bindings/collective_model.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mpi_bindings/collective_patterns.h"
#include "mpi_bindings/mpich_collectives.h"
#include "mpi_bindings/openmpi_collectives.h"

namespace rankmap::mpi_bindings::profile {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

// Sends of every rank of one call: (from, to) -> {bytes, messages}.
using Traffic = std::map<std::pair<int, int>, std::pair<double, int>>;

Traffic RunAll(CollectiveModel model, CollectiveCall call,
               std::vector<int64_t> counts = {}) {
  Traffic t;
  call.counts = counts;
  for (int me = 0; me < call.size; ++me) {
    ForEachCollectiveSend(model, call, me, [&](int peer, double bytes) {
      auto& e = t[{me, peer}];
      e.first += bytes;
      e.second += 1;
    });
  }
  return t;
}

// The sends of one rank: (peer, bytes) in order.
std::vector<std::pair<int, double>> SendsOf(CollectiveModel model,
                                            const CollectiveCall& call,
                                            int me) {
  std::vector<std::pair<int, double>> out;
  ForEachCollectiveSend(model, call, me, [&](int peer, double bytes) {
    out.emplace_back(peer, bytes);
  });
  return out;
}

// Bytes each rank receives.
std::vector<double> Received(const Traffic& t, int size) {
  std::vector<double> in(size, 0.0);
  for (const auto& [ft, e] : t) in[ft.second] += e.first;
  return in;
}

CollectiveCall Call(Collective kind, int size, int64_t count,
                    int64_t type_size = 1, int root = 0) {
  CollectiveCall c;
  c.kind = kind;
  c.size = size;
  c.root = root;
  c.count = count;
  c.type_size = type_size;
  return c;
}

// ---- Trees (hand-drawn in collective_patterns.h and Open MPI's topo.c).

TEST(PatternsTest, BinomialTreesAreMirrorImages) {
  using patterns::InOrderBinomialTree;
  using patterns::OpenMpiBinomialTree;
  // In order (MPICH, Open MPI's reduce/gather): parent drops the lowest bit.
  EXPECT_THAT(InOrderBinomialTree(8, 0, 0).Children(), ElementsAre(1, 2, 4));
  EXPECT_EQ(InOrderBinomialTree(8, 0, 4).parent, 0);
  EXPECT_THAT(InOrderBinomialTree(8, 0, 4).Children(), ElementsAre(5, 6));
  EXPECT_EQ(InOrderBinomialTree(8, 0, 7).parent, 6);
  // Open MPI's broadcast tree: parent drops the highest bit.
  EXPECT_THAT(OpenMpiBinomialTree(8, 0, 1).Children(), ElementsAre(3, 5));
  EXPECT_EQ(OpenMpiBinomialTree(8, 0, 7).parent, 3);
  EXPECT_EQ(OpenMpiBinomialTree(8, 0, 0).parent, -1);
  // Rooted elsewhere: ranks shift by the root.
  EXPECT_EQ(InOrderBinomialTree(6, 2, 1).parent, 0);  // virtual 5 -> 4
}

TEST(PatternsTest, KnomialAndKAryTreesMatchOpenMpisPictures) {
  // coll_base_topo.c, comm_size 10, radix 4: 0 -> 4 8 1 2 3, 4 -> 5 6 7.
  EXPECT_THAT(patterns::KnomialTree(4, 10, 0, 0).Children(),
              ElementsAre(4, 8, 1, 2, 3));
  EXPECT_THAT(patterns::KnomialTree(4, 10, 0, 4).Children(),
              ElementsAre(5, 6, 7));
  EXPECT_EQ(patterns::KnomialTree(4, 10, 0, 9).parent, 8);
  // Binary tree of 7: 0 -> 1 2, 1 -> 3 5, 2 -> 4 6.
  EXPECT_THAT(patterns::KAryTree(2, 7, 0, 1).Children(), ElementsAre(3, 5));
  EXPECT_EQ(patterns::KAryTree(2, 7, 0, 6).parent, 2);
  EXPECT_EQ(patterns::KAryTree(2, 7, 0, 0).parent, -1);
  // In-order binary tree of 9 rooted at 8: 8 -> 7 3, 7 -> 6 5, 3 -> 2 1,
  // 6 -> 4, 1 -> 0.
  EXPECT_THAT(patterns::InOrderBinaryTree(9, 8).Children(), ElementsAre(7, 3));
  EXPECT_THAT(patterns::InOrderBinaryTree(9, 7).Children(), ElementsAre(6, 5));
  EXPECT_THAT(patterns::InOrderBinaryTree(9, 3).Children(), ElementsAre(2, 1));
  EXPECT_EQ(patterns::InOrderBinaryTree(9, 4).parent, 5);
  EXPECT_EQ(patterns::InOrderBinaryTree(9, 0).parent, 1);
  EXPECT_THAT(patterns::ChainTree(4, 2, 2).Children(), ElementsAre(3));
  EXPECT_EQ(patterns::ChainTree(4, 2, 1).parent, 0);
}

// ---- Recursive doubling, by hand.

TEST(CollectiveModelTest, RecursiveDoublingOnEightRanksIsAButterfly) {
  const CollectiveCall c = Call(Collective::kAllreduce, 8, 4, 8);  // 32 B
  // Open MPI 4.1: 8 ranks, 32 bytes -> recursive doubling (algorithm 3).
  EXPECT_EQ(internal::OpenMpiAlgorithm(c), 3);
  EXPECT_THAT(SendsOf(CollectiveModel::kOpenMpi, c, 5),
              ElementsAre(Pair(4, 32), Pair(7, 32), Pair(1, 32)));
  const Traffic t = RunAll(CollectiveModel::kOpenMpi, c);
  EXPECT_EQ(t.size(), 24u);  // 8 ranks x 3 partners, one message each
  for (const auto& [ft, e] : t) {
    EXPECT_EQ(e, std::make_pair(32.0, 1)) << ft.first << "->" << ft.second;
    const int d = ft.first ^ ft.second;
    EXPECT_TRUE(d == 1 || d == 2 || d == 4);
  }
}

TEST(CollectiveModelTest, RecursiveDoublingFoldsTheFirstRanksOnSix) {
  // 6 = 4 + 2: ranks 0 and 2 fold into 1 and 3, the four left (1 3 4 5)
  // exchange, then 1 and 3 unfold to 0 and 2.
  const CollectiveCall c = Call(Collective::kAllreduce, 6, 4, 8);
  EXPECT_THAT(SendsOf(CollectiveModel::kOpenMpi, c, 0),
              ElementsAre(Pair(1, 32)));
  EXPECT_THAT(SendsOf(CollectiveModel::kOpenMpi, c, 1),
              ElementsAre(Pair(3, 32), Pair(4, 32), Pair(0, 32)));
  EXPECT_THAT(SendsOf(CollectiveModel::kOpenMpi, c, 3),
              ElementsAre(Pair(1, 32), Pair(5, 32), Pair(2, 32)));
  EXPECT_THAT(SendsOf(CollectiveModel::kOpenMpi, c, 5),
              ElementsAre(Pair(4, 32), Pair(3, 32)));
  // MPICH picks recursive doubling for 8 bytes and runs the same fold.
  const CollectiveCall one = Call(Collective::kAllreduce, 6, 1, 8);
  EXPECT_THAT(SendsOf(CollectiveModel::kMpich, one, 4),
              ElementsAre(Pair(5, 8), Pair(1, 8)));
}

// ---- Open MPI's rules and algorithms on cases checked against a real run
// (profile_collectives_test.sh covers them message for message).

TEST(OpenMpiTest, FixedRulesPickByCommunicatorAndMessageSize) {
  EXPECT_EQ(internal::OpenMpiAlgorithm(Call(Collective::kBcast, 8, 100)), 7);
  EXPECT_EQ(internal::OpenMpiAlgorithm(Call(Collective::kBcast, 4, 1)), 5);
  EXPECT_EQ(internal::OpenMpiAlgorithm(Call(Collective::kBcast, 3, 1)), 3);
  EXPECT_EQ(internal::OpenMpiAlgorithm(Call(Collective::kReduce, 2, 7)), 7);
  EXPECT_EQ(internal::OpenMpiAlgorithm(Call(Collective::kAlltoall, 3, 8192)),
            1);
  EXPECT_EQ(internal::OpenMpiAlgorithm(Call(Collective::kBarrier, 6, 0)), 1);
  CollectiveCall nc = Call(Collective::kAllreduce, 3, 200000);
  nc.commutative = false;
  EXPECT_EQ(internal::OpenMpiAlgorithm(nc), 1);
}

TEST(OpenMpiTest, KnomialBroadcastOfEightRanks) {
  const Traffic t =
      RunAll(CollectiveModel::kOpenMpi, Call(Collective::kBcast, 8, 100));
  Traffic want;
  for (int c : {1, 2, 3, 4}) want[{0, c}] = {100, 1};
  for (int c : {5, 6, 7}) want[{4, c}] = {100, 1};
  EXPECT_EQ(t, want);
}

TEST(OpenMpiTest, RabenseifnerReduceOnThreeRanks) {
  // 7 bytes on 3 ranks (algorithm 7): ranks 0 and 1 fold (1 sends 3 + 4
  // bytes, 0 sends its right half, 4, to 1), 0 and 2 halve (4 and 3 bytes),
  // 2 hands its half to the root (4).
  const Traffic t =
      RunAll(CollectiveModel::kOpenMpi, Call(Collective::kReduce, 3, 7));
  Traffic want;
  want[{0, 1}] = {4, 1};
  want[{0, 2}] = {4, 1};
  want[{1, 0}] = {7, 2};
  want[{2, 0}] = {7, 2};
  EXPECT_EQ(t, want);
}

TEST(OpenMpiTest, ZeroCountsSendNothingButBarriersDo) {
  for (Collective k :
       {Collective::kBcast, Collective::kReduce, Collective::kAllreduce,
        Collective::kAllgather, Collective::kAlltoall, Collective::kGather,
        Collective::kScatter, Collective::kScan}) {
    EXPECT_THAT(RunAll(CollectiveModel::kOpenMpi, Call(k, 5, 0, 4)), IsEmpty());
  }
  const Traffic barrier =
      RunAll(CollectiveModel::kOpenMpi, Call(Collective::kBarrier, 5, 0));
  EXPECT_FALSE(barrier.empty());
  for (const auto& [ft, e] : barrier) EXPECT_EQ(e.first, 0);
}

TEST(OpenMpiTest, PairwiseAlltoallSkipsItsOwnBlock) {
  // 2 ranks, 1 byte: pairwise (algorithm 2); the block to itself is a copy.
  const Traffic t =
      RunAll(CollectiveModel::kOpenMpi, Call(Collective::kAlltoall, 2, 1));
  Traffic want;
  want[{0, 1}] = {1, 1};
  want[{1, 0}] = {1, 1};
  EXPECT_EQ(t, want);
}

// ---- Open MPI's non-blocking collectives (libnbc), by hand and from real
// runs under Open MPI 4.1.4's monitoring.

CollectiveCall Nonblocking(CollectiveCall c) {
  c.nonblocking = true;
  return c;
}

TEST(LibnbcTest, BinomialBroadcastSwapsRootAndRankZero) {
  // 8 ranks, root 3: rank 3 is virtual rank 0 and rank 0 virtual rank 3.
  // Virtual 0 sends to 1, 2, 4; virtual 1 to 3 (rank 0) and 5; virtual 2 to
  // 6; virtual 3 (rank 0) to 7.
  const Traffic t = RunAll(
      CollectiveModel::kOpenMpi,
      Nonblocking(Call(Collective::kBcast, 8, 1, /*type_size=*/8, /*root=*/3)));
  Traffic want;
  for (int c : {1, 2, 4}) want[{3, c}] = {8, 1};
  want[{1, 0}] = {8, 1};
  want[{1, 5}] = {8, 1};
  want[{2, 6}] = {8, 1};
  want[{0, 7}] = {8, 1};
  EXPECT_EQ(t, want);
  // Up to 4 ranks the root sends to everyone.
  EXPECT_EQ(RunAll(CollectiveModel::kOpenMpi,
                   Nonblocking(Call(Collective::kBcast, 4, 1, 8, 3))),
            (Traffic{{{3, 0}, {8, 1}}, {{3, 1}, {8, 1}}, {{3, 2}, {8, 1}}}));
}

TEST(LibnbcTest, SmallAllreduceIsBinomialReduceThenBroadcast) {
  // 6 ranks, one double: up to 0 along v - lowbit(v), down along
  // v + 2^k for 2^k > v.
  const Traffic t =
      RunAll(CollectiveModel::kOpenMpi,
             Nonblocking(Call(Collective::kAllreduce, 6, 1, /*type_size=*/8)));
  Traffic want;
  for (auto [from, to] : std::vector<std::pair<int, int>>{{1, 0},
                                                          {2, 0},
                                                          {3, 2},
                                                          {4, 0},
                                                          {5, 4},  // reduce
                                                          {0, 1},
                                                          {0, 2},
                                                          {0, 4},
                                                          {1, 3},
                                                          {1, 5}})  // broadcast
  {
    want[{from, to}] = {8, 1};
  }
  EXPECT_EQ(t, want);
}

TEST(LibnbcTest, ReduceOnThreeRanksAsMonitoringSawIt) {
  // 100 chars on 3 ranks: Rabenseifner's (count >= 2): 0 and 1 fold (1
  // sends both halves), 0 and 2 swap halves, 2 returns its half.
  const Traffic t = RunAll(CollectiveModel::kOpenMpi,
                           Nonblocking(Call(Collective::kReduce, 3, 100)));
  Traffic want;
  want[{0, 1}] = {50, 1};
  want[{0, 2}] = {50, 1};
  want[{1, 0}] = {100, 2};
  want[{2, 0}] = {100, 2};
  EXPECT_EQ(t, want);
}

TEST(LibnbcTest, ReduceScatterBlockReducesToZeroThenScatters) {
  // 5 chars a block on 3 ranks (as monitoring saw it): the 15-char vector
  // up the binomial tree to 0, then 5 to each of the others.
  const Traffic t =
      RunAll(CollectiveModel::kOpenMpi,
             Nonblocking(Call(Collective::kReduceScatterBlock, 3, 5)));
  EXPECT_EQ(t, (Traffic{{{1, 0}, {15, 1}},
                        {{2, 0}, {15, 1}},
                        {{0, 1}, {5, 1}},
                        {{0, 2}, {5, 1}}}));
}

TEST(LibnbcTest, EmptyMessagesAreSentExceptAlltoallvBlocks) {
  // A zero-count Iallgather still sends one message to every other rank.
  const Traffic gather =
      RunAll(CollectiveModel::kOpenMpi,
             Nonblocking(Call(Collective::kAllgather, 3, 0)));
  EXPECT_EQ(gather.size(), 6u);
  for (const auto& [ft, e] : gather) EXPECT_EQ(e, std::make_pair(0.0, 1));
  // Ialltoallv skips empty blocks; an empty Ibcast or Iallreduce sends
  // nothing.
  EXPECT_EQ(RunAll(CollectiveModel::kOpenMpi,
                   Nonblocking(Call(Collective::kAlltoallv, 2, 0)), {0, 0}),
            Traffic{});
  EXPECT_EQ(RunAll(CollectiveModel::kOpenMpi,
                   Nonblocking(Call(Collective::kAlltoallv, 3, 0)), {4, 0, 2})
                .size(),
            4u);  // each rank: to 0 (4) and 2 (2), not to 1, not itself
  EXPECT_THAT(RunAll(CollectiveModel::kOpenMpi,
                     Nonblocking(Call(Collective::kBcast, 6, 0))),
              IsEmpty());
  EXPECT_THAT(RunAll(CollectiveModel::kOpenMpi,
                     Nonblocking(Call(Collective::kAllreduce, 6, 0))),
              IsEmpty());
}

TEST(LibnbcTest, DisseminationBarrier) {
  const Traffic t = RunAll(CollectiveModel::kOpenMpi,
                           Nonblocking(Call(Collective::kBarrier, 4, 0)));
  Traffic want;
  for (int i = 0; i < 4; ++i) {
    want[{i, (i + 1) % 4}] = {0, 1};
    want[{i, (i + 2) % 4}] = {0, 1};
  }
  EXPECT_EQ(t, want);
}

TEST(LibnbcTest, BroadcastsAndAllreducesDeliverTheBuffer) {
  // Every libnbc broadcast is a tree: each rank receives the buffer once.
  // Every allreduce leaves each rank with a share of the vector: it receives
  // at least its 1 / p of it.
  for (int p = 2; p <= 40; p += (p < 12 ? 1 : 7)) {
    for (int64_t n : {1, 7, 3000, 100000}) {
      for (int root : {0, p / 2}) {
        const std::vector<double> in = Received(
            RunAll(CollectiveModel::kOpenMpi,
                   Nonblocking(Call(Collective::kBcast, p, n, 1, root))),
            p);
        for (int r = 0; r < p; ++r) {
          EXPECT_EQ(in[r], r == root ? 0 : n) << p << " " << n << " " << root;
        }
      }
      const std::vector<double> in =
          Received(RunAll(CollectiveModel::kOpenMpi,
                          Nonblocking(Call(Collective::kAllreduce, p, n))),
                   p);
      for (int r = 0; r < p; ++r) EXPECT_GE(in[r] * p, n) << p << " " << n;
    }
  }
}

// ---- Properties over sizes and algorithms.

TEST(CollectiveModelTest, EveryBroadcastDeliversTheBuffer) {
  // Trees (small messages, and every size of the star) deliver the buffer
  // exactly once to each rank; scatter + allgather broadcasts (large
  // messages) deliver a subtree's blocks on the way and send the root its own
  // blocks back in the allgather, so there every rank receives at least the
  // buffer.
  for (CollectiveModel m : {CollectiveModel::kOpenMpi, CollectiveModel::kMpich,
                            CollectiveModel::kStar}) {
    for (int p = 2; p <= 40; p += (p < 12 ? 1 : 7)) {
      for (int64_t n : {1, 7, 100, 3000, 20000, 300000, 2000000}) {
        for (int root : {0, p / 2}) {
          const std::vector<double> in =
              Received(RunAll(m, Call(Collective::kBcast, p, n, 1, root)), p);
          const bool tree = n <= 3000 || m == CollectiveModel::kStar;
          for (int r = 0; r < p; ++r) {
            const std::string what =
                absl::StrCat(std::string(CollectiveModelName(m)), " p ", p,
                             " n ", n, " root ", root, " rank ", r);
            if (tree) {
              EXPECT_EQ(in[r], r == root ? 0 : n) << what;
            } else if (r != root) {
              EXPECT_GE(in[r], n) << what;
            }
          }
        }
      }
    }
  }
}

TEST(CollectiveModelTest, EveryAllgatherDeliversEachOtherBlockOnce) {
  for (CollectiveModel m : {CollectiveModel::kOpenMpi, CollectiveModel::kMpich,
                            CollectiveModel::kStar}) {
    for (int p = 2; p <= 36; p += (p < 10 ? 1 : 13)) {
      for (int64_t n : {1, 100, 5000, 200000}) {
        const std::vector<double> in =
            Received(RunAll(m, Call(Collective::kAllgather, p, n)), p);
        for (int r = 0; r < p; ++r) {
          EXPECT_EQ(in[r], static_cast<double>((p - 1) * n))
              << CollectiveModelName(m) << " p " << p << " n " << n;
        }
      }
    }
  }
}

TEST(CollectiveModelTest, GathersMoveEachBlockTowardsTheRoot) {
  // Every non-root hands on what it received plus its own block; the root
  // ends with all the others.
  for (CollectiveModel m : {CollectiveModel::kOpenMpi, CollectiveModel::kMpich,
                            CollectiveModel::kStar}) {
    for (int p = 2; p <= 20; ++p) {
      for (int64_t n : {1, 3000, 70000}) {
        const Traffic t = RunAll(m, Call(Collective::kGather, p, n, 1, 1 % p));
        std::vector<double> out(p, 0.0), in(p, 0.0);
        for (const auto& [ft, e] : t) {
          out[ft.first] += e.first;
          in[ft.second] += e.first;
        }
        for (int r = 0; r < p; ++r) {
          EXPECT_EQ(out[r] - in[r], r == 1 % p ? -(p - 1) * n : n)
              << CollectiveModelName(m) << " p " << p << " n " << n;
        }
      }
    }
  }
}

TEST(CollectiveModelTest, PeersStayInTheCommunicator) {
  std::vector<int64_t> counts;
  for (CollectiveModel m :
       {CollectiveModel::kOpenMpi, CollectiveModel::kMpich}) {
    for (Collective k :
         {Collective::kBcast, Collective::kReduce, Collective::kAllreduce,
          Collective::kAllgather, Collective::kAlltoall, Collective::kGather,
          Collective::kScatter, Collective::kReduceScatterBlock,
          Collective::kScan, Collective::kExscan, Collective::kBarrier,
          Collective::kAllgatherv, Collective::kAlltoallv,
          Collective::kReduceScatter}) {
      for (int p : {2, 3, 5, 8, 13, 64, 100}) {
        counts.assign(p, 0);
        for (int j = 0; j < p; ++j) counts[j] = (j * 7) % 5;
        for (int64_t n : {1, 1000, 300000}) {
          CollectiveCall c = Call(k, p, n, 4, p - 1);
          c.counts = counts;
          for (int me = 0; me < p; ++me) {
            ForEachCollectiveSend(m, c, me, [&](int peer, double bytes) {
              ASSERT_GE(peer, 0);
              ASSERT_LT(peer, p);
              ASSERT_GE(bytes, 0);
            });
          }
        }
      }
    }
  }
}

// ---- MPICH, by hand.

TEST(MpichTest, SmallBroadcastIsTheInOrderBinomialTree) {
  const Traffic t =
      RunAll(CollectiveModel::kMpich, Call(Collective::kBcast, 8, 100));
  Traffic want;
  for (auto [from, to] : std::vector<std::pair<int, int>>{
           {0, 1}, {0, 2}, {0, 4}, {2, 3}, {4, 5}, {4, 6}, {6, 7}}) {
    want[{from, to}] = {100, 1};
  }
  EXPECT_EQ(t, want);
}

TEST(MpichTest, BruckAllgatherOnSixRanks) {
  // 6 ranks, 10 bytes each (60 in all, below 80 KiB): Bruck, 1, 2, then the
  // remaining 2 blocks to rank - 1, - 2, - 4.
  EXPECT_THAT(
      SendsOf(CollectiveModel::kMpich, Call(Collective::kAllgather, 6, 10), 0),
      ElementsAre(Pair(5, 10), Pair(4, 20), Pair(2, 20)));
}

TEST(MpichTest, DisseminationBarrier) {
  EXPECT_THAT(
      SendsOf(CollectiveModel::kMpich, Call(Collective::kBarrier, 6, 0), 5),
      ElementsAre(Pair(0, 0), Pair(1, 0), Pair(3, 0)));
}

TEST(MpichTest, RabenseifnerAllreduceHalvesThenDoubles) {
  // 4 ranks, 8 doubles (64 bytes, above 8): reduce-scatter then allgather,
  // 2 and then 1 block of 2 doubles... each rank: 32 B to rank ^ 1, 16 B to
  // rank ^ 2, then 16 B back to rank ^ 2 and 32 B to rank ^ 1.
  const CollectiveCall c = Call(Collective::kAllreduce, 4, 8, 8);
  EXPECT_THAT(SendsOf(CollectiveModel::kMpich, c, 0),
              ElementsAre(Pair(1, 32), Pair(2, 16), Pair(2, 16), Pair(1, 32)));
}

// ---- The star model is the first model, unchanged.

TEST(StarTest, AllreduceGoesThroughRankZero) {
  const Traffic t =
      RunAll(CollectiveModel::kStar, Call(Collective::kAllreduce, 3, 2, 8));
  Traffic want;
  want[{1, 0}] = want[{2, 0}] = want[{0, 1}] = want[{0, 2}] = {16, 1};
  EXPECT_EQ(t, want);
  EXPECT_THAT(RunAll(CollectiveModel::kStar, Call(Collective::kBarrier, 4, 0)),
              IsEmpty());
}

TEST(StarTest, VariableBlocks) {
  CollectiveCall c = Call(Collective::kAlltoallv, 3, 0, 2);
  const Traffic t = RunAll(CollectiveModel::kStar, c, {5, 0, 7});
  // Every rank sends counts[j] x 2 bytes to every other j (empty included).
  EXPECT_EQ(t.at({0, 1}), std::make_pair(0.0, 1));
  EXPECT_EQ(t.at({1, 2}), std::make_pair(14.0, 1));
  EXPECT_EQ(t.size(), 6u);
}

TEST(CollectiveModelTest, ParsesTheEnvironmentSetting) {
  EXPECT_EQ(*ParseCollectiveModel("", CollectiveModel::kMpich),
            CollectiveModel::kMpich);
  EXPECT_EQ(*ParseCollectiveModel("library", CollectiveModel::kOpenMpi),
            CollectiveModel::kOpenMpi);
  EXPECT_EQ(*ParseCollectiveModel("star", CollectiveModel::kOpenMpi),
            CollectiveModel::kStar);
  EXPECT_EQ(ParseCollectiveModel("tree", CollectiveModel::kOpenMpi)
                .status()
                .message(),
            "RANKMAP_PROFILE_COLLECTIVES='tree': expected 'library' or 'star'");
}

TEST(CollectiveModelTest, OutOfRangeCallsSendNothing) {
  CollectiveCall c = Call(Collective::kBcast, 4, 10, 1, /*root=*/4);
  EXPECT_THAT(RunAll(CollectiveModel::kOpenMpi, c), IsEmpty());
  c = Call(Collective::kAllgatherv, 4, 0);
  EXPECT_THAT(RunAll(CollectiveModel::kMpich, c, {1, 2}), IsEmpty());  // 2 != 4
}

}  // namespace
}  // namespace rankmap::mpi_bindings::profile
