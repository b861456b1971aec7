#include "topology/tleaf.h"

#include <fstream>
#include <random>
#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/topology.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Msg(const absl::Status& s) { return std::string(s.message()); }

TEST(Tleaf, ParsesTheMixedRadixTree) {
  auto t = ParseTleaf("tleaf 3 2 100 4 10 8 1");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 64);
  EXPECT_THAT(t->Arities(), ElementsAre(2, 4, 8));
  // Leaf (i1, i2, i3) = (i1 * 4 + i2) * 8 + i3.
  EXPECT_EQ(t->Distance(0, 7), 1.0);      // same level-2 node
  EXPECT_EQ(t->Distance(7, 8), 11.0);     // (0,0,7) vs (0,1,0)
  EXPECT_EQ(t->Distance(31, 32), 111.0);  // (0,3,7) vs (1,0,0)
  EXPECT_EQ(t->Distance(33, 63), 11.0);
  EXPECT_EQ(t->depth(t->Lca(33, 63)), 1);
}

TEST(Tleaf, ScotchMultiLineFormAndRealCosts) {
  auto t = ParseTleaf("tleaf\n2\t4 2.5\n  2 0.5\n");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 8);
  EXPECT_EQ(t->Distance(0, 1), 0.5);
  EXPECT_EQ(t->Distance(0, 2), 3.0);
}

TEST(Tleaf, RoundTripIsIdentical) {
  for (const char* s :
       {"tleaf 3 2 100 4 10 8 1", "tleaf 1 16 1", "tleaf 2 4 0.5 2 0.1",
        "tleaf 4 16 1000 16 100 2 10 8 1", "tleaf 3 2 0 3 0 4 7"}) {
    auto t = ParseTleaf(s);
    ASSERT_THAT(t, IsOk()) << s << ": " << t.status();
    auto line = WriteTleaf(*t);
    ASSERT_THAT(line, IsOk());
    EXPECT_EQ(*line, s);
  }
}

TEST(Tleaf, FileRoundTrip) {
  const std::string path = ::testing::TempDir() + "/machine.tgt";
  {
    std::ofstream f(path);
    f << "tleaf 2 3 20 5 2\n";
  }
  auto t = LoadTopology(path);
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->num_leaves(), 15);
  EXPECT_EQ(*WriteTleaf(*t), "tleaf 2 3 20 5 2");
}

TEST(Tleaf, MalformedInputNamesLineColumnAndField) {
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"tleaf 3 2 100 4 10 8",
       "t.tgt:1:21: missing field 'c3' (link cost of level 3)"},
      {"tleaf 2 2 100", "t.tgt:1:14: missing field 'a2' (arity of level 2)"},
      {"tleaf", "missing field 'L'"},
      {"tleaf 2 2 100 0 10",
       "t.tgt:1:15: field 'a2' (arity of level 2): expected a positive"},
      {"tleaf 2 2 100 -4 10", "t.tgt:1:15: field 'a2'"},
      {"tleaf 2 2 -1 4 10", "t.tgt:1:11: field 'c1' (link cost of level 1)"},
      {"tleaf 2 2 nan 4 10", "field 'c1'"},
      {"tleaf 0", "t.tgt:1:7: field 'L'"},
      {"tleaf x 2 1", "field 'L'"},
      {"tleaf 1 2 1 extra", "t.tgt:1:13: unexpected 'extra'"},
      {"tlef 1 2 1", "t.tgt:1:1: expected the word 'tleaf'"},
      {"tleaf\n2\n4 1\n2.5 1", "t.tgt:4:1: field 'a2'"},
      {"tleaf 2 65536 1 65536 1", "more than 1073741824 leaves"},
  };
  for (const Case& c : cases) {
    auto t = ParseTleaf(c.text, "t.tgt");
    ASSERT_THAT(t, Not(IsOk())) << c.text;
    EXPECT_THAT(Msg(t.status()), HasSubstr(c.expected)) << c.text;
  }
}

