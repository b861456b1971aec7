#include "models/cost_model.h"

#include <algorithm>
#include <random>
#include <string>
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

constexpr Model kAllModels[] = {Model::kHockney, Model::kLmo, Model::kHLogGP,
                                Model::kTauLop};

ModelParams Params(const std::string& text, const topology::Tree& tree) {
  auto rules = ParseModelParams(text, "test");
  EXPECT_THAT(rules, IsOk());
  auto p = ResolveModelParams(*rules, tree);
  EXPECT_THAT(p, IsOk());
  return *p;
}

Flow OneMessage(double bytes) {
  Flow f;
  f.num_processes = 2;
  f.phases.push_back(Phase{{{0, 1, bytes}}, 1});
  return f;
}

// Two machines of two sockets of two cores; processes 0 and 1 on different
// machines.
TEST(PredictTime, HockneyMillionBytesAcrossNodes) {
  const topology::Tree tree = testing::MakeTleaf("3 2 1000 2 100 2 1");
  const ModelParams p = Params("level 0 hockney alpha=1e-6 beta=1e-9", tree);
  const Mapping m = {0, 4};
  auto t = PredictTime(Model::kHockney, p, tree, OneMessage(1e6), m);
  ASSERT_THAT(t, IsOk());
  EXPECT_NEAR(*t, 1e-6 + 1e-3, 1e-15);
  // The halo form of the same exchange (w = 2e6: 1e6 each way) costs the same
  // per process.
  graphs::CommGraphBuilder b(2);
  ASSERT_THAT(b.AddEdge(0, 1, 2e6), IsOk());
  auto halo = PredictTime(Model::kHockney, p, tree,
                          HaloFlow(*std::move(b).Build(), 3), m);
  EXPECT_NEAR(*halo, 3 * (1e-6 + 1e-3), 1e-15);
  // Same socket uses the socket level's defaults (depth 2): 2e-7 + 5e-11 * 1e6,
  // cheaper.
  auto near = PredictTime(Model::kHockney, p, tree, OneMessage(1e6), {0, 1});
  EXPECT_NEAR(*near, 2e-7 + 5e-5, 1e-15);
}

// Digest 001 (Becker), section 10.2: a straight-line partition between two
// processors at ratio 1:1 over a serial link moves 8 N^2 bytes (N = 4500
// doubles: 162 MB) as two messages one after the other, 2 alpha + beta 8 N^2:
// 12.96 s at 100 Mb/s, 2.592 s at 500 Mb/s, 1.296 s at 1 Gb/s (alpha = 0).
TEST(PredictTime, SerialLinkSanityNumbersOfDigest001) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const double half = 4.0 * 4500.0 * 4500.0;  // 81 MB each way
  Flow f;
  f.num_processes = 2;
  f.phases.push_back(Phase{{{0, 1, half}}, 1});
  f.phases.push_back(Phase{{{1, 0, half}}, 1});
  const double want[] = {12.96, 2.592, 1.296};
  int i = 0;
  for (double mbit : {100.0, 500.0, 1000.0}) {
    ModelParams p = DefaultModelParams(tree);
    p.levels[0].hockney = {0.0, 8.0 / (mbit * 1e6)};
    EXPECT_NEAR(*PredictTime(Model::kHockney, p, tree, f, {0, 2}), want[i++],
                1e-9);
  }
}

TEST(PredictTime, HLogGPEquation5ByHand) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const ModelParams p =
      Params("level 0 hloggp L=2e-6 os=1e-7 or=2e-7 G=1e-9", tree);
  // Eq. 5: T = L + os + or + (m - 1) G = 2e-6 + 1e-7 + 2e-7 + 1000 * 1e-9
  // = 3.3e-6.
  EXPECT_NEAR(*PredictTime(Model::kHLogGP, p, tree, OneMessage(1001), {0, 2}),
              3.3e-6, 1e-18);
  EXPECT_NEAR(HLogGPTime(p.levels[0].hloggp, 1001), 3.3e-6, 1e-18);
  // A zero-byte message pays no negative (m - 1) G term.
  EXPECT_NEAR(HLogGPTime(p.levels[0].hloggp, 0), 2.3e-6, 1e-18);
  // The gap g bounds a message from below when it is larger than the message
  // time.
  const ModelParams gap =
      Params("level 0 hloggp L=2e-6 os=1e-7 or=2e-7 G=1e-9 g=1e-5", tree);
  EXPECT_NEAR(*PredictTime(Model::kHLogGP, gap, tree, OneMessage(1001), {0, 2}),
              1e-5, 1e-18);
}

