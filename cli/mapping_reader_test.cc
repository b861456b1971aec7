#include "cli/mapping_reader.h"

#include <string>

#include "cli/mapping_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/launch.h"
#include "tests/factories.h"

namespace rankmap::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

// Two hosts of 2 cores each; PU os indexes 1, 0 on n0 and 5, 4 on n1.
topology::Tree TwoHosts() {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network", 100);
  const int os[2][2] = {{1, 0}, {5, 4}};
  for (int h = 0; h < 2; ++h) {
    const auto machine = b.AddChild(root, "Machine", 1);
    for (int c = 0; c < 2; ++c) {
      const auto leaf = b.AddChild(machine, "PU");
      b.SetOsIndex(leaf, os[h][c]);
      b.SetHost(leaf, h == 0 ? "n0" : "n1");
    }
  }
  return *std::move(b).Build();
}

// Every format `map` writes reads back as the same mapping; rankfiles (Open
// MPI 4 and 5) as launch/ writes them, for trees with hosts.
TEST(ParseAnyMapping, ReadsEveryWrittenFormat) {
  for (const topology::Tree& t :
       {testing::MakeTleaf("2 2 10 2 1"), TwoHosts()}) {
    const core::Mapping m = {2, 0, 3, 1};
    for (MappingFormat f : {MappingFormat::kPlain, MappingFormat::kJson}) {
      const std::string text = FormatMapping(t, m, f, "tm", 7.0).value();
      auto back = ParseAnyMapping(text, "m", t);
      ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
      EXPECT_EQ(*back, m) << text;
    }
  }
  const core::Mapping m = {2, 0, 3, 1};
  for (launch::LaunchFormat f :
       {launch::LaunchFormat::kRankfile, launch::LaunchFormat::kOmpi5}) {
    auto plan = launch::PlanLaunch(f, TwoHosts(), m, "m.rf");
    ASSERT_TRUE(plan.ok()) << plan.status();
    auto back = ParseAnyMapping(plan->files[0].contents, "m.rf", TwoHosts());
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << plan->files[0].contents;
    EXPECT_EQ(*back, m) << plan->files[0].contents;
  }
}

// OpenFOAM's decomposition labelList, as map --format openfoam and
// decomposePar -cellDist write it: processor p is leaf p of the tree.
TEST(ParseAnyMapping, OpenFoamDecomposition) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  const std::string header =
      "/*---*\\\n| OpenFOAM |\n\\*---*/\nFoamFile\n{\n    version 2.0;\n"
      "    format ascii;\n    class labelList;\n    location \"constant\";\n"
      "    object cellDecomposition;\n}\n";  // 11 lines
  auto m = ParseAnyMapping(header + "6\n(\n3\n3\n0\n1\n2\n2\n)\n", "cd", t);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(3, 3, 0, 1, 2, 2));
  m = ParseAnyMapping(header + "6\n(\n3\n3\n0\n4\n2\n2\n)\n", "cd", t);
  EXPECT_EQ(Message(m.status()),
            "cd:17: expected a processor (a leaf of the tree) in [0, 4), found "
            "'4'");
}

TEST(ParseAnyMapping, RankfileByPhysicalOrLogicalNumbers) {
  const topology::Tree t = TwoHosts();
  // Physical PU numbers (leaf 0 has os index 1), ranks in any order, comments.
  auto m = ParseAnyMapping(
      "# mpirun --mca rmaps_rank_file_physical 1 --rankfile m.rf\n"
      "rank 1=n1 slot=4\nrank 0=n0 slot=1,9\n",
      "m.rf", t);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(0, 3));
  // Open MPI 5 reads logical numbers: the host's n-th leaf.
  m = ParseAnyMapping(
      "# mpirun --map-by rankfile:file=m.rf:HWTCPUS -np 2 ./app\n"
      "rank 0=n1 slot=0\nrank 1=n0 slot=1\n",
      "m.rf", t);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(2, 1));
  // Hosts without os indexes: node-local numbers, the host's n-th leaf (b's
  // leaves are 3, 4, 5).
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network", 10);
  for (const char* h : {"a", "b"}) {
    const auto node = b.AddChild(root, "level0", 1);
    for (int c = 0; c < 3; ++c) b.SetHost(b.AddChild(node, "leaf"), h);
  }
  const topology::Tree hosts = *std::move(b).Build();
  m = ParseAnyMapping("rank 0=b slot=1\nrank 1=b slot=0\n", "m.rf", hosts);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(4, 3));
  EXPECT_FALSE(ParseAnyMapping("rank 0=b slot=4\n", "m.rf", hosts).ok());
  // A core's slot list: its first PU names the leaf.
  m = ParseAnyMapping("rank 0=n1 slot=4-5\nrank 1=n0 slot=0,8\n", "m.rf", t);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(3, 1));
}