TEST(Tleaf, WriterRefusesTreesWithoutATleafForm) {
  TreeBuilder b;
  NodeId r = b.AddRoot("root", 10);
  NodeId x = b.AddChild(r, "x", 1);
  b.AddChild(x, "leaf");
  b.AddChild(x, "leaf");
  b.AddChild(r, "leaf");
  auto unbalanced = std::move(b).Build();
  ASSERT_THAT(unbalanced, IsOk());
  auto w = WriteTleaf(*unbalanced);
  ASSERT_THAT(w, Not(IsOk()));
  EXPECT_THAT(Msg(w.status()), HasSubstr("balanced"));
  TreeBuilder p;
  NodeId root = p.AddRoot("root", 10);
  p.AddChild(root, "leaf");
  p.AddChild(root, "leaf");
  p.SetPairCosts(root, {0, 3, 3, 0});
  auto paired = std::move(p).Build();
  ASSERT_THAT(paired, IsOk());
  auto v = WriteTleaf(*paired);
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(Msg(v.status()), HasSubstr("child-pair costs"));
}

TEST(Tleaf, FormatCost) {
  EXPECT_EQ(FormatCost(100), "100");
  EXPECT_EQ(FormatCost(0.5), "0.5");
  EXPECT_EQ(FormatCost(0.30000000000000004 - 0.2), "0.1");
  EXPECT_EQ(FormatCost(1e-7), "1e-07");
}