TEST(PredictTime, LmoEquation8ByHand) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const ModelParams p = Params(
      "level 0 lmo L=1e-6 Cs=2e-7 ts=1e-11 Cr=3e-7 tr=2e-11 rate=1e9", tree);
  // Eq. 8 with m = 1e4: 1e-6 + 2e-7 + 1e-7 + 3e-7 + 2e-7 + 1e4 / 1e9 = 1.8e-6 +
  // 1e-5.
  EXPECT_NEAR(*PredictTime(Model::kLmo, p, tree, OneMessage(1e4), {0, 3}),
              1.18e-5, 1e-17);
}

// Seed 004 eq. 8 with the processors' own C_i, t_i and the pair's L_ij,
// beta_ij: leaves 0 and 3 (different halves of `tleaf 2 2 10 2 1`) with 0 ->
// 3: C_0 + m t_0 + C_3 + m t_3 + L_03 + m / beta_03 = 4e-6 + 1e-5 + 1e-6 +
// 5e-5 + 2e-5 + 1e4 / 5e8 (= 2e-5) = 1.05e-4; the reverse direction swaps the
// processor terms, the same here since the sums are symmetric. The level's
// values fill what is not given: 0 -> 2 takes C_0, t_0 from leaf 0, the level's
// Cr, tr and L, rate for the pair.
TEST(PredictTime, LmoPerProcessorAndPerPair) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const ModelParams p = Params(
      "level 0 lmo L=1e-6 Cs=2e-7 ts=1e-11 Cr=3e-7 tr=2e-11 rate=1e9\n"
      "proc 0 lmo C=4e-6 t=1e-9\n"
      "proc 3 lmo C=1e-6 t=5e-9\n"
      "pair 0 3 lmo L=2e-5 rate=5e8\n",
      tree);
  EXPECT_NEAR(*PredictTime(Model::kLmo, p, tree, OneMessage(1e4), {0, 3}),
              1.05e-4, 1e-16);
  EXPECT_NEAR(*PredictTime(Model::kLmo, p, tree, OneMessage(1e4), {3, 0}),
              1.05e-4, 1e-16);
  // 0 -> 2: 4e-6 + 1e-5 + 3e-7 + 2e-7 + 1e-6 + 1e-5.
  EXPECT_NEAR(*PredictTime(Model::kLmo, p, tree, OneMessage(1e4), {0, 2}),
              2.55e-5, 1e-16);
}

// Eq. 5 with o_Si, g_i of the sender, o_Rj of the receiver, L_ij and G_ij of
// the pair: 3e-6 + 1e-6 + 2e-6 + 999 * 2e-9 = 7.998e-6; a pair-cost scale of
// the level does not apply to the pair's own G.
TEST(PredictTime, HLogGPPerProcessorAndPerPair) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const ModelParams p = Params(
      "level 0 hloggp L=2e-6 os=1e-7 or=2e-7 G=1e-9\n"
      "proc 1 hloggp os=1e-6 g=5e-6\n"
      "proc 2 hloggp or=2e-6\n"
      "pair 1 2 hloggp L=3e-6 G=2e-9\n",
      tree);
  EXPECT_NEAR(*PredictTime(Model::kHLogGP, p, tree, OneMessage(1000), {1, 2}),
              7.998e-6, 1e-18);
  // The gap g of the sender bounds a small message from below.
  EXPECT_NEAR(*PredictTime(Model::kHLogGP, p, tree, OneMessage(1), {1, 2}),
              6e-6, 1e-18);
}

