#include "cli/frontend_command.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

using ::testing::ElementsAre;

// The flags main() would hold; absent ones have empty text (the defaults).
absl::StatusOr<FrontendCommand> Parse(
    std::string_view kind, const std::map<std::string, std::string>& flags) {
  return ParseFrontendCommand(kind, [&](std::string_view name) {
    const auto it = flags.find(std::string(name));
    return it == flags.end() ? std::string() : it->second;
  });
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

TEST(FrontendCommandTest, StencilFlagsBecomeTypedOptions) {
  auto cmd = Parse("stencil", {{"grid", "8x8"},
                               {"procs", "4"},
                               {"periodic", "1,0"},
                               {"stencil", "5"},
                               {"element_size", "8"},
                               {"axis_weights", "1,2"},
                               {"slabs", "false"}});
  ASSERT_TRUE(cmd.ok()) << cmd.status();
  EXPECT_EQ(cmd->kind, FrontendKind::kStencil);
  const auto& o = std::get<graphs::StencilOptions>(cmd->options);
  EXPECT_THAT(o.grid, ElementsAre(8, 8));
  EXPECT_EQ(o.procs, 4);
  EXPECT_THAT(o.periodic, ElementsAre(true, false));
  EXPECT_THAT(o.axis_weights, ElementsAre(1.0, 2.0));
  EXPECT_FALSE(o.slabs);
  // No flags: the options' defaults.
  auto plain = Parse("stencil", {});
  ASSERT_TRUE(plain.ok());
  const auto& d = std::get<graphs::StencilOptions>(plain->options);
  EXPECT_THAT(d.grid, ElementsAre(1024, 1024));
  EXPECT_EQ(d.points, 5);
  EXPECT_EQ(d.halo, 1);
}

// 8 x 8 cells on 2 x 2 blocks of 4 x 4, rows periodic: left/right pairs send
// 4 cells each way (2 * 4 * 8 = 64 bytes), top/bottom pairs 4 cells directly
// and 4 across the wrap (2 * 8 * 8 = 128 bytes): 384 bytes in all.
TEST(FrontendCommandTest, RunsTheStencilWithItsReport) {
  auto cmd =
      Parse("stencil", {{"grid", "8x8"}, {"procs", "4"}, {"periodic", "1,0"}});
  ASSERT_TRUE(cmd.ok()) << cmd.status();
  std::ostringstream out, report;
  ASSERT_TRUE(RunFrontend(*cmd, out, report).ok());
  EXPECT_EQ(report.str(),
            "stencil 8x8, 5-point, halo 1: 4 processes, 4 edges, 384 bytes "
            "per iteration\n");
  EXPECT_THAT(out.str(), ::testing::HasSubstr("0 1 64\n"));
  EXPECT_THAT(out.str(), ::testing::HasSubstr("0 2 128\n"));
}

TEST(FrontendCommandTest, MatrixFlagsAndTheSpeedsFile) {
  const std::string graph = TempPath("summa.edges");
  auto cmd = Parse("summa", {{"speeds", "4,1"},
                             {"n", "64"},
                             {"block", "2"},
                             {"flow", "one-to-all"},
                             {"hop_norm", "euclid"},
                             {"clusters", "0,1"},
                             {"bandwidth", "10,1,1,10"},
                             {"hub", "-1"},
                             {"output", graph}});
  ASSERT_TRUE(cmd.ok()) << cmd.status();
  const auto& o = std::get<graphs::MatrixFrontendOptions>(cmd->options);
  EXPECT_THAT(o.speeds, ElementsAre(4.0, 1.0));
  EXPECT_EQ(o.n, 64);
  EXPECT_EQ(o.block, 2);
  EXPECT_EQ(o.flow, graphs::SummaFlow::kOneToAll);
  EXPECT_EQ(o.hop_norm, tiling::HopNorm::kEuclid);
  EXPECT_THAT(o.clusters, ElementsAre(0, 1));
  EXPECT_EQ(o.num_clusters, 2);
  EXPECT_THAT(o.bandwidth, ElementsAre(10.0, 1.0, 1.0, 10.0));
  std::ostringstream out, report;
  ASSERT_TRUE(RunFrontend(*cmd, out, report).ok());
  EXPECT_THAT(report.str(), ::testing::HasSubstr("process speeds written to " +
                                                 graph + ".speeds\n"));
  std::ifstream in(graph + ".speeds");
  std::stringstream speeds;
  speeds << in.rdbuf();
  EXPECT_EQ(speeds.str(),
            "# speed each process's rectangle was computed for, one per "
            "line\n4\n1\n");
}

TEST(FrontendCommandTest, MpdataFlags) {
  auto cmd = Parse("mpdata", {{"procs", "4"},
                              {"domain", "8x8"},
                              {"periodic", "all"},
                              {"axis_weights", "1,12.8"},
                              {"allow_1d", "true"}});
  ASSERT_TRUE(cmd.ok()) << cmd.status();
  const auto& o = std::get<graphs::MpdataFrontendOptions>(cmd->options);
  EXPECT_EQ(o.procs, 4);
  EXPECT_TRUE(o.group.empty());
  EXPECT_THAT(o.domain, ElementsAre(8, 8));
  EXPECT_TRUE(o.periodic);
  EXPECT_EQ(o.vertical_weight, 12.8);
  EXPECT_TRUE(o.allow_1d);
  std::ostringstream out, report;
  ASSERT_TRUE(RunFrontend(*cmd, out, report).ok());
  EXPECT_THAT(report.str(), ::testing::StartsWith("mpdata 8x8 on a "));
}

TEST(FrontendCommandTest, ErrorsNameTheFlag) {
  EXPECT_EQ(Message(Parse("fft", {}).status()),
            "frontend: unknown kind 'fft' (expected summa, square-corner, "
            "stencil, wave2d, mpdata, openfoam)");
  EXPECT_EQ(Message(Parse("summa", {{"flow", "x"}}).status()),
            "frontend: unknown flow 'x' (ring, one-to-all)");
  EXPECT_EQ(Message(Parse("square-corner", {{"speeds", "8,x"}}).status()),
            "--speeds:1: expected a positive speed, found 'x'");
  EXPECT_EQ(Message(Parse("summa", {{"clusters", "0,y"}}).status()),
            "--clusters: expected a number, found 'y'");
  EXPECT_EQ(Message(Parse("mpdata", {}).status()),
            "mpdata: --procs or --clusters is required");
  EXPECT_EQ(
      Message(
          Parse("mpdata", {{"procs", "4"}, {"axis_weights", "1"}}).status()),
      "mpdata: --axis-weights takes two weights: horizontal,vertical");
  EXPECT_EQ(Message(Parse("stencil", {{"halo", "4294967296"}}).status()),
            "--halo: 4294967296 is out of the 32-bit range");
  EXPECT_FALSE(Parse("stencil", {{"graph_format", "svg"}}).ok());
  // The cluster count is the largest id + 1, which must fit.
  EXPECT_EQ(Message(Parse("summa", {{"clusters", "0,2147483647"}}).status()),
            "--clusters: cluster 2147483647 is outside [0, 2147483646]");
  EXPECT_FALSE(Parse("summa", {{"partition", "/nonexistent.part"}}).ok());
}

}  // namespace
}  // namespace rankmap::cli

namespace rankmap::cli {
namespace {

TEST(FrontendCommandTest, OpenFoamNeedsACaseThatExists) {
  auto cmd = Parse("openfoam", {});
  EXPECT_EQ(Message(cmd.status()),
            "openfoam: --case is required (the case directory, holding "
            "constant/polyMesh or processor* directories)");
  cmd = Parse("openfoam",
              {{"case", TempPath("no-such-case")}, {"region", "fluid"}});
  ASSERT_TRUE(cmd.ok()) << cmd.status();
  EXPECT_EQ(cmd->kind, FrontendKind::kOpenFoam);
  EXPECT_EQ(std::get<OpenFoamCase>(cmd->options).mesh.region, "fluid");
  std::ostringstream out, report;
  EXPECT_EQ(Message(RunFrontend(*cmd, out, report)),
            TempPath("no-such-case") + ": no such case directory");
}

}  // namespace
}  // namespace rankmap::cli
