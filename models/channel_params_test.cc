#include "models/channel_params.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"
#include "topology/topology.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

// switch -> 2 Machines -> 2 Packages each -> 2 Cores each (the Cores are the
// leaves).
topology::Tree ClusterTree() {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("switch");
  for (int m = 0; m < 2; ++m) {
    const auto machine = b.AddChild(root, "Machine");
    for (int s = 0; s < 2; ++s) {
      const auto pack = b.AddChild(machine, "Package");
      for (int c = 0; c < 2; ++c) b.AddChild(pack, "Core");
    }
  }
  return *std::move(b).Build();
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(ParseModel, NamesRoundTrip) {
  for (Model m :
       {Model::kHockney, Model::kLmo, Model::kHLogGP, Model::kTauLop}) {
    EXPECT_EQ(*ParseModel(ModelName(m)), m);
  }
  EXPECT_EQ(*ParseModel("TauLop"), Model::kTauLop);
  EXPECT_THAT(ParseModel("loggp"), Not(IsOk()));
}

TEST(DefaultModelParams, ClassesFollowKinds) {
  const topology::Tree t = ClusterTree();
  const ModelParams p = DefaultModelParams(t);
  ASSERT_EQ(p.levels.size(), 3u);
  // depth 0 joins machines (network), 1 joins packages of a machine, 2 cores of
  // a package.
  EXPECT_DOUBLE_EQ(p.levels[0].hockney.alpha, 1.5e-6);
  EXPECT_DOUBLE_EQ(p.levels[0].hockney.beta, 8e-10);
  EXPECT_DOUBLE_EQ(p.levels[1].hockney.alpha, 5e-7);
  EXPECT_DOUBLE_EQ(p.levels[2].hockney.alpha, 3e-7);
  EXPECT_DOUBLE_EQ(p.self.hockney.alpha, 2e-7);
  // Every model of a class agrees with Hockney on a single message.
  for (const ChannelParams& c : p.levels) {
    const double m = 1e6;
    const double h = c.hockney.alpha + c.hockney.beta * m;
    const auto& l = c.lmo;
    EXPECT_NEAR(l.L + l.Cs + l.Cr + m * (l.ts + l.tr) + m / l.rate, h,
                1e-12 * h);
    const auto& g = c.hloggp;
    EXPECT_NEAR(g.L + g.os + g.orecv + (m - 1) * g.G, h - c.hockney.beta,
                1e-12 * h);
    const auto& tl = c.taulop;
    EXPECT_NEAR(
        tl.o + tl.transfers * (tl.table[0].latency + m * tl.table[0].per_byte),
        h, 1e-12 * h);
  }
}

TEST(DefaultModelParams, TleafClassifiedFromTheBottom) {
  // 4 levels: depth 3 = cache, 2 = socket, 1 = node, 0 = network.
  const ModelParams p =
      DefaultModelParams(testing::MakeTleaf("4 2 1000 2 100 2 10 2 1"));
  ASSERT_EQ(p.levels.size(), 4u);
  EXPECT_DOUBLE_EQ(p.levels[0].hockney.alpha, 1.5e-6);
  EXPECT_DOUBLE_EQ(p.levels[1].hockney.alpha, 5e-7);
  EXPECT_DOUBLE_EQ(p.levels[2].hockney.alpha, 3e-7);
  EXPECT_DOUBLE_EQ(p.levels[3].hockney.alpha, 2e-7);
}

TEST(ResolveModelParams, RulesApplyBySelectorInOrder) {
  const topology::Tree t = ClusterTree();
  const char* text =
      "# calibrated\n"
      "level * hockney alpha=1 beta=2\n"
      "level internode hockney beta=3   # network only\n"
      "level Package lmo L=1 C=2 t=3 rate=4\n"
      "level 1 hloggp L=1 os=2 or=3 g=4 G=5\n"
      "level self taulop o=1 transfers=2 L1=1,2 L2=3,4\n"
      "level socket hockney alpha=7\n";
  auto rules = ParseModelParams(text, "p.txt");
  ASSERT_THAT(rules, IsOk());
  ASSERT_EQ(rules->size(), 6u);
  EXPECT_EQ((*rules)[1].line, 3);
  auto p = ResolveModelParams(*rules, t);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->levels[0].hockney.alpha, 1);
  EXPECT_EQ(p->levels[0].hockney.beta, 3);
  EXPECT_EQ(p->levels[1].hockney.beta, 2);
  EXPECT_EQ(p->levels[2].hockney.alpha, 7);  // Packages sit at depth 2
  EXPECT_EQ(p->self.hockney.alpha, 1);
  const LmoParams& l = p->levels[2].lmo;
  EXPECT_EQ(l.L, 1);
  EXPECT_EQ(l.Cs, 2);
  EXPECT_EQ(l.Cr, 2);
  EXPECT_EQ(l.ts, 3);
  EXPECT_EQ(l.tr, 3);
  EXPECT_EQ(l.rate, 4);
  const HLogGPParams& g = p->levels[1].hloggp;
  EXPECT_EQ(g.L + 10 * g.os + 100 * g.orecv + 1000 * g.g + 10000 * g.G, 54321);
  const TauLopParams& tl = p->self.taulop;
  EXPECT_EQ(tl.o, 1);
  EXPECT_EQ(tl.transfers, 2);
  ASSERT_EQ(tl.table.size(), 2u);
  EXPECT_EQ(tl.table[1].latency, 3);
  EXPECT_EQ(tl.table[1].per_byte, 4);
  // Untouched channels keep their defaults.
  EXPECT_EQ(p->levels[0].lmo.L, DefaultModelParams(t).levels[0].lmo.L);
}