// The Wave2D P = 8 two-machine layout: a 2 x 4 block partition of a 200 x 800
// mesh (blocks of 100 rows x 200 columns, processes numbered row-major),
// machine M0 = {0, 1, 4, 5} (left half) and M1 = {2, 3, 6, 7}. Horizontal
// neighbours exchange a 100-element column (800 bytes each way), vertical
// neighbours a 200-element row (1600 bytes each way).
graphs::CommGraph Wave2DLayout() {
  graphs::CommGraphBuilder b(8);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 4; ++c) {
      const int p = r * 4 + c;
      if (c + 1 < 4) {
        EXPECT_THAT(b.AddEdge(p, p + 1, 2 * 800), IsOk());
      }
      if (r == 0) {
        EXPECT_THAT(b.AddEdge(p, p + 4, 2 * 1600), IsOk());
      }
    }
  }
  return *std::move(b).Build();
}
// Tree: root -> 2 machines -> 4 cores. Leaves 0-3 are M0, 4-7 are M1.
const Mapping kTwoMachines = {0, 1, 4, 5, 2, 3, 6, 7};

TEST(PredictTime, Wave2DTauLopEquations3And4ByHand) {
  const topology::Tree tree = testing::MakeTleaf("2 2 1000 4 1");
  // Network (depth 0): L(m, tau) = 1e-6 + tau * 2e-10 m; memory of a machine
  // (depth 1): 1e-6 + tau * 1e-10 m; no overhead, one transfer each.
  const ModelParams p = Params(
      "level 0 taulop o=0 transfers=1 L1=1e-6,2e-10\n"
      "level 1 taulop o=0 transfers=1 L1=1e-6,1e-10\n",
      tree);
  const Flow flow = HaloFlow(Wave2DLayout(), 50);
  // Eq. 4 is the concurrent composition of all 20 transmissions (eq. 3 per
  // process). Per-machine links (default sharing). M0 carries (0,1), (4,5):
  // four 800-byte transmissions, and (0,4), (1,5): four 1600-byte ones, all
  // at once, tau = 8:
  //   T(800, 8)  = 1e-6 + 8 * 800e-10  = 1.64e-6
  //   T(1600, 8) = 1e-6 + 8 * 1600e-10 = 2.28e-6
  // At 1.64e-6 the 800-byte ones end; the others have done 1.64 / 2.28 and
  // go on with tau = 4: T(1600, 4) = 1.64e-6, remaining (0.64 / 2.28) of it.
  //   M0 = 1.64e-6 * (1 + 0.64 / 2.28) = 2.1003508...e-6; M1 is the same.
  // Network link: (1,2), (5,6): four 800-byte transmissions, tau = 4:
  //   T(800, 4) = 1e-6 + 4 * 800 * 2e-10 = 1.64e-6.
  // Theta = max(2.10035e-6, 1.64e-6); the flow is T = 50 iterations of it.
  const double theta = 1.64e-6 * (1 + 0.64 / 2.28);
  auto per_phase =
      PredictPhaseTimes(Model::kTauLop, p, tree, flow, kTwoMachines);
  ASSERT_THAT(per_phase, IsOk());
  ASSERT_EQ(per_phase->size(), 1u);
  EXPECT_NEAR((*per_phase)[0], theta, 1e-18);
  EXPECT_NEAR(*PredictTime(Model::kTauLop, p, tree, flow, kTwoMachines),
              50 * theta, 1e-16);
  // Per-level sharing (the tau-Lop library's one shared-memory channel): both
  // machines' 16 transmissions share depth 1, tau = 16:
  //   T(800, 16) = 2.28e-6, T(1600, 16) = 3.56e-6,
  // then tau = 8 for the remaining (1.28 / 3.56) of T(1600, 8) = 2.28e-6.
  PredictOptions per_level;
  per_level.sharing = TauLopSharing::kPerLevel;
  auto shared =
      PredictPhaseTimes(Model::kTauLop, p, tree, flow, kTwoMachines, per_level);
  EXPECT_NEAR((*shared)[0], 2.28e-6 * (1 + 1.28 / 3.56), 1e-18);
  // Sender uplinks: a core's uplink into its machine node carries that core's
  // intra-machine messages; p1 sends 800 B to p0 and 1600 B to p5, tau = 2:
  //   T(800, 2) = 1e-6 + 1.6e-7 = 1.16e-6; T(1600, 2) = 1.32e-6.
  // At 1.16e-6 the 1600-byte one has done 1.16 / 1.32 and finishes alone in
  // (0.16 / 1.32) * T(1600, 1) = (0.16 / 1.32) * 1.16e-6:
  //   p1 = 1.16e-6 * (1 + 0.16 / 1.32) = 1.3006e-6.
  // p1 -> p2 leaves by M0's uplink into the root, shared with p5 -> p6:
  //   T(800, 2) = 1e-6 + 2 * 800 * 2e-10 = 1.32e-6, the largest: Theta.
  PredictOptions uplink;
  uplink.sharing = TauLopSharing::kPerSenderUplink;
  auto up =
      PredictPhaseTimes(Model::kTauLop, p, tree, flow, kTwoMachines, uplink);
  EXPECT_NEAR((*up)[0], 1.32e-6, 1e-18);
  // With a faster network (depth 0 per byte 1e-11) the machine-internal uplinks
  // dominate.
  const ModelParams fast = Params(
      "level 0 taulop o=0 transfers=1 L1=1e-6,1e-11\n"
      "level 1 taulop o=0 transfers=1 L1=1e-6,1e-10\n",
      tree);
  auto up_fast =
      PredictPhaseTimes(Model::kTauLop, fast, tree, flow, kTwoMachines, uplink);
  EXPECT_NEAR((*up_fast)[0], 1.16e-6 * (1 + 0.16 / 1.32), 1e-18);
}

