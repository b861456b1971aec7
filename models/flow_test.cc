#include "models/flow.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "base/status_matchers.h"
#include "graphs/frontends/stencil.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tiling/grid_partition.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

using Triple = std::tuple<int32_t, int32_t, double>;

std::vector<Triple> Sorted(const std::vector<Transmission>& ts) {
  std::vector<Triple> out;
  for (const Transmission& t : ts) out.emplace_back(t.src, t.dst, t.bytes);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(HaloFlow, EveryEdgeBothWaysHalfTheWeight) {
  // 2 x 2 grid, w = 10 per edge: 4 edges, 8 transmissions of 5 bytes.
  const Flow f = HaloFlow(testing::MakeGrid2D(2, 2, 10.0), 7);
  ASSERT_THAT(ValidateFlow(f), IsOk());
  EXPECT_EQ(f.num_processes, 4);
  ASSERT_EQ(f.phases.size(), 1u);
  EXPECT_EQ(f.phases[0].repetitions, 7);
  const std::vector<Triple> want = {{0, 1, 5}, {0, 2, 5}, {1, 0, 5}, {1, 3, 5},
                                    {2, 0, 5}, {2, 3, 5}, {3, 1, 5}, {3, 2, 5}};
  EXPECT_EQ(Sorted(f.phases[0].transmissions), want);
}

TEST(HaloFlow, SkipsZeroWeightEdges) {
  graphs::CommGraphBuilder b(3);
  ASSERT_THAT(b.AddEdge(0, 1, 0.0), IsOk());
  ASSERT_THAT(b.AddEdge(1, 2, 4.0), IsOk());
  const Flow f = HaloFlow(*std::move(b).Build());
  const std::vector<Triple> want = {{1, 2, 2}, {2, 1, 2}};
  EXPECT_EQ(Sorted(f.phases[0].transmissions), want);
}

TEST(HaloMessagesFlow, OnePhaseOfTheFrontEndsMessages) {
  const std::vector<graphs::HaloMessage> msgs = {
      {0, 1, 3}, {1, 0, 5}, {2, 1, 4}};
  auto f = HaloMessagesFlow(msgs, 3, 8.0, 4);
  ASSERT_THAT(f, IsOk());
  ASSERT_EQ(f->phases.size(), 1u);
  EXPECT_EQ(f->phases[0].repetitions, 4);
  EXPECT_EQ(Sorted(f->phases[0].transmissions),
            (std::vector<Triple>{{0, 1, 24}, {1, 0, 40}, {2, 1, 32}}));
  EXPECT_THAT(HaloMessagesFlow(msgs, 2, 8.0),
              Not(IsOk()));  // process 2 out of range
  EXPECT_THAT(HaloMessagesFlow(msgs, 3, 0.0), Not(IsOk()));
  EXPECT_THAT(HaloMessagesFlow(msgs, 3, 8.0, -1), Not(IsOk()));
  const std::vector<graphs::HaloMessage> negative = {{0, 1, -1}};
  EXPECT_THAT(HaloMessagesFlow(negative, 2, 8.0), Not(IsOk()));
}

TEST(HaloMessagesFlow, MatchesHaloFlowOnAStencilPartition) {
  // 2 x 4 blocks of a 20 x 40 grid, 5-point: the front end's messages and the
  // halo form of its graph carry the same bytes in each direction (the halos
  // are symmetric).
  auto part = tiling::BlockPartition(std::vector<int64_t>{20, 40},
                                     std::vector<int64_t>{2, 4});
  ASSERT_THAT(part, IsOk());
  auto msgs = graphs::HaloMessages(*part, {}, graphs::Stencil::k5Point);
  ASSERT_THAT(msgs, IsOk());
  auto graph = graphs::HaloGraph(*part, {}, graphs::Stencil::k5Point);
  ASSERT_THAT(graph, IsOk());
  auto f = HaloMessagesFlow(*msgs, 8, 8.0);
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(Sorted(f->phases[0].transmissions),
            Sorted(HaloFlow(*graph).phases[0].transmissions));
  // Process 1 (row 0, column 1) sends its 10-cell left and right columns and
  // its 10-cell bottom row: 80 bytes each.
  double sent = 0;
  for (const Transmission& t : f->phases[0].transmissions)
    sent += t.src == 1 ? t.bytes : 0.0;
  EXPECT_EQ(sent, 240.0);
}

TEST(AppendBroadcast, StagesOfEachAlgorithm) {
  const std::vector<int32_t> members = {7, 3, 5, 1, 9};
  std::vector<std::vector<Transmission>> st;
  AppendBroadcast(Broadcast::kBinomial, members, 2.0, st);
  ASSERT_EQ(st.size(), 3u);
  EXPECT_EQ(Sorted(st[0]), (std::vector<Triple>{{7, 3, 2}}));
  EXPECT_EQ(Sorted(st[1]), (std::vector<Triple>{{3, 1, 2}, {7, 5, 2}}));
  EXPECT_EQ(Sorted(st[2]), (std::vector<Triple>{{7, 9, 2}}));
  st.clear();
  AppendBroadcast(Broadcast::kRing, members, 1.0, st);
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(Sorted(st[3]), (std::vector<Triple>{{1, 9, 1}}));
  st.clear();
  AppendBroadcast(Broadcast::kFlat, members, 1.0, st);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].size(), 4u);
  st.clear();
  AppendBroadcast(Broadcast::kBinomial, {4}, 1.0,
                  st);  // a lone root sends nothing
  EXPECT_TRUE(st.empty());
}

