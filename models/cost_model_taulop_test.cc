#include "models/cost_model_taulop.h"

#include <cmath>
#include <random>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

// A channel without latency or overhead whose per-byte time at tau = 1..3 is
// given.
TauLopParams Channel(double p1, double p2, double p3) {
  TauLopParams p;
  p.table = {{0.0, p1}, {0.0, p2}, {0.0, p3}};
  return p;
}

TEST(TauLopTime, OverheadPlusTransfersTimesL) {
  TauLopParams p;
  p.o = 1.0;
  p.o_per_byte = 0.5;
  p.transfers = 2;
  p.table = {{3.0, 0.25}, {4.0, 0.5}};
  // tau = 1: o(10) = 1 + 5 = 6; L(10, 1) = 3 + 2.5 = 5.5; T = 6 + 2 * 5.5 = 17.
  EXPECT_DOUBLE_EQ(TauLopTime(p, 10, 1), 17.0);
  // tau = 2: L(10, 2) = 4 + 5 = 9; T = 6 + 18 = 24. The overhead does not grow
  // with tau.
  EXPECT_DOUBLE_EQ(TauLopTime(p, 10, 2), 24.0);
  // tau = 4 beyond the table: per-byte 0.5 * 4 / 2 = 1; L = 4 + 10 = 14;
  // T = 6 + 28 = 34.
  EXPECT_DOUBLE_EQ(TauLopTime(p, 10, 4), 34.0);
  // byte_scale 2 doubles the per-byte part of L only: L(10, 1) = 3 + 5 = 8;
  // T = 6 + 16.
  EXPECT_DOUBLE_EQ(TauLopTime(p, 10, 1, 2.0), 22.0);
}

// The seed's Code 6 / Fig. 3 expression
//   (T1(ma) + T0(mb) + T1(mb)) || (T0(mb) + T1(ma)) || (T1(ma) + T0(mb))
// with ma = 4, mb = 8, no overheads or latencies, and per-byte times
//   channel 0: 1, 1.5, 2 for tau = 1, 2, 3;  channel 1: 2, 3, 4.
// Hand calculation (S1, S2, S3 the sequences, f a head's completed fraction):
// 1. Heads T1(4), T0(8), T1(4). Channel 1 has tau 2: T = 4 * 3 = 12;
//    channel 0 tau 1: T = 8. dt = 8: S2's T0(8) completes; S1, S3 reach
//    f = 8 / 12 = 2/3.
// 2. Heads T1(4) f=2/3, T1(4) f=0, T1(4) f=2/3. Channel 1 tau 3: T = 16;
//    remaining 16/3, 16, 16/3. dt = 16/3: S1, S3 complete; S2 reaches 1/3.
// 3. Heads T0(8), T1(4) f=1/3, T0(8). Channel 0 tau 2: T = 12; channel 1
//    tau 1: T = 8, remaining 16/3. dt = 16/3: S2 completes (done); S1, S3
//    reach f = (16/3) / 12 = 4/9.
// 4. Heads T0(8) f=4/9 twice. Tau 2: T = 12, remaining 20/3. dt = 20/3: both
//    complete (S3 done).
// 5. S1's T1(8) alone. Tau 1: T = 16. dt = 16.
// Total = 8 + 16/3 + 16/3 + 20/3 + 16 = 124/3.
TEST(EvaluateTauLop, SeedCode6ExpressionMatchesHandCalculation) {
  const std::vector<TauLopParams> channels = {Channel(1, 1.5, 2),
                                              Channel(2, 3, 4)};
  const double ma = 4, mb = 8;
  TauLopConcurrent conc;
  conc.Add({{1, ma}, {0, mb}, {1, mb}})
      .Add({{0, mb}, {1, ma}})
      .Add({{1, ma}, {0, mb}});
  auto t = EvaluateTauLop(conc, channels);
  ASSERT_THAT(t, IsOk());
  EXPECT_NEAR(*t, 124.0 / 3.0, 1e-12);
}

TEST(EvaluateTauLop, SequencesAddConcurrentEqualMessagesShareChannel) {
  TauLopParams c;
  c.o = 0.5;
  c.table = {{1.0, 0.1}};  // beyond tau = 1 the per-byte time grows with tau
  const std::vector<TauLopParams> channels = {c};
  // Code 4: T(10) + T(20) on one channel, nothing concurrent: (0.5 + 1 + 1) +
  // (0.5 + 1 + 2).
  TauLopConcurrent seq;
  seq.Add({{0, 10}, {0, 20}});
  EXPECT_NEAR(*EvaluateTauLop(seq, channels), 6.0, 1e-12);
  // Code 5 with equal sizes: T(10) || T(10) = T(10, 2) = 0.5 + 1 + 2 = 3.5.
  TauLopConcurrent two;
  two.Add({{0, 10}}).Add({{0, 10}});
  EXPECT_NEAR(*EvaluateTauLop(two, channels), 3.5, 1e-12);
  // The same as one transmission 2 || T(10) (Code 2 with tau = 2).
  TauLopConcurrent mult;
  mult.Add({{0, 10, 2}});
  EXPECT_NEAR(*EvaluateTauLop(mult, channels), 3.5, 1e-12);
  // Different links do not interact: the max of the two single times,
  // T(20, 1) = 3.5.
  TauLopConcurrent links;
  links.Add({{0, 10, 1, 7}}).Add({{0, 20, 1, 8}});
  EXPECT_NEAR(*EvaluateTauLop(links, channels), 3.5, 1e-12);
  // Empty expression and empty sequences cost nothing.
  TauLopConcurrent empty;
  empty.Add({});
  EXPECT_EQ(*EvaluateTauLop(empty, channels), 0.0);
}

