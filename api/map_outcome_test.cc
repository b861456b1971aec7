#include "api/map_outcome.h"

#include <vector>

#include "base/status_matchers.h"
#include "core/mapper.h"
#include "gmock/gmock.h"
#include "graphs/graphs.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"

namespace rankmap::api {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;

using graphs::CommGraph;
using graphs::CommGraphBuilder;

// Two hosts of two cores with links (tests/cli/objective_test.sh): one host
// 0.5 us and 40 GB/s, two hosts 1 + 1 us and 3.125 GB/s.
topology::Tree TwoHosts() {
  return *topology::ParseTleaf("tleaf 2 2 25Gbps:1us 2 40GBps:0.5us");
}

// 0-1: 1,000 messages of 8 bytes; 0-2: one of 100,000 bytes; 2-3: one of 10.
// By bytes 0 belongs with 2, by time with 1.
CommGraph ManySmallOrOneLarge() {
  CommGraphBuilder b(4);
  EXPECT_THAT(b.AddTraffic(0, 1, 8000, 1000), IsOk());
  EXPECT_THAT(b.AddTraffic(0, 2, 100000, 1), IsOk());
  EXPECT_THAT(b.AddTraffic(2, 3, 10, 1), IsOk());
  return *std::move(b).Build();
}

int Host(const core::Mapping& m, int process) { return m[process] / 2; }

TEST(MapChecked, TheMappingOfMapWithItsCheckedCost) {
  const topology::Tree t = testing::MakeTleaf("3 2 100 2 10 2 1");
  const CommGraph g = testing::Permute(testing::MakeGrid2D(2, 4, 3.0),
                                       testing::RandomPermutation(8, 3));
  core::MappingOptions o;
  o.seed = 5;
  auto out = MapChecked(t, g, o);
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(out->mapping, *core::Map(t, g, o));
  EXPECT_EQ(out->cost.j, testing::PairwiseJ(t, g, out->mapping));
  EXPECT_EQ(out->cost.hop_bytes, core::Cost(t, g, out->mapping)->hop_bytes);
  // The identity (packed) order was weighed under J.
  EXPECT_NE(VerdictOf(out->report), PresentVerdict::kNotWeighed);
  EXPECT_EQ(out->report.objective, "J");
}

TEST(MapChecked, NTo1IsCheckedAgainstTheImbalance) {
  // 16 processes on 4 leaves: four per leaf within 3%.
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  const CommGraph g = testing::MakeGrid2D(4, 4, 1.0);
  auto out = MapChecked(t, g, core::MappingOptions{});
  ASSERT_THAT(out, IsOk());
  std::vector<int> load(4, 0);
  for (int32_t l : out->mapping) ++load[l];
  EXPECT_EQ(load, (std::vector<int>{4, 4, 4, 4}));
  EXPECT_EQ(out->cost.j, testing::PairwiseJ(t, g, out->mapping));
  EXPECT_EQ(VerdictOf(out->report), PresentVerdict::kNotWeighed);
}

TEST(MapChecked, TimeKeepsThePresentOrderUnlessBeaten) {
  const topology::Tree t = TwoHosts();
  const CommGraph g = ManySmallOrOneLarge();
  core::MappingOptions o;
  // The identity keeps 0 with 1 already: kept.
  auto kept = MapChecked(t, g, o);
  ASSERT_THAT(kept, IsOk());
  EXPECT_EQ(kept->mapping, (core::Mapping{0, 1, 2, 3}));
  EXPECT_EQ(VerdictOf(kept->report), PresentVerdict::kKept);
  EXPECT_EQ(kept->report.objective, "time");
  // A present order that splits 0 from 1 is replaced. By hand (us):
  // present 0-1 across hosts 1000 x 2 + 8000 / 3125 = 2002.56, 0-2 on one
  // host 0.5 + 2.5, 2-3 across 2 + 0.0032: 2007.5632; 0, 1 and 2, 3 on one
  // host each: 500 + 0.2, 2 + 32, 0.5 + 0.00025: 534.70025.
  o.present = {0, 2, 1, 3};
  auto moved = MapChecked(t, g, o);
  ASSERT_THAT(moved, IsOk());
  EXPECT_EQ(VerdictOf(moved->report), PresentVerdict::kReplaced);
  EXPECT_NEAR(moved->report.present_cost, 2007.5632e-6, 1e-12);
  EXPECT_NEAR(moved->report.chosen_cost, 534.70025e-6, 1e-12);
  EXPECT_EQ(Host(moved->mapping, 0), Host(moved->mapping, 1));
  int64_t differ = 0;
  for (int p = 0; p < 4; ++p) differ += moved->mapping[p] != o.present[p];
  EXPECT_EQ(moved->report.moved, differ);
  // Under J, 0 goes with 2 and nothing is weighed by time.
  o.present.clear();
  o.objective = core::ObjectiveKind::kJ;
  auto by_j = MapChecked(t, g, o);
  ASSERT_THAT(by_j, IsOk());
  EXPECT_EQ(Host(by_j->mapping, 0), Host(by_j->mapping, 2));
  EXPECT_EQ(by_j->report.objective, "J");
}

TEST(MapChecked, SlotClassesAndErrors) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  const CommGraph g = testing::MakeGrid2D(2, 2, 1.0);
  // Processes 0 and 1 in class 1, leaves 2 and 3 of class 1.
  core::SlotClasses classes;
  classes.of_leaf = {0, 0, 1, 1};
  classes.of_process = {1, 1, 0, 0};
  auto out = MapChecked(t, g, core::MappingOptions{}, &classes);
  ASSERT_THAT(out, IsOk());
  EXPECT_GE(out->mapping[0], 2);
  EXPECT_GE(out->mapping[1], 2);
  EXPECT_EQ(VerdictOf(out->report), PresentVerdict::kNotWeighed);
  core::MappingOptions bad;
  bad.present = {0, 0, 1, 2};  // two processes on leaf 0
  EXPECT_THAT(std::string(MapChecked(t, g, bad).status().message()),
              ::testing::HasSubstr("present order"));
}