TEST(PredictTime, Wave2DFrontEndLayoutGivesTheSameTauLopCost) {
  // The same layout as a column-based tiling of the stencil front end: 4
  // columns of width 200, each holding process c (rows 0-99) above process c +
  // 4 (rows 100-199).
  tiling::ColumnTiling layout;
  layout.rows = 200;
  layout.cols = 800;
  for (int c = 0; c < 4; ++c)
    layout.columns.push_back({200, {{c, 100}, {c + 4, 100}}});
  auto part = tiling::ColumnTilingPartition(layout);
  ASSERT_THAT(part, IsOk());
  auto msgs = graphs::HaloMessages(*part, {}, graphs::Stencil::k5Point);
  ASSERT_THAT(msgs, IsOk());
  auto flow = HaloMessagesFlow(*msgs, 8, 8.0, 50);
  ASSERT_THAT(flow, IsOk());
  const topology::Tree tree = testing::MakeTleaf("2 2 1000 4 1");
  const ModelParams p = Params(
      "level 0 taulop o=0 transfers=1 L1=1e-6,2e-10\n"
      "level 1 taulop o=0 transfers=1 L1=1e-6,1e-10\n",
      tree);
  // Theta of the hand calculation in Wave2DTauLopEquations3And4ByHand.
  EXPECT_NEAR(*PredictTime(Model::kTauLop, p, tree, *flow, kTwoMachines),
              50 * 1.64e-6 * (1 + 0.64 / 2.28), 1e-16);
}

