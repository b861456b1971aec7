// The replay's message plan and round walk on hand-computed cases.
#include "sim/message_plan.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::sim {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Pairs (u, v, bytes, messages) of both directions summed.
struct Pair {
  int u, v;
  double bytes, messages;
};

graphs::CommGraph Graph(int n, const std::vector<Pair>& pairs, bool counts) {
  graphs::CommGraphBuilder b(n);
  for (const Pair& p : pairs) {
    absl::Status s = counts ? b.AddTraffic(p.u, p.v, p.bytes, p.messages)
                            : b.AddEdge(p.u, p.v, p.bytes);
    EXPECT_TRUE(s.ok()) << s;
  }
  auto g = std::move(b).Build();
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

// (total, size) of the arc u -> v.
std::pair<int32_t, int32_t> Arc(const graphs::CommGraph& g,
                                const MessagePlan& plan, int u, int v) {
  for (graphs::ArcIndex a = g.xadj()[u]; a < g.xadj()[u + 1]; ++a) {
    if (g.adjncy()[a] == v) return {plan.total[a], plan.size[a]};
  }
  ADD_FAILURE() << "no arc " << u << " -> " << v;
  return {-1, -1};
}

TEST(MessagePlan, WithoutCountsOneMessageEachWayOfHalfTheBytes) {
  const auto g = Graph(3, {{0, 1, 2001, 0}, {1, 2, 0, 0}}, false);
  auto plan = PlanMessages(g, "g");
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_FALSE(plan->from_counts);
  EXPECT_EQ(plan->rounds, 1);
  EXPECT_EQ(plan->messages, 4);  // zero-byte pairs send too, as always
  EXPECT_EQ(Arc(g, *plan, 0, 1), std::make_pair(2, 1001));  // round(1000.5)
  EXPECT_EQ(Arc(g, *plan, 1, 0), std::make_pair(2, 1001));
  EXPECT_EQ(Arc(g, *plan, 2, 1), std::make_pair(2, 0));
  EXPECT_DOUBLE_EQ(plan->bytes, 2002);
}

TEST(MessagePlan, CountsSplitOverDirectionsLowerRankSendsTheOddOne) {
  // 20 messages of 1000 bytes; 3 of 1000 (bytes 3000); 1 of 500; bytes with
  // no recorded message: one message; 7 zero-byte messages; 2.4 messages
  // (a per-iteration average) round to 2.
  const auto g = Graph(6,
                       {{0, 1, 20000, 20},
                        {1, 2, 3000, 3},
                        {3, 2, 500, 1},
                        {3, 4, 80, 0},
                        {4, 5, 0, 7},
                        {0, 5, 100, 2.4}},
                       true);
  auto plan = PlanMessages(g, "g");
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan->from_counts);
  EXPECT_EQ(Arc(g, *plan, 0, 1), std::make_pair(20, 1000));
  EXPECT_EQ(Arc(g, *plan, 1, 2), std::make_pair(3, 1000));
  EXPECT_EQ(Arc(g, *plan, 2, 3), std::make_pair(1, 500));
  EXPECT_EQ(Arc(g, *plan, 3, 4), std::make_pair(1, 80));
  EXPECT_EQ(Arc(g, *plan, 5, 4), std::make_pair(7, 0));
  EXPECT_EQ(Arc(g, *plan, 5, 0), std::make_pair(2, 50));
  EXPECT_EQ(plan->messages, 20 + 3 + 1 + 1 + 7 + 2);
  EXPECT_DOUBLE_EQ(plan->bytes, 20000 + 3000 + 500 + 80 + 0 + 100);
  // Directions: 1 -> 2 sends 2 of the 3, 2 -> 1 one; 2 -> 3 the single one.
  EXPECT_EQ(DirectedCount(1, 2, 3), 2);
  EXPECT_EQ(DirectedCount(2, 1, 3), 1);
  EXPECT_EQ(DirectedCount(2, 3, 1), 1);
  EXPECT_EQ(DirectedCount(3, 2, 1), 0);
  EXPECT_EQ(plan->rounds, 10);  // 0 <-> 1: 10 each way
}

