// Development driver for the grouping engine: J and time of TreeMatch variants
// against the baselines and Scotch-strict on shuffled instance families. Not a
// test; run by hand:
//   bazel run //bench:tm_dev -- [max_n]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/mapper.h"
#include "core/mapping.h"
#include "core/scotch_map.h"
#include "core/treematch.h"
#include "graphs/comm_graph.h"
#include "tests/factories.h"

namespace rankmap {
namespace {

using graphs::CommGraph;

// Heavy traffic inside hidden groups of 16, medium inside groups of 64, light
// background.
CommGraph Clustered(int32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  graphs::CommGraphBuilder b(n);
  for (int32_t u = 0; u < n; ++u) {
    const int32_t g16 = u / 16 * 16, g64 = u / 64 * 64;
    for (int32_t v = u + 1; v < std::min(n, g16 + 16); ++v)
      (void)b.AddEdge(u, v, 1000);
    for (int k = 0; k < 4; ++k) {
      const int32_t v =
          g64 + static_cast<int32_t>(rng() % std::min(64, n - g64));
      (void)b.AddEdge(u, v, 10);
    }
    for (int k = 0; k < 2; ++k)
      (void)b.AddEdge(u, static_cast<int32_t>(rng() % n), 1);
  }
  return *std::move(b).Build();
}

struct Instance {
  std::string name;
  std::string tree;
  CommGraph graph;
};

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

}  // namespace
}  // namespace rankmap

int main(int argc, char** argv) {
  using namespace rankmap;
  if (argc > 1 && std::string(argv[1]) == "scale") {
    // 1,048,576-process 3D stencil, shuffled, on 1,048,576 leaves.
    const topology::Tree tree =
        testing::MakeTleaf("4 64 1000 16 100 32 10 32 1");
    const CommGraph g =
        testing::Permute(testing::MakeGrid3D(128, 128, 64),
                         testing::RandomPermutation(1 << 20, 7));
    core::MappingOptions o;
    if (argc > 2) o = *core::MappingOptions::Preset(argv[2]);
    if (argc > 3) o.algorithm = *core::ParseAlgorithm(argv[3]);
    if (argc > 4) o.refine_rounds = std::atoi(argv[4]);
    o.refine = o.refine_rounds > 0;
    auto t0 = std::chrono::steady_clock::now();
    auto m = core::Map(tree, g, o);
    const double secs = Seconds(t0);
    if (!m.ok()) return 1;
    std::printf("scale: %s valid=%d J=%.4g time=%.2fs\n",
                std::string(core::AlgorithmName(o.algorithm)).c_str(),
                core::ValidateMapping(tree, g.num_vertices(), *m).ok(),
                core::ComputeJ(tree, g, *m), secs);
    return 0;
  }
  const int32_t max_n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int32_t min_n = argc > 3 ? std::atoi(argv[3]) : 0;
  const std::string only = argc > 2 ? argv[2] : "";
  struct Size {
    int32_t n;
    const char* tree;
    int r2, c2, x3, y3, z3;
  };
  const Size sizes[] = {
      {256, "4 4 1000 4 100 2 10 8 1", 16, 16, 8, 8, 4},
      {576, "4 6 1000 4 100 2 10 12 1", 24, 24, 12, 8, 6},
      {1024, "4 4 1000 16 100 2 10 8 1", 32, 32, 16, 8, 8},
      {4096, "4 16 1000 16 100 2 10 8 1", 64, 64, 16, 16, 16},
      {8192, "4 32 1000 16 100 2 10 8 1", 128, 64, 32, 16, 16},
  };
  std::printf("%-22s %12s %7s %7s %7s %7s %7s | %6s %6s %6s\n", "instance",
              "J scotch", "paper", "tm", "port", "fast", "ms", "t_sc", "t_tm",
              "t_port");
  double log_sum = 0;
  int count = 0;
  for (const Size& s : sizes) {
    if (s.n > max_n || s.n < min_n) continue;
    std::vector<Instance> inst;
    const auto perm = testing::RandomPermutation(s.n, 7);
    inst.push_back({"grid2d", s.tree,
                    testing::Permute(testing::MakeGrid2D(s.r2, s.c2), perm)});
    inst.push_back(
        {"grid3d", s.tree,
         testing::Permute(testing::MakeGrid3D(s.x3, s.y3, s.z3), perm)});
    inst.push_back({"random4", s.tree, testing::MakeRandomGraph(s.n, 4, 11)});
    inst.push_back(
        {"clustered", s.tree, testing::Permute(Clustered(s.n, 5), perm)});
    const topology::Tree tree = testing::MakeTleaf(s.tree);
    for (const Instance& in : inst) {
      if (!only.empty() && only != "all" && in.name != only) continue;
      core::MappingOptions o;
      auto t0 = std::chrono::steady_clock::now();
      auto sc = core::ScotchMap(tree, in.graph, o);
      const double t_sc = Seconds(t0);
      const double j_sc = sc.ok() ? core::ComputeJ(tree, in.graph, *sc) : NAN;
      auto run = [&](core::MappingOptions opt, double* secs) -> double {
        auto t = std::chrono::steady_clock::now();
        auto m = core::Map(tree, in.graph, opt);
        if (secs) *secs = Seconds(t);
        if (!m.ok()) return NAN;
        if (!core::ValidateMapping(tree, s.n, *m).ok()) return -1.0;
        return core::ComputeJ(tree, in.graph, *m);
      };
      core::MappingOptions paper;
      paper.algorithm = core::Algorithm::kTreeMatch;
      paper.exact_pairing = paper.split_arities = paper.refine = false;
      paper.exhaustive_limit = 0;
      core::MappingOptions tm;
      tm.algorithm = core::Algorithm::kTreeMatch;
      core::MappingOptions port;
      core::MappingOptions fast = *core::MappingOptions::Preset("fast");
      core::MappingOptions ms;
      ms.algorithm = core::Algorithm::kMultisection;
      const double j_ms = run(ms, nullptr);
      core::MappingOptions rnd;
      rnd.algorithm = core::Algorithm::kRandom;
      double t_tm = 0, t_port = 0;
      const double j_paper = run(paper, nullptr);
      const double j_tm = run(tm, &t_tm);
      const double j_port = run(port, &t_port);
      const double j_fast = run(fast, nullptr);
      const double j_rnd = run(rnd, nullptr);
      const double best = std::min(j_sc, j_paper);
      log_sum += std::log(j_port / best);
      ++count;
      std::printf(
          "%-9s %5d %6s %12.4g %7.3f %7.3f %7.3f %7.3f %7.3f | %6.3f %6.3f "
          "%6.3f\n",
          in.name.c_str(), s.n, "", j_sc, j_paper / j_sc, j_tm / j_sc,
          j_port / j_sc, j_fast / j_sc, j_ms / j_sc, t_sc, t_tm, t_port);
      std::fflush(stdout);
    }
  }
  std::printf("geomean portfolio / min(scotch, paper) = %.3f\n",
              std::exp(log_sum / count));
  return 0;
}