TEST(PredictTime, HeterogeneousColumnTilingMatchesPerProcessSums) {
  // Three columns of unequal widths and heights (a FuPerMod-style Wave2D
  // partition); the point-to-point models' phase time is recomputed
  // independently from the front end's messages: max over senders of the sum of
  // their message times.
  tiling::ColumnTiling layout;
  layout.rows = 90;
  layout.cols = 120;
  layout.columns = {{30, {{0, 50}, {1, 40}}},
                    {50, {{2, 20}, {3, 30}, {4, 40}}},
                    {40, {{5, 45}, {6, 30}, {7, 15}}}};
  auto part = tiling::ColumnTilingPartition(layout);
  ASSERT_THAT(part, IsOk());
  auto msgs = graphs::HaloMessages(*part, {}, graphs::Stencil::k5Point);
  ASSERT_THAT(msgs, IsOk());
  auto flow = HaloMessagesFlow(*msgs, 8, 8.0);
  ASSERT_THAT(flow, IsOk());
  const topology::Tree tree = testing::MakeTleaf("3 2 1000 2 100 2 1");
  const ModelParams p = DefaultModelParams(tree);
  const Mapping m = {5, 0, 7, 2, 1, 6, 3, 4};
  for (Model model : {Model::kHockney, Model::kLmo, Model::kHLogGP}) {
    std::vector<double> per(8, 0.0);
    for (const graphs::HaloMessage& msg : *msgs) {
      const ChannelParams& c =
          p.levels[tree.depth(tree.Lca(m[msg.src], m[msg.dst]))];
      const double bytes = 8.0 * msg.cells;
      per[msg.src] +=
          model == Model::kHockney ? c.hockney.alpha + c.hockney.beta * bytes
          : model == Model::kLmo
              ? c.lmo.L + c.lmo.Cs + c.lmo.Cr + bytes * (c.lmo.ts + c.lmo.tr) +
                    bytes / c.lmo.rate
              : c.hloggp.L + c.hloggp.os + c.hloggp.orecv +
                    (bytes - 1) * c.hloggp.G;
    }
    EXPECT_NEAR(*PredictTime(model, p, tree, *flow, m),
                *std::max_element(per.begin(), per.end()), 1e-15)
        << ModelName(model);
  }
}

TEST(PredictTime, Wave2DHLogGPEquations6And7ByHand) {
  const topology::Tree tree = testing::MakeTleaf("2 2 1000 4 1");
  const ModelParams p = Params(
      "level 0 hloggp L=5e-6 os=1e-7 or=1e-7 G=1e-9\n"
      "level 1 hloggp L=1e-6 os=1e-7 or=1e-7 G=1e-10\n",
      tree);
  // Eq. 5: T_intra(800)  = 1.2e-6 + 799e-10  = 1.2799e-6
  //        T_intra(1600) = 1.2e-6 + 1599e-10 = 1.3599e-6
  //        T_inter(800)  = 5.2e-6 + 799e-9   = 5.999e-6
  // Eq. 6: p1 sends to 0 (intra, 800), 2 (inter, 800), 5 (intra, 1600):
  //   Theta_1 = 1.2799e-6 + 5.999e-6 + 1.3599e-6 = 8.6388e-6 (p2, p5, p6 too)
  //   Theta_0 = 1.2799e-6 + 1.3599e-6 = 2.6398e-6 (p3, p4, p7 too)
  // Eq. 7: Theta = 8.6388e-6.
  auto t = PredictTime(Model::kHLogGP, p, tree, HaloFlow(Wave2DLayout(), 10),
                       kTwoMachines);
  ASSERT_THAT(t, IsOk());
  EXPECT_NEAR(*t, 10 * 8.6388e-6, 1e-17);
}

TEST(PredictTime, HockneyEqualsIndependentRecomputation) {
  const topology::Tree tree = testing::MakeTleaf("3 2 1000 2 100 4 1");
  const ModelParams p = DefaultModelParams(tree);
  const graphs::CommGraph g = testing::MakeRandomGraph(16, 3, 7);
  const std::vector<int32_t> perm = testing::RandomPermutation(16, 9);
  const Mapping m(perm.begin(), perm.end());
  std::vector<double> per(16, 0.0);
  for (int u = 0; u < 16; ++u) {
    for (size_t k = 0; k < g.neighbors(u).size(); ++k) {
      const int d = tree.depth(tree.Lca(m[u], m[g.neighbors(u)[k]]));
      per[u] += p.levels[d].hockney.alpha +
                p.levels[d].hockney.beta * g.weights(u)[k] / 2;
    }
  }
  auto t = PredictTime(Model::kHockney, p, tree, HaloFlow(g), m);
  ASSERT_THAT(t, IsOk());
  EXPECT_NEAR(*t, *std::max_element(per.begin(), per.end()), 1e-15);
}

