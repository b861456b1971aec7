#include "core/objective/link_load.h"

#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"

namespace rankmap::core {
namespace {

// Two hosts of two cores: 1 GB/s, 1 us host links, 10 GB/s, 0.5 us
// loopbacks. Edges 0-1 (4 MB), 1-2 (2 MB), 2-3 (1 MB), 0-3 (6 MB).
graphs::CommGraph FourProcesses() {
  graphs::CommGraphBuilder b(4);
  EXPECT_TRUE(b.AddEdge(0, 1, 4e6).ok());
  EXPECT_TRUE(b.AddEdge(1, 2, 2e6).ok());
  EXPECT_TRUE(b.AddEdge(2, 3, 1e6).ok());
  EXPECT_TRUE(b.AddEdge(0, 3, 6e6).ok());
  return std::move(b).Build().value();
}

TEST(LinkLoadTest, HandComputedOnTwoHosts) {
  const topology::Tree t =
      topology::ParseTleaf("tleaf 2 2 1GBps:1us 2 10GBps:0.5us").value();
  ASSERT_TRUE(t.has_links());
  const graphs::CommGraph g = FourProcesses();
  // Packed: 1-2 and 0-3 cross, 8 MB on each host link, 4 MB each way:
  // 4e6 / 1e9 = 4 ms. Loopbacks: 4 MB / 10 GB/s and 1 MB / 10 GB/s. The
  // longest route: host link, host link, 2 us.
  // Every message waits for the busiest link on its route: 0 -> 3 and 1 -> 2
  // for their host links (4 ms after 2 us), the rest less.
  const LinkLoad packed =
      EstimateLinkLoad(t, g, {0, 1, 2, 3}, true, LinkModel::kExact);
  EXPECT_DOUBLE_EQ(packed.busiest, 4e-3);
  EXPECT_DOUBLE_EQ(packed.latency, 2e-6);
  EXPECT_DOUBLE_EQ(packed.seconds, 4.002e-3);
  // 0, 3 on the first host and 1, 2 on the second: 0-1 and 2-3 cross, 5 MB:
  // 2.5 ms.
  const LinkLoad paired =
      EstimateLinkLoad(t, g, {0, 2, 3, 1}, true, LinkModel::kExact);
  EXPECT_DOUBLE_EQ(paired.busiest, 2.5e-3);
  EXPECT_DOUBLE_EQ(paired.seconds, 2.502e-3);
  // Only 0-1, inside the first host: the loopback carries both directions,
  // 4 MB / 10 GB/s, behind its 0.5 us.
  graphs::CommGraphBuilder b(2);
  ASSERT_TRUE(b.AddEdge(0, 1, 4e6).ok());
  const LinkLoad inside = EstimateLinkLoad(t, std::move(b).Build().value(),
                                           {0, 1}, true, LinkModel::kExact);
  EXPECT_DOUBLE_EQ(inside.busiest, 4e-4);
  EXPECT_DOUBLE_EQ(inside.latency, 0.5e-6);
  EXPECT_DOUBLE_EQ(inside.seconds, 4.005e-4);
}

// SMPI's default model on the packed case: the 3 MB message 0 -> 3 pays
// 11.6436 times its 2 us of latency; its host link carries 4 MB plus 5% of
// the 4 MB coming the other way (TCP acknowledgements), every flow at the
// bandwidth factor of its size (0.940694 above 64 KiB): 4.2 MB / 0.940694
// GB/s, from the moment the first message flows.
TEST(LinkLoadTest, SmpiFactorsAndCrossTraffic) {
  const topology::Tree t =
      topology::ParseTleaf("tleaf 2 2 1GBps:1us 2 10GBps:0.5us").value();
  const LinkLoad packed = EstimateLinkLoad(t, FourProcesses(), {0, 1, 2, 3});
  EXPECT_NEAR(packed.seconds, 2e-6 * 11.6436 + 4.2e-3 / 0.940694, 1e-12);
  // One message of 100 bytes each way between hosts: 2.01467 x 2 us, then
  // 100 B and the other direction's 5 B of acknowledgements at 0.812084 GB/s.
  graphs::CommGraphBuilder b(2);
  ASSERT_TRUE(b.AddEdge(0, 1, 200).ok());
  const LinkLoad small =
      EstimateLinkLoad(t, std::move(b).Build().value(), {0, 2});
  EXPECT_NEAR(small.seconds, 2e-6 * 2.01467 + 105 / (1e9 * 0.812084), 1e-15);
}

// A link drains from its first flowing message: process 0's host link
// carries 500 kB to a host under the same switch (2 us away) and 500 kB to
// one under the other switch (22 us away): both have arrived 2 us + 1 ms
// after the start, not 22 us + 1 ms.
TEST(LinkLoadTest, ALinkDrainsFromItsFirstFlowingMessage) {
  const topology::Tree t =
      topology::ParseTleaf("tleaf 3 2 1GBps:10us 2 1GBps:1us 2 10GBps:0.5us")
          .value();
  graphs::CommGraphBuilder b(3);
  ASSERT_TRUE(b.AddEdge(0, 1, 1e6).ok());
  ASSERT_TRUE(b.AddEdge(0, 2, 1e6).ok());
  const graphs::CommGraph g = std::move(b).Build().value();
  const LinkLoad l = EstimateLinkLoad(t, g, {0, 2, 4}, true, LinkModel::kExact);
  EXPECT_DOUBLE_EQ(l.seconds, 2e-6 + 1e-3);
}

// Rounds: 0 and 2 (two hosts) exchange one 1 MB message each way, 2 and 3
// (one host) two empty messages each way, so an iteration has two rounds.
// Round 0: the megabytes take 2 us + 1 ms, the empty messages 0.5 us; round
// 1: 2 and 3 start when 2 is done with round 0 (1.002 ms), 0.5 us more.
TEST(LinkLoadTest, RoundsWaitForTheProcessesOfEachMessage) {
  const topology::Tree t =
      topology::ParseTleaf("tleaf 2 2 1GBps:1us 2 10GBps:0.5us").value();
  graphs::CommGraphBuilder b(4);
  ASSERT_TRUE(b.AddTraffic(0, 2, 2e6, 2).ok());
  ASSERT_TRUE(b.AddTraffic(2, 3, 0, 4).ok());
  const graphs::CommGraph g = std::move(b).Build().value();
  const LinkLoad l = EstimateLinkLoad(t, g, {0, 1, 2, 3}, true, LinkModel::kExact);
  EXPECT_DOUBLE_EQ(l.seconds, 1.002e-3 + 0.5e-6);
  // Without counts: one round, one message each way (2 and 3 send 0 bytes).
  const LinkLoad one =
      EstimateLinkLoad(t, g, {0, 1, 2, 3}, false, LinkModel::kExact);
  EXPECT_DOUBLE_EQ(one.seconds, 1.002e-3);
}

// The round rule is sim/message_plan.h's: a direction of k messages sends in
// rounds floor(i R / k), i < k, and in no other.
TEST(LinkLoadTest, SendsInRoundIsTheReplaysRule) {
  for (int64_t rounds = 1; rounds <= 12; ++rounds) {
    for (int64_t k = 1; k <= rounds; ++k) {
      std::vector<bool> sends(rounds, false);
      for (int64_t i = 0; i < k; ++i) sends[i * rounds / k] = true;
      for (int64_t r = 0; r < rounds; ++r)
        EXPECT_EQ(SendsInRound(r, k, rounds), sends[r]) << r << " " << k;
    }
  }
  EXPECT_EQ(PairMessages(1001, 0, false), std::make_pair(int64_t{2}, 501.0));
  EXPECT_EQ(PairMessages(1000, 2.6, true), std::make_pair(int64_t{3}, 333.0));
  EXPECT_EQ(PairMessages(10, 0, true), std::make_pair(int64_t{1}, 10.0));
  EXPECT_EQ(PairMessages(0, 0, true), std::make_pair(int64_t{0}, 0.0));
}

TEST(LinkLoadTest, ZeroWithoutLinks) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  const LinkLoad l = EstimateLinkLoad(t, FourProcesses(), {0, 1, 2, 3});
  EXPECT_EQ(l.seconds, 0.0);
  EXPECT_EQ(l.busiest, 0.0);
  EXPECT_EQ(l.latency, 0.0);
}

// Weighted sharing, by hand: one 1 GB/s link, a flow of 1 MB with penalty 2
// from 2 us on and one of 1 MB with penalty 22 from 22 us on. The first runs
// alone for 20 us (20 kB), then the link is split 22 : 2: the first at 11/12
// GB/s ends 980 kB later, at 22 us + 1.06909 ms; the second got 1/12 of that
// time (89.09 kB) and sends the rest alone, ending when the link has carried
// both megabytes: 2 us + 2 ms.
TEST(FluidLinksTest, SharesByPenaltyAndKeepsTheLinkBusy) {
  internal::FluidLinks fluid({1e9});
  fluid.route() = {0, 0};
  fluid.classes().push_back({.start = 2e-6, .bytes = 1e6, .penalty = 2,
                             .first = 0, .size = 1});
  fluid.classes().push_back({.start = 22e-6, .bytes = 1e6, .penalty = 22,
                             .first = 1, .size = 1});
  const std::vector<double> end = fluid.Run();
  EXPECT_NEAR(end[0], 22e-6 + 980e3 / (1e9 * 22 / 24), 1e-12);
  EXPECT_NEAR(end[1], 2e-6 + 2e-3, 1e-12);
}

// Max-min with a bound and a second link: A and B share link 0 (1 GB/s); B
// and C share link 1 (1 GB/s) with 3 flows of C (count 3); B is bounded at
// 0.1 GB/s. Link 1: B at its bound leaves 0.9 to the three C (0.3 each);
// link 0: A gets 0.9. A (0.9 MB) ends at 1 ms, C (0.3 MB each) at 1 ms, B
// (0.1 MB) at 1 ms; a zero-byte class ends at its start.
TEST(FluidLinksTest, BoundsCountsAndSecondLinks) {
  internal::FluidLinks fluid({1e9, 1e9});
  fluid.route() = {0, 0, 1, 1};
  fluid.classes().push_back({.bytes = 0.9e6, .first = 0, .size = 1});
  fluid.classes().push_back(
      {.bytes = 0.1e6, .bound = 0.1e9, .first = 1, .size = 2});
  fluid.classes().push_back({.bytes = 0.3e6, .count = 3, .first = 3, .size = 1});
  fluid.classes().push_back({.start = 5e-6, .bytes = 0, .first = 0, .size = 1});
  const std::vector<double> end = fluid.Run();
  EXPECT_NEAR(end[0], 1e-3, 1e-12);
  EXPECT_NEAR(end[1], 1e-3, 1e-12);
  EXPECT_NEAR(end[2], 1e-3, 1e-12);
  EXPECT_EQ(end[3], 5e-6);
}

}  // namespace
}  // namespace rankmap::core