TEST(ParseModelParams, ErrorsNameFileLineAndField) {
  struct Case {
    const char* text;
    const char* want;
  };
  const Case cases[] = {
      {"levle 0 hockney alpha=1",
       "p.txt:1: expected 'level', 'proc' or 'pair', found 'levle'"},
      {"\nlevel 0", "p.txt:2: expected 'level <selector> <model>"},
      {"level 0 loggp alpha=1",
       "p.txt:1: field 'model': unknown model 'loggp'"},
      {"level 0 hockney alfa=1", "p.txt:1: field 'alfa': unknown hockney key"},
      {"level 0 hockney alpha", "p.txt:1: field 'alpha': expected key=value"},
      {"level 0 hockney alpha=x",
       "p.txt:1: field 'alpha': 'x' is not a finite"},
      {"level * hockney alpha=1e300 beta=1e-9",
       "p.txt:1: field 'alpha': 1e+300 is above 1e+06 s"},
      {"level 0 lmo ts=2000",
       "p.txt:1: field 'ts': 2000 is above 1000 s per byte"},
      {"level 0 taulop L1=1e-6,5e3",
       "p.txt:1: field 'L1': 5000 is above 1000 s per byte"},
      {"level 0 lmo rate=0.5", "p.txt:1: field 'rate': 0.5 is below 1 byte/s"},
      {"level 0 hockney beta=-1",
       "p.txt:1: field 'beta': '-1' is not a finite"},
      {"level 0 hockney beta=nan", "p.txt:1: field 'beta'"},
      {"level 0 lmo rate=0", "p.txt:1: field 'rate': must be > 0"},
      {"level 0 taulop transfers=1.5", "p.txt:1: field 'transfers'"},
      {"level 0 taulop L1=1", "p.txt:1: field 'L1': expected 2 values"},
      {"level 0 taulop L0=1,1", "p.txt:1: field 'L0': unknown taulop key"},
      {"level 0 taulop L2000=1,1", "p.txt:1: field 'L2000': table index"},
      {"level 0 hockney alpha=1,2", "p.txt:1: field 'alpha': expected 1 value"},
  };
  for (const Case& c : cases) {
    auto r = ParseModelParams(c.text, "p.txt");
    ASSERT_THAT(r, Not(IsOk())) << c.text;
    EXPECT_THAT(Message(r.status()), HasSubstr(c.want)) << c.text;
  }
}