TEST(PredictTime, SummaRingAndBinomialByHand) {
  // 1 x 4 grid: only row broadcasts (B panels have nobody to go to). Hockney 1
  // + 1/byte on every level. Binomial: 2 stages, each process sends one 10-byte
  // panel per stage at most: 11 + 11 = 22 per step. Ring: 3 stages of 11. Flat:
  // the root sends 3 panels in one phase: 33.
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const ModelParams p = Params("level * hockney alpha=1 beta=1", tree);
  const Mapping m = {0, 1, 2, 3};
  const double want[] = {33, 22, 33};
  int i = 0;
  for (Broadcast b :
       {Broadcast::kFlat, Broadcast::kBinomial, Broadcast::kRing}) {
    SummaFlowOptions o;
    o.grid_rows = 1;
    o.grid_cols = 4;
    o.steps = 2;
    o.a_panel_bytes = 10;
    o.b_panel_bytes = 5;
    o.broadcast = b;
    auto t = PredictTime(Model::kHockney, p, tree, *SummaFlow(o), m);
    ASSERT_THAT(t, IsOk());
    EXPECT_DOUBLE_EQ(*t, 2 * want[i++]);
  }
}

TEST(PredictTime, PairCostsScaleThePerByteTerms) {
  // Three clusters of two leaves; cluster pair costs 1 (0-1), 4 (0-2), 2 (1-2).
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network");
  for (int c = 0; c < 3; ++c) {
    const auto cl = b.AddChild(root, "Machine");
    b.AddChild(cl, "PU");
    b.AddChild(cl, "PU");
  }
  b.SetPairCosts(root, {0, 1, 4, 1, 0, 2, 4, 2, 0});
  auto tree = std::move(b).Build();
  ASSERT_THAT(tree, IsOk());
  const ModelParams p = Params("level 0 hockney alpha=1 beta=1", *tree);
  // Leaves 0-1 cluster 0, 2-3 cluster 1, 4-5 cluster 2. 100 bytes: slowest pair
  // 1 + 100; cluster 0 to 1 is 4 times faster per byte: 1 + 25; 1 to 2: 1 + 50.
  EXPECT_DOUBLE_EQ(
      *PredictTime(Model::kHockney, p, *tree, OneMessage(100), {0, 4}), 101);
  EXPECT_DOUBLE_EQ(
      *PredictTime(Model::kHockney, p, *tree, OneMessage(100), {0, 2}), 26);
  EXPECT_DOUBLE_EQ(
      *PredictTime(Model::kHockney, p, *tree, OneMessage(100), {3, 5}), 51);
}

TEST(PredictTime, SameLeafUsesSelfChannel) {
  const topology::Tree base = testing::MakeTleaf("2 2 10 2 1");
  auto tree = base.WithCapacities({2, 1, 1, 1});
  ASSERT_THAT(tree, IsOk());
  const ModelParams p = Params("level self hockney alpha=3 beta=0", *tree);
  EXPECT_DOUBLE_EQ(
      *PredictTime(Model::kHockney, p, *tree, OneMessage(100), {0, 0}), 3);
  EXPECT_DOUBLE_EQ(
      *PredictTime(Model::kTauLop, p, *tree, OneMessage(100), {0, 0}),
      TauLopTime(p.self.taulop, 100, 1));
}