TEST(Tleaf, SizeIsCheckedAgainstTheMemoryBudgetBeforeBuilding) {
  // 2^25 leaves fit the old 2^30 cap but need gigabytes; the chain of 256
  // arity-1 levels over 2^22 leaves has 2^30 nodes.
  const int64_t budget = int64_t{2} << 30;
  auto big =
      ParseTleaf("tleaf 1 33554432 1", "b.tgt", int64_t{1} << 30, budget);
  EXPECT_EQ(big.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(Msg(big.status()),
            "b.tgt:1:1: tleaf of 33554432 leaves (33554433 nodes) needs about "
            "8.0 GiB, above the memory budget of 2.0 GiB");
  std::string chain = "tleaf 256 4194304 1";
  for (int l = 0; l < 255; ++l) chain += " 1 1";
  EXPECT_THAT(Msg(ParseTleaf(chain, "c.tgt").status()),
              HasSubstr("c.tgt:1:1: tleaf of 4194304 leaves (1073741825 nodes) "
                        "needs about 256.0 GiB"));
  EXPECT_THAT(Msg(ParseTleaf("tleaf 1 1073741824 1", "d.tgt").status()),
              HasSubstr("needs about 256.0 GiB"));
  auto fits = ParseTleaf("tleaf 2 1000 10 8 1", "f.tgt", int64_t{1} << 30,
                         int64_t{4} << 20);
  ASSERT_THAT(fits, IsOk());
  EXPECT_EQ(fits->num_leaves(), 8000);
}

// Seeded mutations of valid lines: every result is a tree that validates or an
// error.
TEST(Tleaf, MutatedInputsNeverCrash) {
  const std::string seeds[] = {"tleaf 3 2 100 4 10 8 1",
                               "tleaf\n2 4 2.5\n2 0.5",
                               "tleaf 4 16 1000 16 100 2 10 8 1"};
  const std::string alphabet = "0123456789 .-+\nxetlaf";
  std::mt19937_64 rng(20261122);
  int ok = 0, errors = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    const std::string s =
        rankmap::testing::MutateText(seeds[iter % 3], alphabet, rng);
    auto t = ParseTleaf(s, "mutant", int64_t{1} << 12);
    if (t.ok()) {
      ASSERT_THAT(t->Validate(), IsOk()) << s;
      ++ok;
    } else {
      EXPECT_THAT(Msg(t.status()), HasSubstr("mutant:")) << s;
      ++errors;
    }
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(errors, 0);
}

TEST(Tleaf, LinkLevelsDeriveCostsByHand) {
  auto t = ParseTleaf("tleaf 3 4 10Gbps:2us 16 25Gbps:1us 24 40GBps:0.2us");
  ASSERT_THAT(t, IsOk());
  ASSERT_THAT(t->Validate(), IsOk());
  EXPECT_EQ(t->num_leaves(), 4 * 16 * 24);
  EXPECT_THAT(t->Arities(), ElementsAre(4, 16, 24));
  // One host: its loopback, 0.2 us + 65536 / 40e9 s.
  EXPECT_NEAR(t->Distance(0, 23), 0.2 + 1.6384, 1e-9);
  // Two hosts of one switch: two 1 us uplinks at 25 Gbps = 3.125e9 B/s.
  EXPECT_NEAR(t->Distance(0, 24), 2.0 + 20.97152, 1e-9);
  // Two switches: 2 x (1 + 2) us, bottleneck 10 Gbps = 1.25e9 B/s.
  EXPECT_NEAR(t->Distance(0, 16 * 24), 6.0 + 52.4288, 1e-9);
  EXPECT_EQ(t->host(0), "n0");
  EXPECT_EQ(t->host(23), "n0");
  EXPECT_EQ(t->host(24), "n1");
  EXPECT_EQ(t->host(t->num_leaves() - 1), "n63");
  const NodeId host = t->HostOf(30);
  EXPECT_EQ(t->depth(host), 2);
  EXPECT_EQ(t->uplink(host).bandwidth, 3.125e9);
  EXPECT_EQ(t->uplink(t->parent(host)).latency, 2e-6);
  EXPECT_EQ(t->loopback(host).bandwidth, 40e9);
}

TEST(Tleaf, LinkFormRoundTrips) {
  for (const char* s :
       {"tleaf 3 4 10Gbps:2us 16 25Gbps:1us 24 40GBps:0.2us",
        "tleaf 1 16 40GBps:0s", "tleaf 2 8 1.25GBps:5us 12 20GBps:1us"}) {
    auto t = ParseTleaf(s);
    ASSERT_THAT(t, IsOk()) << s << ": " << t.status();
    auto line = WriteTleaf(*t);
    ASSERT_THAT(line, IsOk());
    auto again = ParseTleaf(*line);
    ASSERT_THAT(again, IsOk()) << *line;
    EXPECT_EQ(WriteTleaf(*again).value(), *line);
    for (LeafId a = 0; a < t->num_leaves(); a += 7) {
      EXPECT_EQ(t->Distance(0, a), again->Distance(0, a));
    }
  }
  EXPECT_EQ(
      WriteTleaf(*ParseTleaf("tleaf 2 8 1.25GBps:5us 12 20GBps:1us")).value(),
      "tleaf 2 8 1.25GBps:5us 12 20GBps:1us");
}

TEST(Tleaf, LinkErrorsNameTheField) {
  auto t = ParseTleaf("tleaf 2 4 10Gbps:2us 8 1", "m.tgt");
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(Msg(t.status()),
              HasSubstr("m.tgt:1:24: field 'c2': level 2 is a cost but level 1 "
                        "is a link"));
  t = ParseTleaf("tleaf 2 4 10 8 1GBps:0", "m.tgt");
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(Msg(t.status()), HasSubstr("m.tgt:1:16: field 'c2'"));
  t = ParseTleaf("tleaf 2 4 10Gbps:2us 8 fast:1us", "m.tgt");
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(Msg(t.status()),
              HasSubstr("m.tgt:1:24: field 'c2' (link of level 2) bandwidth: "
                        "expected a positive bandwidth"));
  t = ParseTleaf("tleaf 1 4 10Gbps:-2us", "m.tgt");
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(Msg(t.status()), HasSubstr("latency: expected a non-negative"));
}

}  // namespace
}  // namespace rankmap::topology