TEST(MessagePlan, BoundsNameTheSourceAndThePair) {
  auto big = PlanMessages(Graph(2, {{0, 1, 1e10, 2}}, true), "app.mat");
  ASSERT_FALSE(big.ok());
  EXPECT_THAT(std::string(big.status().message()),
              HasSubstr("app.mat: processes 0 and 1: messages of 5000000000 "
                        "bytes (above 2^31 - 1"));
  auto many = PlanMessages(Graph(2, {{0, 1, 10, 1e12}}, true), "app.mat");
  ASSERT_FALSE(many.ok());
  EXPECT_THAT(std::string(many.status().message()),
              HasSubstr("app.mat: processes 0 and 1: 1e+12 messages"));
  // 6 pairs of 2,000,000 messages each: 12,000,000 per iteration.
  std::vector<Pair> pairs;
  for (int u = 0; u < 6; ++u) pairs.push_back({u, u + 1, 1, 2e6});
  auto sum = PlanMessages(Graph(7, pairs, true), "app.mat");
  ASSERT_FALSE(sum.ok());
  EXPECT_THAT(std::string(sum.status().message()),
              HasSubstr("more than 10000000 messages per iteration"));
  EXPECT_TRUE(CheckReplayWork(100, 999999).ok());  // 10^8 messages in all
  EXPECT_FALSE(CheckReplayWork(100, 1000000).ok());
  const absl::Status work = CheckReplayWork(1000000, 1000);
  EXPECT_FALSE(work.ok());
  EXPECT_THAT(std::string(work.message()),
              HasSubstr("1000 iterations (and the untimed one) of 1000000 "
                        "messages are 1001000000 simulated messages, above "
                        "the replay's bound of 100000000 (its time grows with "
                        "them); at most 99 iterations"));
  EXPECT_FALSE(CheckReplayWork(100, 10, 1000).ok());  // a tighter bound
  EXPECT_TRUE(CheckReplayWork(100, 9, 1000).ok());
}

// A budget divides the counts: each pair keeps round(M / D) messages (at
// least one) carrying a 1/D share of its bytes.
TEST(MessagePlan, ADivisorReplaysAShareOfEachPair) {
  // Pair {0,1}: 10^7 messages of 2 bytes; pair {1,2}: 3 messages, 300 bytes.
  const graphs::CommGraph g =
      Graph(3, {{0, 1, 2e7, 1e7}, {1, 2, 300, 3}}, true);
  // 11 runs (10 timed, 1 untimed) within 10^6 messages.
  const int64_t d = ReplayDivisor(g, 10, 1'000'000);
  EXPECT_EQ(d, 111);  // ceil(10000003 * 11 / (10^6 - 1.5 * 2 * 11))
  auto plan = PlanMessages(g, "g", d);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->divisor, 111);
  // round(10^7 / 111) = 90090 messages of round(2e7 / 111 / 90090) = 2 bytes;
  // the small pair keeps one message of round(300 / 111) = 3 bytes.
  EXPECT_EQ(plan->messages, 90090 + 1);
  EXPECT_TRUE(CheckReplayWork(plan->messages, 10, 1'000'000).ok());
  EXPECT_FALSE(PlanMessages(g, "g").ok());  // undivided: above 10^7 a round
  // Within the budget, or without counts, nothing is divided.
  EXPECT_EQ(ReplayDivisor(g, 10, 200'000'000), 1);
  EXPECT_EQ(ReplayDivisor(Graph(3, {{0, 1, 2e7, 1e7}}, false), 10, 10), 1);
  EXPECT_EQ(PlanMessages(Graph(2, {{0, 1, 8, 0}}, false), "g", 5)->divisor, 1);
  EXPECT_FALSE(PlanMessages(g, "g", 0).ok());
  // More pairs than the budget holds: no divisor helps, the check refuses.
  EXPECT_EQ(ReplayDivisor(g, 10, 30), 1);
}