TEST(PredictTime, SharedLeavesForNToOneMappings) {
  // Three processes on two leaves of capacity 1: refused unless the caller
  // says the mapping is n-to-1; then 0 -> 1 shares a leaf (self) and
  // 1 -> 2 crosses the root.
  const topology::Tree tree = testing::MakeTleaf("1 2 1");
  const ModelParams p = Params(
      "level self hockney alpha=3 beta=0\nlevel 0 hockney alpha=5 beta=1",
      tree);
  Flow f;
  f.num_processes = 3;
  f.phases.push_back(Phase{{{0, 1, 10}, {1, 2, 10}}, 1});
  EXPECT_THAT(PredictTime(Model::kHockney, p, tree, f, {0, 0, 1}), Not(IsOk()));
  PredictOptions o;
  o.shared_leaves = true;
  // Sum per sender, max over senders: max(3, 5 + 10).
  EXPECT_DOUBLE_EQ(*PredictTime(Model::kHockney, p, tree, f, {0, 0, 1}, o), 15);
  EXPECT_THAT(PredictTime(Model::kHockney, p, tree, f, {0, 0, 2}, o),
              Not(IsOk()));
  EXPECT_THAT(PredictTime(Model::kHockney, p, tree, f, {0, 0}, o), Not(IsOk()));
}

TEST(PredictTime, RejectsMismatchedInputs) {
  const topology::Tree tree = testing::MakeTleaf("2 2 10 2 1");
  const ModelParams p = DefaultModelParams(tree);
  const ModelParams other =
      DefaultModelParams(testing::MakeTleaf("3 2 10 2 5 2 1"));
  for (Model model : kAllModels) {
    EXPECT_THAT(PredictTime(model, p, tree, OneMessage(1), {0, 1}), IsOk());
    EXPECT_THAT(PredictTime(model, other, tree, OneMessage(1), {0, 1}),
                Not(IsOk()));
    EXPECT_THAT(PredictTime(model, p, tree, OneMessage(1), {0}), Not(IsOk()));
    EXPECT_THAT(PredictTime(model, p, tree, OneMessage(1), {0, 0}),
                Not(IsOk()));  // capacity 1
    EXPECT_THAT(PredictTime(model, p, tree, OneMessage(-1), {0, 1}),
                Not(IsOk()));
  }
}

// Random parameters that are no larger at deeper levels: every parameter is
// drawn for each of the channels and sorted so that the network gets the
// largest and self the smallest value.
ModelParams RandomMonotoneParams(const topology::Tree& tree,
                                 std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int levels = tree.height() + 1;  // depths, then self
  auto draw = [&](double scale) {
    std::vector<double> v(levels);
    for (double& x : v) x = scale * u(rng);
    std::sort(v.rbegin(), v.rend());
    return v;
  };
  const int k = 1 + static_cast<int>(rng() % 3);
  ModelParams p = DefaultModelParams(tree);
  std::vector<std::vector<double>> cols;
  const double scales[] = {1e-6, 1e-9,  1e-6, 1e-6, 1e-10,
                           1e-6, 1e-10, 1e-9,              // Hockney, LMO
                           1e-6, 1e-7,  1e-7, 1e-6, 1e-9,  // HLogGP
                           1e-7, 1e-11};                   // tau-Lop o
  for (double s : scales) cols.push_back(draw(s));
  std::vector<std::vector<double>> lat(k), pb(k);
  for (int j = 0; j < k; ++j) {
    lat[j] = draw(1e-6);
    pb[j] = draw(1e-9);
  }
  for (int d = 0; d < levels; ++d) {
    ChannelParams& c = d < tree.height() ? p.levels[d] : p.self;
    int i = 0;
    c.hockney = {cols[i++][d], cols[i++][d]};
    c.lmo.L = cols[i++][d];
    c.lmo.Cs = cols[i++][d];
    c.lmo.ts = cols[i++][d];
    c.lmo.Cr = cols[i++][d];
    c.lmo.tr = cols[i++][d];
    c.lmo.rate = 1.0 / (1e-12 + cols[i++][d]);
    c.hloggp = {cols[i][d], cols[i + 1][d], cols[i + 2][d], cols[i + 3][d],
                cols[i + 4][d]};
    i += 5;
    c.taulop.o = cols[i++][d];
    c.taulop.o_per_byte = cols[i++][d];
    c.taulop.transfers = 1;
    c.taulop.table.clear();
    // Non-decreasing in tau: cumulative sums across the table.
    double l = 0, b = 0;
    for (int j = 0; j < k; ++j) {
      l += lat[j][d];
      b += pb[j][d];
      c.taulop.table.push_back({l, b});
    }
  }
  return p;
}