TEST(ResolveModelParams, ErrorsNameFileLine) {
  const topology::Tree t = ClusterTree();
  struct Case {
    const char* text;
    const char* want;
  };
  const Case cases[] = {
      {"level 3 hockney alpha=1",
       "p.txt:1: field 'selector': depth 3 outside [0, 3)"},
      {"\n\nlevel NUMANode hockney alpha=1",
       "p.txt:3: field 'selector': no level of kind"},
      {"level 0 taulop L3=1,1",
       "p.txt:1: field 'L3': tau-Lop table has no entry L2"},
  };
  for (const Case& c : cases) {
    auto rules = ParseModelParams(c.text, "p.txt");
    ASSERT_THAT(rules, IsOk());
    auto r = ResolveModelParams(*rules, t);
    ASSERT_THAT(r, Not(IsOk())) << c.text;
    EXPECT_THAT(Message(r.status()), HasSubstr(c.want)) << c.text;
  }
  // internode on a tree without network levels selects nothing, silently.
  auto rules = ParseModelParams("level internode hockney alpha=9", "p.txt");
  auto r = ResolveModelParams(*rules, testing::MakeTleaf("2 2 10 2 1"));
  ASSERT_THAT(r, IsOk());
  EXPECT_NE(r->levels[0].hockney.alpha, 9);
}

TEST(ResolveModelParams, CalibratedRulesReachANetworkSpec) {
  // What examples/calibrate_mpi writes: internode, intranode and a kind.
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string path = std::string(tmp) + "/two.net";
  std::ofstream(path) << "network\ncluster a\n2 x tleaf 1 4 1\n"
                         "cluster b\n2 x tleaf 1 4 1\n";
  auto t = topology::LoadTopology(path);
  ASSERT_THAT(t, IsOk());
  auto rules = ParseModelParams(
      "level internode hockney alpha=2e-6 beta=1e-9\n"
      "level intranode hockney alpha=1e-7 beta=1e-10\n",
      "calibrated.params");
  ASSERT_THAT(rules, IsOk());
  auto p = ResolveModelParams(*rules, *t);
  ASSERT_THAT(p, IsOk());
  ASSERT_EQ(p->levels.size(), 3u);
  for (int d : {0, 1}) {
    EXPECT_EQ(p->levels[d].hockney.alpha, 2e-6) << d;
    EXPECT_EQ(p->levels[d].hockney.beta, 1e-9) << d;
  }
  EXPECT_EQ(p->levels[2].hockney.alpha, 1e-7);
  EXPECT_EQ(p->self.hockney.alpha, 1e-7);
  // Without rules the clusters get the network defaults, not a node's.
  EXPECT_EQ(DefaultModelParams(*t).levels[0].hockney.alpha, 1.5e-6);
  EXPECT_EQ(DefaultModelParams(*t).levels[2].hockney.alpha, 5e-7);
}

TEST(ResolveModelParams, KindsInsideMergedKinds) {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("Machine+Package+NUMANode+L3Cache", 1);
  b.AddChild(root, "L2Cache+L1Cache+Core+PU");
  b.AddChild(root, "L2Cache+L1Cache+Core+PU");
  const topology::Tree t = *std::move(b).Build();
  for (const char* sel : {"Package", "numa", "node", "Machine", "socket"}) {
    auto rules = ParseModelParams(
        absl::StrCat("level ", sel, " hockney alpha=1 beta=0"), "p.txt");
    ASSERT_THAT(rules, IsOk());
    auto p = ResolveModelParams(*rules, t);
    ASSERT_THAT(p, IsOk()) << sel << ": " << p.status();
    EXPECT_EQ(p->levels[0].hockney.alpha, 1) << sel;
  }
  auto rules = ParseModelParams("level cluster hockney alpha=1", "p.txt");
  auto p = ResolveModelParams(*rules, t);
  ASSERT_THAT(p, Not(IsOk()));
  EXPECT_THAT(Message(p.status()),
              HasSubstr("no level of kind or class 'cluster' in this tree "
                        "(levels: Machine+Package+NUMANode+L3Cache (depth "
                        "0))"));
}