TEST(ParseAnyMapping, JsonWithOtherKeys) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  auto m = ParseAnyMapping(
      "  {\"algorithm\": \"x\", \"mapping\" : [ 3,1 ,0], \"j\": 1}", "m.json",
      t);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(3, 1, 0));
  EXPECT_THAT(*ParseAnyMapping("{\"mapping\": []}", "e", t), ElementsAre());
  // Nested values of any kind are skipped, however deep, and the top-level
  // key wins over a nested one that comes first.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  m = ParseAnyMapping(
      "{\"meta\": {\"mapping\": [9, 9], \"s\": \"]}\\\"\\u0041\"},\n"
      " \"deep\": " +
          deep +
          ", \"n\": -1.5e3, \"t\": true, \"z\": null,\n"
          " \"mapping\": [2, 0]}\n",
      "m.json", t);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ElementsAre(2, 0));
}

TEST(ParseAnyMapping, ErrorsNameFileAndLine) {
  const topology::Tree t = TwoHosts();
  struct Case {
    const char* text;
    const char* want;
  };
  const Case cases[] = {
      {"rank 0=n0 slot=1\nrank 0=n1 slot=4\n", "m:2: rank 0 is given twice"},
      {"rank 1=n0 slot=1\n", "m:1: rank 1 but the file has 1 rank line"},
      {"rank 0=n9 slot=1\n", "m:1: host 'n9' is not in the topology"},
      {"rank 0=n0 slot=7\n", "m:1: host 'n0' has no slot 7"},
      {"rank 0=n0 slot=x\n", "m:1: field 'slot'"},
      {"rank x=n0 slot=1\n", "m:1: field 'rank'"},
      {"rank 0=n0\n", "m:1: found 'rank 0=n0'"},
      {"{\"algorithm\": \"x\"}", "m:1: no top-level \"mapping\" key"},
      {"{\"mapping\": [1, -2]}", "m:1: entry 1 is not a leaf index"},
      {"{\"mapping\": [1 2]}", "m:1: expected ',' or ']' after entry 1"},
      {"{\"mapping\": [1,\n 99999999999999999999]}",
       "m:2: entry 1 is not a leaf index"},
      // Only the top-level key counts: nested ones and strings are skipped.
      {"{\"a\": {\"mapping\": [0]},\n \"b\": \"\\\"mapping\\\": [1]\"}",
       "m:2: no top-level \"mapping\" key"},
      {"{\"mapping\": [0],\n\"mapping\": [1]}",
       "m:2: a second top-level \"mapping\" key"},
      {"{\"x\": [[[{]]], \"mapping\": [0]}", "m:1: an unbalanced ']'"},
      {"{\"x\": \"open\n", "m:1: a control character or line break"},
      {"{\"mapping\": [0]} 1", "m:1: text after the object"},
      {"{\"x\": [[[[[[[[[[", "m:1: end of file inside a value"},
      // A rank beyond the line count, before anything is sized by it.
      {"rank 0=n0 slot=1\nrank 600000000=n0 slot=0\n",
       "m:2: rank 600000000 but the file has 2 rank lines"},
      {"0\nx\n", "m:2: expected a leaf index"},
  };
  for (const Case& c : cases) {
    auto m = ParseAnyMapping(c.text, "m", t);
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_THAT(Message(m.status()), HasSubstr(c.want)) << c.text;
  }
  EXPECT_EQ(ReadAnyMappingFile("/nonexistent/m", t).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace rankmap::cli