TEST(SummaFlow, TwoByTwoBinomialByHand) {
  SummaFlowOptions o;
  o.grid_rows = 2;
  o.grid_cols = 2;
  o.steps = 2;
  o.a_panel_bytes = 100;
  o.b_panel_bytes = 30;
  auto f = SummaFlow(o);
  ASSERT_THAT(f, IsOk());
  ASSERT_THAT(ValidateFlow(*f), IsOk());
  ASSERT_EQ(f->phases.size(), 2u);
  // Step 0: column 0 sends A along rows, row 0 sends B along columns.
  EXPECT_EQ(
      Sorted(f->phases[0].transmissions),
      (std::vector<Triple>{{0, 1, 100}, {0, 2, 30}, {1, 3, 30}, {2, 3, 100}}));
  // Step 1: column 1 and row 1 are the roots.
  EXPECT_EQ(
      Sorted(f->phases[1].transmissions),
      (std::vector<Triple>{{1, 0, 100}, {2, 0, 30}, {3, 1, 30}, {3, 2, 100}}));
}

TEST(SummaFlow, EveryProcessReceivesEachPanelOncePerStep) {
  for (Broadcast b :
       {Broadcast::kFlat, Broadcast::kBinomial, Broadcast::kRing}) {
    SummaFlowOptions o;
    o.grid_rows = 3;
    o.grid_cols = 4;
    o.steps = 5;
    o.a_panel_bytes = 1000;
    o.b_panel_bytes = 1;
    o.broadcast = b;
    auto f = SummaFlow(o);
    ASSERT_THAT(f, IsOk());
    std::vector<double> received(12, 0.0);
    for (const Phase& p : f->phases) {
      for (const Transmission& t : p.transmissions) received[t.dst] += t.bytes;
    }
    for (int p = 0; p < 12; ++p) {
      const int row = p / 4, col = p % 4;
      // A is received in the steps where the process is not in the root column,
      // B likewise.
      double want = 0;
      for (int s = 0; s < 5; ++s) {
        if (s % 4 != col) want += 1000;
        if (s % 3 != row) want += 1;
      }
      EXPECT_EQ(received[p], want)
          << "process " << p << " broadcast " << static_cast<int>(b);
    }
  }
}

TEST(SummaFlow, RejectsBadOptions) {
  SummaFlowOptions o;
  o.grid_rows = 0;
  EXPECT_THAT(SummaFlow(o), Not(IsOk()));
  o.grid_rows = 2;
  o.steps = -1;
  EXPECT_THAT(SummaFlow(o), Not(IsOk()));
  o.steps = 1;
  o.a_panel_bytes = -5;
  EXPECT_THAT(SummaFlow(o), Not(IsOk()));
}

TEST(ValidateFlow, RejectsBadTransmissions) {
  Flow f;
  f.num_processes = 2;
  f.phases.push_back(Phase{{{0, 1, 1.0}}, 1});
  EXPECT_THAT(ValidateFlow(f), IsOk());
  f.phases[0].transmissions[0].dst = 2;
  EXPECT_THAT(ValidateFlow(f), Not(IsOk()));
  f.phases[0].transmissions[0].dst = 0;  // self
  EXPECT_THAT(ValidateFlow(f), Not(IsOk()));
  f.phases[0].transmissions[0] = {0, 1, -1.0};
  EXPECT_THAT(ValidateFlow(f), Not(IsOk()));
  f.phases[0].transmissions[0] = {0, 1, 1.0};
  f.phases[0].repetitions = -1;
  EXPECT_THAT(ValidateFlow(f), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::models