TEST(FormatParamRule, RoundTripsEveryModel) {
  const topology::Tree t = ClusterTree();
  ChannelParams c;
  c.hockney = {1.25e-6, 3.0e-10};
  c.lmo = {1e-6, 2e-7, 3e-11, 4e-7, 5e-11, 6e9};
  c.hloggp = {1.5e-6, 1e-7, 2e-7, 3e-7, 4e-10};
  c.taulop = {
      1e-7, 1e-12, 2, {{2e-7, 1e-10}, {2.5e-7, 1.7e-10}, {3e-7, 2.9e-10}}};
  std::string text;
  for (Model m :
       {Model::kHockney, Model::kLmo, Model::kHLogGP, Model::kTauLop}) {
    text += FormatParamRule("Package", m, c) + "\n";
  }
  auto rules = ParseModelParams(text, "gen");
  ASSERT_THAT(rules, IsOk()) << rules.status() << "\n" << text;
  auto p = ResolveModelParams(*rules, t);
  ASSERT_THAT(p, IsOk());
  const ChannelParams& r = p->levels[2];
  EXPECT_EQ(r.hockney.alpha, c.hockney.alpha);
  EXPECT_EQ(r.hockney.beta, c.hockney.beta);
  EXPECT_EQ(r.lmo.rate, c.lmo.rate);
  EXPECT_EQ(r.lmo.tr, c.lmo.tr);
  EXPECT_EQ(r.hloggp.G, c.hloggp.G);
  EXPECT_EQ(r.hloggp.orecv, c.hloggp.orecv);
  EXPECT_EQ(r.taulop.transfers, 2);
  ASSERT_EQ(r.taulop.table.size(), 3u);
  EXPECT_EQ(r.taulop.table[2].per_byte, 2.9e-10);
  EXPECT_EQ(r.taulop.o_per_byte, 1e-12);
}

TEST(ReadModelParams, ReadsFileAndReportsMissingFile) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(tmp != nullptr ? tmp : "/tmp") + "/model.params";
  {
    std::ofstream out(path);
    out << "level Machine hockney alpha=4e-7 beta=1e-10\nlevel Machine hockney "
           "beta=x\n";
  }
  const topology::Tree t = ClusterTree();
  auto bad = ReadModelParams(path, t);
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_THAT(Message(bad.status()), HasSubstr(path + ":2: field 'beta'"));
  {
    std::ofstream out(path);
    out << "level Machine hockney alpha=4e-7 beta=1e-10\n";
  }
  auto ok = ReadModelParams(path, t);
  ASSERT_THAT(ok, IsOk());
  EXPECT_EQ(ok->levels[1].hockney.alpha, 4e-7);
  EXPECT_THAT(ReadModelParams(path + ".missing", t), Not(IsOk()));
}

// Seed 004 section 2: per-processor (C_i, t_i; o_Si, o_Ri, g_i) and per-pair
// (L_ij, beta_ij; L_ij, G_ij) values, by leaf index or host:os.
TEST(PointRules, ParseResolveAndFormat) {
  // Hosts n0, n1 of two PUs each, os indexes 0 and 2.
  const topology::Tree t = testing::MakeHostsTree(2, 2);
  auto rules = ParseModelParams(
      "proc n0:2 lmo C=1e-6 t=2e-9\n"
      "proc n1 hloggp os=3e-6 or=4e-6 g=5e-6\n"
      "pair 0 n1 lmo L=7e-6 rate=1e8\n"
      "pair 3 2 hloggp L=8e-6 G=9e-9\n",
      "pp.params");
  ASSERT_THAT(rules, IsOk());
  EXPECT_EQ((*rules)[2].keyword, "pair");
  EXPECT_EQ((*rules)[2].processors, (std::vector<std::string>{"0", "n1"}));
  auto p = ResolveModelParams(*rules, t);
  ASSERT_THAT(p, IsOk());
  const PointParams& pts = p->points;
  ASSERT_NE(pts.FindProcessor(1), nullptr);  // n0:2 is leaf 1
  EXPECT_EQ(pts.FindProcessor(0), nullptr);
  EXPECT_EQ(*pts.FindProcessor(1)->lmo_c, 1e-6);
  EXPECT_EQ(*pts.FindProcessor(3)->hloggp_g, 5e-6);
  EXPECT_FALSE(pts.FindProcessor(3)->lmo_c.has_value());
  EXPECT_EQ(*pts.FindPair(2, 0)->lmo_rate, 1e8);  // 0 with both leaves of n1
  EXPECT_EQ(*pts.FindPair(0, 3)->lmo_l, 7e-6);
  EXPECT_EQ(*pts.FindPair(2, 3)->hloggp_G, 9e-9);
  EXPECT_EQ(pts.FindPair(0, 1), nullptr);
  // Formatting round-trips.
  const std::string line =
      FormatProcessorRule("n0:2", Model::kLmo, *pts.FindProcessor(1));
  EXPECT_EQ(line,
            "proc n0:2 lmo C=9.9999999999999995e-07 t=2.0000000000000001e-09");
  const std::string pair =
      FormatPairRule("0", "n1", Model::kLmo, *pts.FindPair(0, 2));
  auto again = ParseModelParams(line + "\n" + pair + "\n", "again");
  ASSERT_THAT(again, IsOk());
  auto q = ResolveModelParams(*again, t);
  ASSERT_THAT(q, IsOk());
  EXPECT_EQ(*q->points.FindProcessor(1), *pts.FindProcessor(1));
  EXPECT_EQ(*q->points.FindPair(0, 3), *pts.FindPair(0, 3));
}

