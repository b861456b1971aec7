// Simulated runs under SMPI's plain model, with times checked by hand.
#include "sim/simulate.h"

#include <cmath>
#include <string>
#include <vector>

#include "base/file.h"
#include "core/mapper.h"
#include "gmock/gmock.h"
#include "graphs/graphs.h"
#include "gtest/gtest.h"
#include "topology/tleaf.h"

namespace rankmap::sim {
namespace {

using ::testing::HasSubstr;

std::string TestFile(const std::string& name, const std::string& text) {
  const std::string path = base::TempBase() + "/" + name;
  EXPECT_TRUE(base::WriteFile(path, text).ok());
  return path;
}

// Two hosts of one core under one switch; host links 1 GB/s and 10 us.
constexpr char kTwoHosts[] = "tleaf 2 2 1GBps:10us 1 10GBps:1us";

TEST(Simulate, PingPongIsLatencyPlusSizeOverBandwidth) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok()) << tree.status();
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  auto program = FindSmpiProgram("pingpong_smpi.so");
  ASSERT_TRUE(program.ok()) << program.status();
  // Rank 0 on n0, rank 1 on n1: the route is n0's link up, n1's link down.
  for (const auto& [bytes, expected] :
       std::vector<std::pair<int, double>>{{1000000, 20e-6 + 1e6 / 1e9},
                                           {1000, 20e-6 + 1e3 / 1e9},
                                           {0, 20e-6}}) {
    auto out =
        sim->Run(*program, {"--bytes=" + std::to_string(bytes), "--repeats=4"},
                 {0, 1}, SmpiModel::kExact);
    ASSERT_TRUE(out.ok()) << out.status();
    const std::string key = "one-way time: ";
    const size_t at = out->out.find(key);
    ASSERT_NE(at, std::string::npos) << out->out;
    const double seconds = std::stod(out->out.substr(at + key.size()));
    // SMPI's plain model is exact to within 20 ns.
    EXPECT_NEAR(seconds, expected, 2e-8) << bytes << " bytes";
  }
}

TEST(Simulate, ReplayOfOneEdgeIsOneMessageEachWay) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  // 2 MB on the edge: 1 MB each way, at the same time on the two directions
  // of the full-duplex links.
  const std::string graph = TestFile("one_edge.edges", "0 1 2000000\n");
  SimulateOptions opts;
  opts.iterations = 3;
  opts.model = SmpiModel::kExact;
  auto t = sim->Replay(graph, {0, 1}, opts);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_NEAR(*t, 20e-6 + 1e-3, 2e-8);
  // Both ranks on n0's core would exceed its capacity; on one host's loopback
  // (oversubscribing nothing: a 2-core host) the message takes 1 us + 1 MB at
  // 10 GB/s.
  auto two_core = topology::ParseTleaf("tleaf 2 1 1GBps:10us 2 10GBps:1us");
  ASSERT_TRUE(two_core.ok());
  auto local = Simulator::Create(*two_core);
  ASSERT_TRUE(local.ok());
  t = local->Replay(graph, {0, 1}, opts);
  ASSERT_TRUE(t.ok()) << t.status();
  // The two directions share the loopback (SHARED): 2 MB at 10 GB/s.
  EXPECT_NEAR(*t, 1e-6 + 2e6 / 1e10, 2e-8);
}

// 16 ranks on 4 hosts of 4 cores. Ranks g, g+4, g+8, g+12 form group g and
// send each other 1 MB (each way) per iteration; groups do not talk. Packed
// (rank r on host r / 4) spreads every group over the 4 hosts; rankmap puts
// each group on one host.
TEST(Simulate, MappedBeatsPackedByTheHandCheckedMargin) {
  auto tree = topology::ParseTleaf("tleaf 2 4 1GBps:10us 4 10GBps:1us");
  ASSERT_TRUE(tree.ok());
  std::string edges;
  for (int g = 0; g < 4; ++g) {
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b)
        edges += std::to_string(g + 4 * a) + " " + std::to_string(g + 4 * b) +
                 " 2000000\n";
    }
  }
  const std::string graph = TestFile("groups.edges", edges);
  auto g = graphs::ReadGraphFile(graph);
  ASSERT_TRUE(g.ok()) << g.status();
  auto mapped = core::Map(*tree, *g, core::MappingOptions{});
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  for (int r = 0; r < 16; ++r)
    EXPECT_EQ(tree->host((*mapped)[r]), tree->host((*mapped)[r % 4])) << r;
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok());
  SimulateOptions opts;
  opts.iterations = 2;
  opts.model = SmpiModel::kExact;
  core::Mapping packed(16);
  for (int r = 0; r < 16; ++r) packed[r] = r;
  auto t_packed = sim->Replay(graph, packed, opts);
  auto t_mapped = sim->Replay(graph, *mapped, opts);
  ASSERT_TRUE(t_packed.ok()) << t_packed.status();
  ASSERT_TRUE(t_mapped.ok()) << t_mapped.status();
  // Packed: each host sends 12 MB up its link and receives 12 MB down it, 12
  // flows sharing each direction: 2 x 10 us + 12 MB / 1 GB/s. (SMPI's plain
  // model adds at most 20 ns per message: 12 messages, 240 ns.)
  EXPECT_NEAR(*t_packed, 20e-6 + 12e6 / 1e9, 2.4e-7);
  // Mapped: each host's 12 messages share its loopback: 1 us + 12 MB / 10
  // GB/s. About 10x faster.
  EXPECT_NEAR(*t_mapped, 1e-6 + 12e6 / 1e10, 2.4e-7);
  EXPECT_GT(*t_packed / *t_mapped, 9.9);
}

TEST(Simulate, DeterministicUnderTheCalibratedModel) {
  auto tree = topology::ParseTleaf("tleaf 2 4 1GBps:10us 4 10GBps:1us");
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok());
  const std::string graph =
      TestFile("ring.edges",
               "0 5 100000\n5 10 100000\n10 15 100000\n15 0 "
               "100000\n1 2 5000\n");
  SimulateOptions opts;
  opts.iterations = 2;
  core::Mapping m(16);
  for (int r = 0; r < 16; ++r) m[r] = 15 - r;
  auto a = sim->Replay(graph, m, opts);
  auto b = sim->Replay(graph, m, opts);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*a, *b);
  // The calibrated model is slower than the plain one on this route.
  opts.model = SmpiModel::kExact;
  auto exact = sim->Replay(graph, m, opts);
  ASSERT_TRUE(exact.ok());
  EXPECT_GT(*a, *exact);
}

TEST(Simulate, ErrorsAreOneLine) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok());
  SimulateOptions opts;
  // Three processes in the graph, two in the mapping.
  const std::string graph = TestFile("three.edges", "0 1 10\n1 2 10\n");
  auto t = sim->Replay(graph, {0, 1}, opts);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              HasSubstr("3 processes in the graph, 2 MPI ranks"));
  t = sim->Replay(graph, {0, 0}, opts);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(std::string(t.status().message()).find('\n'), std::string::npos);
  auto plain = topology::ParseTleaf("tleaf 1 2 1");
  ASSERT_TRUE(plain.ok());
  auto none = Simulator::Create(*plain);
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(std::string(none.status().message()), HasSubstr("has no links"));
}

}  // namespace
}  // namespace rankmap::sim
