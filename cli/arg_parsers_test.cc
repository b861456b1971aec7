#include "cli/arg_parsers.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::Not;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(ArgParsersTest, GridShapes) {
  EXPECT_THAT(*ParseGridShape("1024x1024"), ElementsAre(1024, 1024));
  EXPECT_THAT(*ParseGridShape("64x32x16"), ElementsAre(64, 32, 16));
  for (const char* bad : {"", "1024", "10x", "0x5", "axb", "1x2x3x4", "-4x4"}) {
    EXPECT_THAT(ParseGridShape(bad), Not(IsOk())) << bad;
  }
  EXPECT_EQ(Message(ParseGridShape("4y4").status()),
            "stencil: grid '4y4': expected a positive integer, found '4y4'");
  EXPECT_EQ(Message(ParseGridShape("4x0").status()),
            "stencil: grid '4x0': expected a positive integer, found '0'");
  EXPECT_EQ(Message(ParseGridShape("4").status()),
            "stencil: grid '4' needs 2 or 3 extents like 1024x1024");
}

TEST(ArgParsersTest, ProcessGrids) {
  EXPECT_THAT(*ParseProcessGrid("8x0x4"), ElementsAre(8, 0, 4));
  EXPECT_THAT(*ParseProcessGrid("0x0"), ElementsAre(0, 0));
  EXPECT_THAT(ParseProcessGrid("8"), Not(IsOk()));
  EXPECT_THAT(ParseProcessGrid("8x-1"), Not(IsOk()));
  EXPECT_THAT(ParseProcessGrid("8x00"), Not(IsOk()));
  EXPECT_EQ(Message(ParseProcessGrid("2xa").status()),
            "stencil: process grid '2xa': expected a positive integer, found "
            "'a'");
  EXPECT_EQ(Message(ParseProcessGrid("2").status()),
            "stencil: process grid '2' needs 2 or 3 entries like 8x8");
}

TEST(ArgParsersTest, Periodicity) {
  EXPECT_THAT(*ParsePeriodic("1,0", 2), ElementsAre(true, false));
  EXPECT_THAT(*ParsePeriodic("all", 3), ElementsAre(true, true, true));
  EXPECT_THAT(*ParsePeriodic("none", 2), ElementsAre(false, false));
  EXPECT_THAT(ParsePeriodic("1,0", 3), Not(IsOk()));
  EXPECT_THAT(ParsePeriodic("none", 0), Not(IsOk()));
  EXPECT_EQ(Message(ParsePeriodic("1,yes", 2).status()),
            "stencil: periodic '1,yes': expected 0 or 1, found 'yes'");
  EXPECT_EQ(Message(ParsePeriodic("1", 2).status()),
            "stencil: periodic '1' has 1 entries, the grid 2");
}

TEST(ArgParsersTest, NumberLists) {
  EXPECT_THAT(*ParseList<int32_t>("0,0, 1\t2", "clusters"),
              ElementsAre(0, 0, 1, 2));
  EXPECT_THAT(*ParseList<double>("10,1.5,,1e3", "bandwidth"),
              ElementsAre(10, 1.5, 1000));
  EXPECT_TRUE(ParseList<double>("", "bandwidth")->empty());
  EXPECT_EQ(Message(ParseList<int32_t>("0,x", "clusters").status()),
            "--clusters: expected a number, found 'x'");
  EXPECT_THAT(ParseList<double>("1,inf", "bandwidth"), Not(IsOk()));
  // Integer lists take whole numbers of their range (a cast of 1e10 to int32
  // was undefined, 1.5 became 1).
  EXPECT_EQ(Message(ParseList<int32_t>("0,1e10", "clusters").status()),
            "--clusters: expected an integer from -2147483648 to 2147483647, "
            "found '1e10'");
  EXPECT_THAT(ParseList<int32_t>("1.5", "clusters"), Not(IsOk()));
  EXPECT_THAT(ParseList<int32_t>("-3000000000", "clusters"), Not(IsOk()));
  EXPECT_THAT(*ParseList<int32_t>("2147483647,-2147483648", "clusters"),
              ElementsAre(2147483647, -2147483648));
  EXPECT_THAT(ParseList<double>("1,2abc", "bandwidth"), Not(IsOk()));
}