TEST(PointRules, Errors) {
  const topology::Tree t = ClusterTree();
  auto parse_error = [](const char* text) {
    auto r = ParseModelParams(text, "e.params");
    EXPECT_THAT(r, Not(IsOk())) << text;
    return Message(r.status());
  };
  EXPECT_EQ(parse_error("proc 0 hockney alpha=1\n"),
            "e.params:1: field 'model': proc rules take lmo or hloggp, not "
            "hockney");
  EXPECT_EQ(parse_error("proc 0 lmo L=1\n"),
            "e.params:1: field 'L': unknown lmo key for a proc rule");
  EXPECT_EQ(parse_error("pair 0 1 hloggp os=1\n"),
            "e.params:1: field 'os': unknown hloggp key for a pair rule");
  EXPECT_EQ(parse_error("pair 0 1 taulop o=1\n"),
            "e.params:1: field 'model': pair rules take lmo or hloggp, not "
            "taulop");
  EXPECT_EQ(parse_error("pair 0\n"),
            "e.params:1: expected 'pair <processor> <processor> <model> "
            "key=value ...'");
  EXPECT_EQ(parse_error("proc 0 lmo rate=1\n"),
            "e.params:1: field 'rate': unknown lmo key for a proc rule");
  EXPECT_EQ(parse_error("node 0 lmo C=1\n"),
            "e.params:1: expected 'level', 'proc' or 'pair', found 'node'");
  auto resolve_error = [&t](const char* text) {
    auto r = ParseModelParams(text, "e.params");
    EXPECT_THAT(r, IsOk());
    auto p = ResolveModelParams(*r, t);
    EXPECT_THAT(p, Not(IsOk())) << text;
    return Message(p.status());
  };
  EXPECT_EQ(resolve_error("proc 8 lmo C=1\n"),
            "e.params:1: field 'processor': processor 8 outside the leaves [0, "
            "8) of this tree");
  EXPECT_EQ(resolve_error("proc x:1 lmo C=1\n"),
            "e.params:1: field 'processor': no leaf of this tree is processor "
            "'x:1'");
  EXPECT_EQ(resolve_error("pair 2 2 lmo L=1\n"),
            "e.params:1: field 'processor': leaf 2 paired with itself");
}

TEST(ChannelParams, DefaultsFromLinks) {
  // 2 hosts of 2 cores: host links 1 GB/s and 10 us, loopbacks 10 GB/s, 1 us.
  auto t = topology::ParseTleaf("tleaf 2 2 1GBps:10us 2 10GBps:1us");
  ASSERT_THAT(t, IsOk());
  const ModelParams p = DefaultModelParams(*t);
  ASSERT_EQ(p.levels.size(), 2u);
  // Across hosts: both host links, 20 us and 1 ns per byte.
  EXPECT_DOUBLE_EQ(p.levels[0].hockney.alpha, 20e-6);
  EXPECT_DOUBLE_EQ(p.levels[0].hockney.beta, 1e-9);
  EXPECT_DOUBLE_EQ(p.levels[0].lmo.rate, 1.0 / (0.8 * 1e-9));
  // Inside a host and on one leaf: the loopback.
  EXPECT_DOUBLE_EQ(p.levels[1].hockney.alpha, 1e-6);
  EXPECT_DOUBLE_EQ(p.levels[1].hockney.beta, 1e-10);
  EXPECT_DOUBLE_EQ(p.self.hockney.alpha, 1e-6);
  EXPECT_EQ(p.levels[0].taulop.transfers, 1);
  EXPECT_EQ(p.levels[1].taulop.transfers, 2);
}

}  // namespace
}  // namespace rankmap::models
