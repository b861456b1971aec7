// Simulated runs under SMPI's plain model, with times checked by hand.
#include "sim/simulate.h"

#include <sys/stat.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/file.h"
#include "core/mapper.h"
#include "gmock/gmock.h"
#include "graphs/graphs.h"
#include "gtest/gtest.h"
#include "topology/simgrid_platform.h"
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

// The replay of `graph` with the counts in `messages` ("none": without),
// exact model, 2 timed iterations, under `mapping`.
double Replayed(const Simulator& sim, const std::string& graph,
                const std::string& messages, const core::Mapping& mapping) {
  SimulateOptions opts;
  opts.iterations = 2;
  opts.model = SmpiModel::kExact;
  opts.messages = messages;
  auto t = sim.Replay(graph, mapping, opts);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.value_or(-1);
}

// Two ranks on two hosts: every message takes 20 us + size / 1 GB/s, and the
// two directions run at once (full-duplex links). An iteration is the sum of
// its rounds.
TEST(Simulate, ReplayWithCountsIsTheSumOfItsRounds) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::string graph = TestFile("pair.edges", "0 1 20000\n");
  // 20 messages: 10 rounds of 1000 bytes each way.
  EXPECT_NEAR(
      Replayed(*sim, graph, TestFile("pair20.msgs", "0 1 20\n"), {0, 1}),
      10 * (20e-6 + 1000 / 1e9), 10 * 2e-8);
  // 3 messages of 20000 / 3 bytes: rank 0 sends two (rounds 0 and 1), rank 1
  // one (round 0).
  EXPECT_NEAR(Replayed(*sim, graph, TestFile("pair3.msgs", "0 1 3\n"), {0, 1}),
              2 * (20e-6 + 20000.0 / 3 / 1e9), 2 * 2e-8);
  // 1 message: rank 0 sends all 20000 bytes, rank 1 nothing.
  EXPECT_NEAR(Replayed(*sim, graph, TestFile("pair1.msgs", "0 1 1\n"), {0, 1}),
              20e-6 + 20000 / 1e9, 2e-8);
  // Without counts: one message of 10000 bytes each way.
  EXPECT_NEAR(Replayed(*sim, graph, "none", {0, 1}), 20e-6 + 10000 / 1e9, 2e-8);
  // The counts beside a .mat are found without being named.
  const std::string mat = TestFile("beside.mat", "0 10000\n10000 0\n");
  TestFile("beside.msgs.mat", "0 10\n10 0\n");
  EXPECT_NEAR(Replayed(*sim, mat, "", {0, 1}), 10 * (20e-6 + 1000 / 1e9),
              10 * 2e-8);
}

// Two levels of links: 2 switches of 2 one-core hosts; host links 2 GB/s and
// 5 us, switch uplinks 1 GB/s and 10 us. Rank r on host n_r: 0 - 1 and 2 - 3
// share a switch (10 us + size / 2 GB/s), 1 - 2 cross (30 us + size / 1
// GB/s). Pairs: 0 - 1 20 messages of 1000 bytes, 2 - 3 6 of 4000, 1 - 2 one
// of 1000 (from 1). R = 10. A message's bytes flow after its latency, so no
// two transfers share a link at the same time.
TEST(Simulate, ReplayWithCountsOnTwoLevelsOfLinks) {
  auto tree =
      topology::ParseTleaf("tleaf 3 2 1GBps:10us 2 2GBps:5us 1 10GBps:1us");
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::string graph =
      TestFile("levels.edges", "0 1 20000\n2 3 24000\n1 2 1000\n");
  const std::string counts =
      TestFile("levels.msgs.edges", "0 1 20\n2 3 6\n1 2 1\n");
  // Rank 1 sets the pace: its round 0 waits for its message to rank 2 (31
  // us), then rounds 1 - 9 exchange 1000 bytes with rank 0 (10.5 us each).
  // Ranks 2 and 3 exchange in rounds 0, 3 and 6 (12 us each) and wait for
  // rank 1's message in round 0 of every iteration: 31 + 12 + 12 < 125.5 us.
  EXPECT_NEAR(Replayed(*sim, graph, counts, {0, 1, 2, 3}),
              (30e-6 + 1e-6) + 9 * (10e-6 + 1000 / 2e9), 12 * 2e-8);
  // Without counts: one round; rank 1 waits 10.5 us on rank 0 and 30.5 us on
  // rank 2 (500 bytes), rank 2 also 10 us + 12000 / 2 GB/s = 16 us on rank 3.
  EXPECT_NEAR(Replayed(*sim, graph, "none", {0, 1, 2, 3}), 30e-6 + 0.5e-6,
              2e-8);
}

