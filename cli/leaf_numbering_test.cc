#include "cli/leaf_numbering.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "cli/inputs.h"
#include "cli/map_command.h"
#include "cli/mapping_reader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<int64_t> CallerIds(const Inputs& in) {
  auto tree = LoadTree(in);
  EXPECT_THAT(tree, IsOk());
  if (!tree.ok()) return {};
  const LeafNumbering n = LeafNumbering::For(in, *tree);
  std::vector<int64_t> ids;
  for (core::LeafId l = 0; l < tree->num_leaves(); ++l)
    ids.push_back(n.ToCaller(l));
  return ids;
}

TEST(LeafNumbering, AllowedLeavesKeepTheCallersNumbers) {
  Inputs tleaf;
  tleaf.topology = "tleaf 2 4 10 4 1";
  tleaf.allowed = "2-5,9";
  EXPECT_THAT(CallerIds(tleaf), ElementsAre(2, 3, 4, 5, 9));
  Inputs synthetic;
  synthetic.topology = "pack:2 core:2 pu:2";
  synthetic.allowed = "1,3-6";
  EXPECT_THAT(CallerIds(synthetic), ElementsAre(1, 3, 4, 5, 6));
  // PUs 8 and 12 of this machine are the second threads of its first two
  // cores: hwloc's logical PU indexes 1 and 3.
  Inputs xml;
  xml.topology = "tests/data/hwloc-xml/16em64t-4s2c2t.xml";
  xml.allowed = "8,12";
  EXPECT_THAT(CallerIds(xml), ElementsAre(1, 3));
  xml.leaf = "core";  // cores 0 and 1 (logical), one PU allowed in each
  EXPECT_THAT(CallerIds(xml), ElementsAre(0, 1));
  Inputs whole;
  whole.topology = "tleaf 2 4 10 4 1";
  EXPECT_THAT(CallerIds(whole), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                            11, 12, 13, 14, 15));
}

TEST(LeafNumbering, RoundTripAndLeavesNotAllowed) {
  Inputs in;
  in.topology = "tleaf 2 4 10 4 1";
  in.allowed = "2-5,9";
  auto tree = LoadTree(in);
  ASSERT_THAT(tree, IsOk());
  const LeafNumbering n = LeafNumbering::For(in, *tree);
  const core::Mapping m = {4, 0, 3};
  EXPECT_THAT(n.ToCaller(m), ElementsAre(9, 2, 5));
  EXPECT_EQ(*n.FromCaller(n.ToCaller(m), "m"), m);
  auto bad = n.FromCaller({2, 0}, "m.map");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_EQ(bad.status().message(),
            "m.map: process 1 is on leaf 0, which is not among the allowed "
            "leaves");
  // Plain and JSON files read back in the caller's numbers.
  EXPECT_EQ(*ParseAnyMapping("9\n2\n5\n", "p", *tree, n), m);
  EXPECT_EQ(*ParseAnyMapping("{\"mapping\": [9, 2, 5]}", "j", *tree, n), m);
}

// `rankmap map --allowed` writes only allowed leaves, whatever the topology.
TEST(LeafNumbering, MapWritesOnlyAllowedLeaves) {
  const std::string comm =
      std::string(std::getenv("TEST_TMPDIR")) + "/ring6.edges";
  {
    std::ofstream f(comm);
    for (int i = 0; i < 6; ++i) f << i << " " << (i + 1) % 6 << " 10\n";
  }
  struct Case {
    std::string topology, allowed;
    std::set<int64_t> ids;  // the caller's numbers of the allowed leaves
  };
  const std::vector<Case> cases = {
      {"tleaf 3 2 100 4 10 4 1", "1,5-8,17,30", {1, 5, 6, 7, 8, 17, 30}},
      {"pack:2 core:4 pu:2", "3-8,15", {3, 4, 5, 6, 7, 8, 15}},
      {"tests/data/hwloc-xml/16em64t-4s2c2t.xml",
       "1-3,8-10",
       {4, 8, 12, 1, 5, 9}},  // os 1,2,3 / 8,9,10: logical 4,8,12 / 1,5,9
  };
  for (const Case& c : cases) {
    MapCommand cmd;
    cmd.inputs.topology = c.topology;
    cmd.inputs.allowed = c.allowed;
    cmd.inputs.comm = comm;
    cmd.quiet = true;
    std::ostringstream out;
    ASSERT_THAT(RunMap(cmd, out), IsOk()) << c.topology;
    std::istringstream lines(out.str());
    int64_t leaf = 0;
    int count = 0;
    std::set<int64_t> used;
    while (lines >> leaf) {
      EXPECT_TRUE(c.ids.count(leaf)) << c.topology << ": leaf " << leaf;
      used.insert(leaf);
      ++count;
    }
    EXPECT_EQ(count, 6) << c.topology;
    EXPECT_EQ(used.size(), 6u) << c.topology;  // one-to-one
  }
}

}  // namespace
}  // namespace rankmap::cli
