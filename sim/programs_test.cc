// The application programs under SMPI's plain model, with times checked by
// hand where the traffic is simple enough.
#include <string>
#include <vector>

#include "base/file.h"
#include "base/status_matchers.h"
#include "base/temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sim/simulate.h"
#include "topology/tleaf.h"

namespace rankmap::sim {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

std::string TestFile(const std::string& name, const std::string& text) {
  const std::string path = base::TempBase() + "/" + name;
  EXPECT_THAT(base::WriteFile(path, text), IsOk());
  return path;
}

// Runs `program` with `args` on hosts n0, n1, ... (one rank per host) of
// `tleaf`, exact model; returns the time per iteration.
double Simulated(const std::string& tleaf, const std::string& program,
                 std::vector<std::string> args, int ranks,
                 std::vector<std::string> extra_flags = {}) {
  auto tree = topology::ParseTleaf(tleaf);
  EXPECT_THAT(tree, IsOk());
  auto sim = Simulator::Create(*tree);
  EXPECT_THAT(sim, IsOk());
  auto path = FindSmpiProgram(program);
  EXPECT_THAT(path, IsOk());
  core::Mapping m(ranks);
  const int per_host = tree->num_leaves() / ranks;
  for (int r = 0; r < ranks; ++r) m[r] = r * per_host;
  auto out = sim->Run(*path, std::move(args), m, SmpiModel::kExact,
                      std::move(extra_flags));
  EXPECT_THAT(out, IsOk());
  if (!out.ok()) return -1;
  auto t = ParseTimePerIteration(out->out);
  EXPECT_THAT(t, IsOk()) << out->out;
  return t.value_or(-1);
}

// Hosts with one core, links 1 GB/s and 10 us, 1 Gflop/s.
constexpr char kHosts[] = "tleaf 2 4 1GBps:10us 1 10GBps:1us";

TEST(Programs, StencilFaceExchangeAndUpdateByHand) {
  // 2 ranks (process grid 2x1x1) of a 2x100x100 grid: each owns 1x100x100 and
  // sends one 100x100 face of doubles (80 kB): 20 us + 80 us; then 8 flops
  // per cell on 10,000 cells at 1 Gflop/s: 80 us.
  const double t = Simulated(kHosts, "stencil3d_smpi.so",
                             {"--grid=2x100x100", "--iterations=3"}, 2);
  EXPECT_NEAR(t, 20e-6 + 80e-6 + 80e-6, 1e-7);
  // Without the update, only the exchange.
  const double comm = Simulated(
      kHosts, "stencil3d_smpi.so",
      {"--grid=2x100x100", "--iterations=3", "--flops-per-cell=0"}, 2);
  EXPECT_NEAR(comm, 100e-6, 1e-7);
}

TEST(Programs, MeshHaloByHand) {
  // A 4 x 50 grid mesh cut into 4 row parts of 50 vertices: parts 0 and 3
  // send 50 values (400 bytes) to one neighbour, parts 1 and 2 to two, which
  // share their host's link: 20 us + 800 B / 1 GB/s; then 20 flops per vertex
  // on 50 vertices: 1 us.
  std::string mesh = "200 346\n", parts;
  for (int v = 0; v < 200; ++v) {
    const int r = v / 50, c = v % 50;
    std::vector<int> adj;
    if (r > 0) adj.push_back(v - 50);
    if (c > 0) adj.push_back(v - 1);
    if (c < 49) adj.push_back(v + 1);
    if (r < 3) adj.push_back(v + 50);
    for (size_t k = 0; k < adj.size(); ++k)
      mesh += (k ? " " : "") + std::to_string(adj[k] + 1);
    mesh += "\n";
    parts += std::to_string(r) + "\n";
  }
  const std::string mesh_path = TestFile("rows.graph", mesh);
  const std::string part_path = TestFile("rows.part.4", parts);
  const double t = Simulated(kHosts, "mesh_halo_smpi.so",
                             {mesh_path, part_path, "--iterations=3"}, 4);
  EXPECT_NEAR(t, 20e-6 + 800e-9 + 1e-6, 1e-7);
  // As a solver: 3 steps of exchange and update per iteration.
  const double steps =
      Simulated(kHosts, "mesh_halo_smpi.so",
                {mesh_path, part_path, "--iterations=2", "--exchanges=3"}, 4);
  EXPECT_NEAR(steps, 3 * (20e-6 + 800e-9 + 1e-6), 3e-7);
  // And two 8-byte allreduces after each step, by recursive doubling (two
  // rounds of 8 bytes each way between hosts: 2 x 20 us).
  const double cg = Simulated(kHosts, "mesh_halo_smpi.so",
                              {mesh_path, part_path, "--iterations=2",
                               "--exchanges=3", "--allreduces=2"},
                              4, {"--cfg=smpi/allreduce:rdb"});
  EXPECT_NEAR(cg, 3 * (20e-6 + 800e-9 + 1e-6 + 2 * 2 * (20e-6 + 8e-9)),
              3 * 5 * 2e-8);
}

TEST(Programs, SummaRunsAndIsDeterministic) {
  const std::string partition = TestFile("t.summa",
                                         "summa 8 4\n"
                                         "rect 0 0 5 5 0\n"
                                         "rect 5 0 3 5 1\n"
                                         "rect 0 5 2 3 2\n"
                                         "rect 2 5 4 3 3\n"
                                         "rect 6 5 2 3 0\n");
  const double a = Simulated(kHosts, "summa_smpi.so", {partition}, 4);
  const double b = Simulated(kHosts, "summa_smpi.so", {partition}, 4);
  EXPECT_GT(a, 0);
  EXPECT_EQ(a, b);
  const double ring =
      Simulated(kHosts, "summa_smpi.so", {partition, "--flow=ring"}, 4);
  EXPECT_GT(ring, 0);
  EXPECT_EQ(ring,
            Simulated(kHosts, "summa_smpi.so", {partition, "--flow=ring"}, 4));
  // Rank 0's work alone: (25 + 6) blocks of 4 x 4 elements, each step 2 b
  // flops per element, 8 steps: 31 * 16 * 2 * 4 * 8 flops at 1 Gflop/s. The
  // run is longer.
  EXPECT_GT(a, 31.0 * 16 * 2 * 4 * 8 / 1e9);
}

TEST(Programs, BadInputIsOneLine) {
  auto tree = topology::ParseTleaf(kHosts);
  ASSERT_THAT(tree, IsOk());
  auto sim = Simulator::Create(*tree);
  ASSERT_THAT(sim, IsOk());
  const std::string partition =
      TestFile("bad.summa", "summa 8 4\nrect 0 0 9 8 0\n");
  auto out = sim->Run(FindSmpiProgram("summa_smpi.so").value(), {partition},
                      {0, 1}, SmpiModel::kExact);
  ASSERT_THAT(out, Not(IsOk()));
  EXPECT_THAT(std::string(out.status().message()),
              ::testing::HasSubstr("bad.summa:2: expected 'rect"));
}

}  // namespace
}  // namespace rankmap::sim