// Runs one iteration of a walker: per round, the neighbours received from
// and sent to.
std::map<int32_t, std::pair<std::vector<int32_t>, std::vector<int32_t>>> Walk(
    RoundWalker& w) {
  std::map<int32_t, std::pair<std::vector<int32_t>, std::vector<int32_t>>> out;
  int32_t round = -1, last = -1;
  std::vector<int32_t> r, s;
  while (w.Next(&round, &r, &s)) {
    EXPECT_GT(round, last);
    last = round;
    out[round] = {r, s};
  }
  return out;
}

TEST(RoundWalker, MessagesSpreadEvenlyAndTheFirstInRoundZero) {
  // Neighbour 0: receive 10, send 10; neighbour 1: receive 1, send 3;
  // neighbour 2: nothing to receive, send 1. R = 10.
  const std::vector<int32_t> recv = {10, 1, 0}, send = {10, 3, 1};
  RoundWalker w(recv, send, 10);
  for (int iteration = 0; iteration < 2; ++iteration) {
    const auto rounds = Walk(w);
    ASSERT_EQ(rounds.size(), 10u);
    // Sends of 3 in rounds 0, 3 (10/3), 6 (20/3).
    EXPECT_THAT(rounds.at(0).first, ElementsAre(0, 1));
    EXPECT_THAT(rounds.at(0).second, ElementsAre(0, 1, 2));
    EXPECT_THAT(rounds.at(3).second, ElementsAre(0, 1));
    EXPECT_THAT(rounds.at(6).second, ElementsAre(0, 1));
    for (int32_t t : {1, 2, 4, 5, 7, 8, 9}) {
      EXPECT_THAT(rounds.at(t).first, ElementsAre(0)) << t;
      EXPECT_THAT(rounds.at(t).second, ElementsAre(0)) << t;
    }
    w.Restart();
  }
}

TEST(RoundWalker, BothEndsAgreeOnEveryRound) {
  // Ranks 0..3, every pair with total messages 1 + 2u + 3v: rank u's sends
  // to v must fall in the rounds of v's receives from u.
  const int n = 4;
  int32_t rounds = 0;
  auto total = [](int u, int v) {
    return 1 + 2 * std::min(u, v) + 3 * std::max(u, v);
  };
  for (int u = 0; u < n; ++u)
    for (int v = 0; v < n; ++v)
      if (u != v)
        rounds = std::max<int32_t>(rounds, DirectedCount(u, v, total(u, v)));
  // per rank: neighbours in increasing order; rounds of (from, to) messages.
  std::map<std::pair<int, int>, std::vector<int32_t>> sent, received;
  std::vector<std::vector<int32_t>> recv(n), send(n);
  std::vector<std::vector<int>> peer(n);
  for (int u = 0; u < n; ++u) {
    for (int v = 0; v < n; ++v) {
      if (u == v) continue;
      peer[u].push_back(v);
      recv[u].push_back(DirectedCount(v, u, total(u, v)));
      send[u].push_back(DirectedCount(u, v, total(u, v)));
    }
    RoundWalker w(recv[u], send[u], rounds);
    for (const auto& [t, rs] : Walk(w)) {
      for (int32_t k : rs.first) received[{peer[u][k], u}].push_back(t);
      for (int32_t k : rs.second) sent[{u, peer[u][k]}].push_back(t);
    }
  }
  EXPECT_EQ(sent, received);
  EXPECT_EQ(sent.at({0, 1}).size(), 2u);  // total 4: 2 each way
  EXPECT_EQ(sent.at({3, 2}).size(), 7u);  // total 14
}

}  // namespace
}  // namespace rankmap::sim