TEST(EvaluateTauLop, UnequalConcurrentMessagesHandCalculation) {
  // tau || T(m) = 1 + tau * m (latency 1, per byte 1, shared). Messages 2
  // and 6 together: T(2, 2) = 5 ends the first at t = 5; the second has done
  // f = 5 / T(6, 2) = 5/13, then alone needs (8/13) * T(6, 1) = 56/13.
  // Total 5 + 56/13 = 121/13.
  TauLopParams c;
  c.table = {{1.0, 1.0}};
  const std::vector<TauLopParams> channels = {c};
  TauLopConcurrent conc;
  conc.Add({{0, 2}}).Add({{0, 6}});
  EXPECT_NEAR(*EvaluateTauLop(conc, channels), 121.0 / 13.0, 1e-12);
}

TEST(EvaluateTauLop, PerLinkDecompositionEqualsJointSimulation) {
  // Single-transmission sequences are simulated link by link; appending a
  // sequence of two free transmissions on a separate zero-cost channel forces
  // the joint simulation of all sequences, which must give the same time.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<TauLopParams> channels(4);
  for (int c = 0; c < 3; ++c) {
    channels[c].o = 1e-7 * u(rng);
    channels[c].table = {{1e-6 * u(rng), 1e-9 * u(rng)},
                         {2e-6 * u(rng), 2e-9 * u(rng)}};
  }
  channels[3].table = {{0.0, 0.0}};
  for (int trial = 0; trial < 20; ++trial) {
    TauLopConcurrent conc;
    for (int i = 0; i < 60; ++i) {
      TauLopTransmission t;
      t.channel = static_cast<int32_t>(rng() % 3);
      t.link = static_cast<int64_t>(rng() % 5);
      // Odd trials draw from four sizes, so equal messages form classes.
      t.bytes = trial % 2 ? 1000.0 * (rng() % 4) : std::floor(1e5 * u(rng));
      t.tau = 1 + static_cast<int32_t>(rng() % 2);
      conc.Add({t});
    }
    auto split = EvaluateTauLop(conc, channels);
    conc.Add({{3, 10.0, 1, 99}, {3, 20.0, 1, 99}});
    auto joint = EvaluateTauLop(conc, channels);
    ASSERT_THAT(split, IsOk());
    ASSERT_THAT(joint, IsOk());
    EXPECT_NEAR(*split, *joint, 1e-12 * *joint) << "trial " << trial;
    EXPECT_GT(*split, 0.0);
  }
}

TEST(EvaluateTauLop, RejectsBadInput) {
  const std::vector<TauLopParams> channels = {TauLopParams{}};
  TauLopConcurrent bad_channel;
  bad_channel.Add({{1, 10}});
  EXPECT_THAT(EvaluateTauLop(bad_channel, channels), Not(IsOk()));
  TauLopConcurrent bad_tau;
  bad_tau.Add({{0, 10, 0}});
  EXPECT_THAT(EvaluateTauLop(bad_tau, channels), Not(IsOk()));
  TauLopConcurrent bad_bytes;
  bad_bytes.Add({{0, -1}});
  EXPECT_THAT(EvaluateTauLop(bad_bytes, channels), Not(IsOk()));
  // inf * 0 in a transmission time: an error, not an endless loop.
  std::vector<TauLopParams> huge = {TauLopParams{}};
  huge[0].table = {{0.0, 1e308}};
  TauLopConcurrent overflow;
  overflow.Add({{0, 1e308, 1, -1, 0.0}}).Add({{0, 1.0}});
  EXPECT_THAT(EvaluateTauLop(overflow, huge), Not(IsOk()));
  overflow.Add({{0, 1.0}, {0, 2.0}});  // the joint simulation path
  EXPECT_THAT(EvaluateTauLop(overflow, huge), Not(IsOk()));
  std::vector<TauLopParams> empty_table = {TauLopParams{}};
  empty_table[0].table.clear();
  TauLopConcurrent ok;
  ok.Add({{0, 1}});
  EXPECT_THAT(EvaluateTauLop(ok, empty_table), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::models