// Where bytes and time disagree: pairs 0 - 1 and 2 - 3 exchange 200 messages
// of 100 bytes, pairs 0 - 2 and 1 - 3 two of 500 kB. On 2 hosts of 2 cores
// (host links 1 GB/s and 10 us, loopbacks 10 GB/s and 1 us, shared by both
// directions), J prefers {0, 2} {1, 3} on a host each (the large pairs local),
// time prefers {0, 1} {2, 3} (the 100 rounds of small messages local).
TEST(Simulate, ReplayRanksMappingsByTimeWhereJRanksThemByBytes) {
  auto tree = topology::ParseTleaf("tleaf 2 2 1GBps:10us 2 10GBps:1us");
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::string graph = TestFile(
      "mixed.edges", "0 1 20000\n2 3 20000\n0 2 1000000\n1 3 1000000\n");
  const std::string counts =
      TestFile("mixed.msgs.edges", "0 1 200\n2 3 200\n0 2 2\n1 3 2\n");
  const core::Mapping by_bytes = {0, 2, 1, 3}, by_time = {0, 1, 2, 3};
  auto g = graphs::ReadGraphFile(graph);
  ASSERT_TRUE(g.ok());
  EXPECT_LT(core::ComputeJ(*tree, *g, by_bytes),
            core::ComputeJ(*tree, *g, by_time));
  // By bytes: round 0 moves 2 x 500 kB over each loopback (1 us + 100 us)
  // while 2 x 100 bytes share each host link; rounds 1 - 99 send 100 bytes
  // each way over the host links, two messages per link direction (20 us +
  // 200 bytes / 1 GB/s). SMPI's plain model adds up to 20 ns per message, two
  // per round on the critical link.
  const double t_bytes = Replayed(*sim, graph, counts, by_bytes);
  EXPECT_NEAR(t_bytes, (1e-6 + 1e6 / 1e10) + 99 * (20e-6 + 200 / 1e9),
              100 * 2 * 2e-8);
  // By time: round 0 moves 2 x 500 kB over each host link direction (20 us +
  // 1 MB / 1 GB/s); rounds 1 - 99 exchange 100 bytes each way on the
  // loopbacks (1 us + 200 bytes / 10 GB/s).
  const double t_time = Replayed(*sim, graph, counts, by_time);
  EXPECT_NEAR(t_time, (20e-6 + 1e6 / 1e9) + 99 * (1e-6 + 200 / 1e10),
              100 * 2 * 2e-8);
  EXPECT_LT(t_time, t_bytes / 1.8);
  // Without the counts the replay agrees with J: one round, the large pairs
  // dominate.
  EXPECT_LT(Replayed(*sim, graph, "none", by_bytes),
            Replayed(*sim, graph, "none", by_time));
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

// Platforms rankmap reads but SMPI refuses or aborts on are refused when the
// Simulator is made, in one line naming the file.
TEST(Simulate, PlatformsAreCheckedWithSimGridBeforeARun) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto xml = topology::WriteSimGridPlatform(*tree);
  ASSERT_TRUE(xml.ok());
  std::string no_doctype = *xml;
  const size_t doctype = no_doctype.find("<!DOCTYPE");
  ASSERT_NE(doctype, std::string::npos);
  no_doctype.erase(doctype, no_doctype.find('\n', doctype) + 1 - doctype);
  const std::string path = TestFile("no_doctype.xml", no_doctype);
  auto sim = Simulator::Create(*tree, path);
  ASSERT_FALSE(sim.ok());
  EXPECT_EQ(sim.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(sim.status().message());
  EXPECT_THAT(message, HasSubstr(path + ": SimGrid cannot load it: Parse "
                                        "error at"));
  EXPECT_THAT(message, HasSubstr("no <!DOCTYPE platform"));
  EXPECT_EQ(message.find('\n'), std::string::npos);
  // A loopback of 0.01 bytes/s beside 1 TB/s links: SMPI's calibrated model
  // aborts mid-run on it.
  auto absurd = topology::ParseTleaf("tleaf 2 2 1e12Bps:10us 2 0.01Bps:1us");
  ASSERT_TRUE(absurd.ok()) << absurd.status();
  sim = Simulator::Create(*absurd);
  ASSERT_FALSE(sim.ok());
  EXPECT_THAT(std::string(sim.status().message()),
              HasSubstr("platform.xml: link 'n0-loopback': bandwidth 0.01 "
                        "bytes/s, outside [1000, 1e+15]"));
  // A platform that lacks a host the tree names.
  auto four = topology::ParseTleaf("tleaf 2 4 1GBps:10us 1 10GBps:1us");
  ASSERT_TRUE(four.ok());
  sim = Simulator::Create(*four, TestFile("two_hosts.xml", *xml));
  ASSERT_FALSE(sim.ok());
  EXPECT_THAT(std::string(sim.status().message()),
              HasSubstr("two_hosts.xml: no host 'n2'"));
}

// Counts beyond the replay's bounds are refused before SMPI starts.
TEST(Simulate, MessageBoundsAreCheckedBeforeARun) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::string graph = TestFile("bound.edges", "0 1 1000\n");
  SimulateOptions opts;
  opts.iterations = 1;  // 2 runs of 2e7: within the work bound, undivided
  opts.messages = TestFile("bound.msgs.edges", "0 1 20000000\n");
  auto t = sim->Replay(graph, {0, 1}, opts);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()),
              HasSubstr("bound.edges: processes 0 and 1: 2e+07 messages per "
                        "iteration, above the replay's bound of 10000000"));
  // Without counts nothing can be divided: the work bound is refused.
  opts.messages = "none";
  opts.iterations = 10;
  opts.max_messages = 10;
  t = sim->Replay(graph, {0, 1}, opts);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              HasSubstr("10 iterations (and the untimed one) of 2 messages are "
                        "22 simulated messages, above the replay's bound of "
                        "10"));
  // A plan reports what an iteration sends.
  opts.messages = TestFile("bound2.msgs.edges", "0 1 2000000\n");
  opts.iterations = 2;
  opts.max_messages = kMaxReplayMessages;
  auto plan = PlanReplay(graph, opts);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->messages_per_iteration, 2000000);
  EXPECT_EQ(plan->rounds, 1000000);
  EXPECT_EQ(plan->messages, opts.messages);
  EXPECT_EQ(plan->processes, 2);
  EXPECT_EQ(plan->divisor, 1);
}