TEST(ArgParsersTest, SpeedsInlineOrFromAFile) {
  EXPECT_TRUE(LoadSpeeds("")->empty());
  EXPECT_THAT(*LoadSpeeds("8,1,1"), ElementsAre(8, 1, 1));
  EXPECT_EQ(Message(LoadSpeeds("8,x").status()),
            "--speeds:1: expected a positive speed, found 'x'");
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir != nullptr ? dir : "/tmp") + "/speeds.txt";
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("# two fast, one slow\n4 4\n1\n", f);
  std::fclose(f);
  EXPECT_THAT(*LoadSpeeds(path), ElementsAre(4, 4, 1));
}

TEST(ArgParsersTest, Integers) {
  EXPECT_EQ(*ParseInteger("4500", "n"), 4500);
  EXPECT_EQ(*ParseInteger("-1", "hub"), -1);
  EXPECT_EQ(Message(ParseInteger("4k", "n").status()),
            "--n: expected an integer, found '4k'");
  EXPECT_THAT(ParseInteger("99999999999999999999", "n"), Not(IsOk()));
}

// Every accepted spelling of the front ends' choices, and the refusal that
// lists them.
TEST(ArgParsersTest, ChoiceNames) {
  EXPECT_EQ(*ParseSummaPartitioner("column-dp"),
            graphs::SummaPartitioner::kColumnDp);
  EXPECT_EQ(*ParseSummaPartitioner("grid"), graphs::SummaPartitioner::kGrid);
  EXPECT_EQ(*ParsePivotFlow("ring"), graphs::PivotFlow::kRing);
  EXPECT_EQ(*ParsePivotFlow("one-to-all"), graphs::PivotFlow::kOneToAll);
  EXPECT_EQ(*ParseLinkModel("serial"), tiling::LinkModel::kSerial);
  EXPECT_EQ(*ParseLinkModel("duplex"), tiling::LinkModel::kFullDuplex);
  EXPECT_EQ(*ParseLinkModel("full-duplex"), tiling::LinkModel::kFullDuplex);
  EXPECT_EQ(*ParseMatrixShape("hybrid"), std::nullopt);
  EXPECT_EQ(*ParseMatrixShape("square-corner"),
            tiling::MatrixShape::kSquareCorner);
  EXPECT_EQ(*ParseMatrixShape("straight-line"),
            tiling::MatrixShape::kStraightLine);
  EXPECT_EQ(*ParseArrangeAlgorithm("auto"), std::nullopt);
  EXPECT_EQ(*ParseArrangeAlgorithm("hop"),
            tiling::ArrangeAlgorithm::kHopGreedy);
  EXPECT_EQ(*ParseArrangeAlgorithm("bandwidth"),
            tiling::ArrangeAlgorithm::kBandwidthGreedy);
  EXPECT_EQ(*ParseArrangeAlgorithm("exhaustive"),
            tiling::ArrangeAlgorithm::kExhaustive);
  EXPECT_EQ(*ParseHopNorm("sum"), tiling::HopNorm::kSum);
  EXPECT_EQ(*ParseHopNorm("euclid"), tiling::HopNorm::kEuclid);
  EXPECT_EQ(*ParseNetworkKind("star"), tiling::Network::Kind::kStar);
  EXPECT_EQ(*ParseNetworkKind("full"), tiling::Network::Kind::kFullyConnected);
  EXPECT_EQ(*ParseNetworkKind("fully-connected"),
            tiling::Network::Kind::kFullyConnected);
  EXPECT_EQ(Message(ParsePivotFlow("bcast").status()),
            "frontend: unknown flow 'bcast' (ring, one-to-all)");
  EXPECT_EQ(Message(ParseMatrixShape("l").status()),
            "frontend: unknown shape 'l' (hybrid, square-corner, "
            "straight-line)");
  EXPECT_THAT(ParseSummaPartitioner("dp"), Not(IsOk()));
  EXPECT_THAT(ParseLinkModel("half"), Not(IsOk()));
  EXPECT_THAT(ParseArrangeAlgorithm("greedy"), Not(IsOk()));
  EXPECT_THAT(ParseHopNorm("max"), Not(IsOk()));
  EXPECT_THAT(ParseNetworkKind("ring"), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::cli