TEST(MapBytesOf, AReaderRefusesAGraphTheMappingCouldNotUse) {
  const topology::Tree tree = TwoHosts();
  const auto bytes = MapBytesOf(tree, core::MappingOptions());
  // At least 128 bytes per process and 64 per arc (core/map_budget.h).
  EXPECT_GE(bytes(1000, 0) - bytes(0, 0), 1000 * 128);
  EXPECT_GE(bytes(0, 1000) - bytes(0, 0), 1000 * 64);
  // A budget the mapping's share alone fills: the graph (3 vertices, 4 arcs)
  // is read without the consumer and refused with it, from its counts.
  graphs::ReadOptions read;
  read.max_memory_bytes = bytes(3, 4);
  EXPECT_THAT(graphs::ReadGraphString("0 1 5\n1 2 5\n", "g.edges",
                                      graphs::GraphFormat::kEdgeList, read),
              IsOk());
  read.consumer_bytes = bytes;
  EXPECT_THAT(graphs::ReadGraphString("0 1 5\n1 2 5\n", "g.edges",
                                      graphs::GraphFormat::kEdgeList, read)
                  .status()
                  .message(),
              HasSubstr("MiB for what follows (the mapping), more than the "
                        "memory budget"));
}

TEST(Verdict, NamesEveryOutcome) {
  core::MapReport r;
  EXPECT_EQ(VerdictName(VerdictOf(r)), "not weighed");
  r.weighed = true;
  EXPECT_EQ(VerdictName(VerdictOf(r)), "replaced");
  r.present_refined = true;
  EXPECT_EQ(VerdictName(VerdictOf(r)), "replaced by its refinement");
  r.present_refined = false;
  r.kept_present = true;
  EXPECT_EQ(VerdictName(VerdictOf(r)), "kept");
}

}  // namespace
}  // namespace rankmap::api