// smpirun passes the program's arguments on unquoted: a path with "[x]"
// would match d x's file as a glob, one with a space would split. The
// simulator hands it links of its own.
TEST(Simulate, PathsSmpirunWouldMisreadAreLinked) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  for (const char* d : {"/d[x]", "/dx", "/with space"})
    mkdir((base::TempBase() + d).c_str(), 0755);
  // 2 MB: 20 us + 1 ms under the exact model; the decoy, 200 kB: 120 us.
  const std::string bracketed = TestFile("d[x]/g.edges", "0 1 2000000\n");
  TestFile("dx/g.edges", "0 1 200000\n");
  const std::string spaced = TestFile("with space/g.edges", "0 1 2000000\n");
  SimulateOptions opts;
  opts.model = SmpiModel::kExact;
  opts.iterations = 2;
  for (const std::string& graph : {bracketed, spaced}) {
    auto t = sim->Replay(graph, {0, 1}, opts);
    ASSERT_TRUE(t.ok()) << graph << ": " << t.status();
    EXPECT_NEAR(*t, 20e-6 + 1e-3, 2e-8) << graph;
  }
  // Arguments of other programs are refused, not misread.
  auto run = sim->Run(*FindSmpiProgram("replay_smpi.so"), {spaced}, {0, 1},
                      SmpiModel::kExact);
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()),
              HasSubstr("smpirun would split or expand the argument"));
}

// A work bound divides the counts and scales the time back: 2,000 messages
// of 1,000 bytes are 1,000 rounds of 20 us + 1 us each way; divided by 10,
// 100 rounds of the same messages, times 10: the same 21 ms.
TEST(Simulate, ADividedReplayTakesAWholeIterationsTime) {
  auto tree = topology::ParseTleaf(kTwoHosts);
  ASSERT_TRUE(tree.ok());
  auto sim = Simulator::Create(*tree);
  ASSERT_TRUE(sim.ok()) << sim.status();
  const std::string graph = TestFile("divided.edges", "0 1 2000000\n");
  SimulateOptions opts;
  opts.model = SmpiModel::kExact;
  opts.iterations = 2;
  opts.messages = TestFile("divided.msgs.edges", "0 1 2000\n");
  opts.max_messages = 610;  // 3 runs of 2,000: divided by ceil(6000 / 605.5)
  auto plan = PlanReplay(graph, opts);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->divisor, 10);
  EXPECT_EQ(plan->messages_per_iteration, 200);
  auto t = sim->Replay(*plan, {0, 1}, opts);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_NEAR(*t, 1000 * (20e-6 + 1000 / 1e9), 1000 * 2e-8);
}

}  // namespace
}  // namespace rankmap::sim