// Property: a pair that talks only to each other, moved from two different
// machines into an otherwise idle socket, never makes the predicted time
// larger, under every model.
TEST(PredictTime, MovingHeavyPairIntoIdleSocketNeverIncreasesTime) {
  // switch -> 4 Machines -> 2 Packages -> 4 Cores: 32 leaves; Package 0 of
  // Machine 0 (leaves 0-3) is kept idle for the move.
  topology::TreeBuilder tb;
  const auto root = tb.AddRoot("switch");
  for (int m = 0; m < 4; ++m) {
    const auto machine = tb.AddChild(root, "Machine");
    for (int s = 0; s < 2; ++s) {
      const auto pack = tb.AddChild(machine, "Package");
      for (int c = 0; c < 4; ++c) tb.AddChild(pack, "Core");
    }
  }
  const topology::Tree tree = *std::move(tb).Build();
  std::mt19937_64 rng(2024);
  int trials = 0;
  for (int trial = 0; trial < 60; ++trial) {
    // 20 background processes with random traffic, plus a = 20 and b = 21.
    const graphs::CommGraph bg = testing::MakeRandomGraph(20, 3, 100 + trial);
    graphs::CommGraphBuilder gb(22);
    for (int u = 0; u < 20; ++u) {
      for (size_t k = 0; k < bg.neighbors(u).size(); ++k) {
        ASSERT_THAT(gb.AddEdge(u, bg.neighbors(u)[k], 1e3 * bg.weights(u)[k]),
                    IsOk());
      }
    }
    ASSERT_THAT(gb.AddEdge(20, 21, 1e6 + 1e5 * trial), IsOk());
    const Flow flow = HaloFlow(*std::move(gb).Build());
    // Background on random leaves 4-31; a and b on random free leaves of
    // different machines.
    std::vector<LeafId> free;
    for (LeafId l = 4; l < 32; ++l) free.push_back(l);
    std::shuffle(free.begin(), free.end(), rng);
    Mapping before(free.begin(), free.begin() + 20);
    std::vector<LeafId> rest(free.begin() + 20, free.end());
    LeafId la = rest[0], lb = -1;
    for (LeafId l : rest) {
      if (l / 8 != la / 8) lb = l;
    }
    if (lb < 0)
      continue;  // every free leaf on one machine: no "different nodes" start
    before.push_back(la);
    before.push_back(lb);
    Mapping after = before;
    after[20] = 0;
    after[21] = 1;
    const ModelParams p = RandomMonotoneParams(tree, rng);
    for (Model model : kAllModels) {
      auto t0 = PredictTime(model, p, tree, flow, before);
      auto t1 = PredictTime(model, p, tree, flow, after);
      ASSERT_THAT(t0, IsOk());
      ASSERT_THAT(t1, IsOk());
      EXPECT_LE(*t1, *t0 * (1 + 1e-12))
          << ModelName(model) << " trial " << trial;
    }
    PredictOptions uplink;
    uplink.sharing = TauLopSharing::kPerSenderUplink;
    auto u0 = PredictTime(Model::kTauLop, p, tree, flow, before, uplink);
    auto u1 = PredictTime(Model::kTauLop, p, tree, flow, after, uplink);
    ASSERT_THAT(u0, IsOk());
    ASSERT_THAT(u1, IsOk());
    EXPECT_LE(*u1, *u0 * (1 + 1e-12)) << "taulop uplink trial " << trial;
    ++trials;
  }
  EXPECT_GT(trials, 50);
}

}  // namespace
}  // namespace rankmap::models
