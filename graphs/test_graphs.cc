#include "graphs/test_graphs.h"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace rankmap::graphs::testing {
namespace {

void AddOrDie(CommGraphBuilder& b, int64_t u, int64_t v, double w) {
  if (!b.AddEdge(u, v, w).ok()) std::abort();
}

}  // namespace

CommGraph BuildOrDie(CommGraphBuilder builder) {
  auto g = std::move(builder).Build();
  if (!g.ok()) {
    std::fprintf(stderr, "test_graphs: %s\n",
                 std::string(g.status().message()).c_str());
    std::abort();
  }
  return *std::move(g);
}

CommGraph RandomGraph(int32_t n, int32_t partners, uint64_t seed,
                      bool integer_weights, bool vertex_weights) {
  std::mt19937_64 rng(seed);
  CommGraphBuilder b(n);
  for (int32_t u = 0; u < n && n > 1; ++u) {
    for (int32_t k = 0; k < partners; ++k) {
      const int32_t v = static_cast<int32_t>(rng() % n);
      const double w = integer_weights ? 1.0 + static_cast<double>(rng() % 1000)
                                       : std::uniform_real_distribution<double>(
                                             1e-3, 1000.0)(rng);
      AddOrDie(b, u, v, w);
    }
  }
  if (vertex_weights) {
    for (int32_t v = 0; v < n; ++v) {
      if (!b.SetVertexWeight(v, static_cast<double>(rng() % 50)).ok())
        std::abort();
    }
  }
  return BuildOrDie(std::move(b));
}

std::vector<double> TreeMatchExampleMatrix() {
  // Fig. 1(a) of the paper is an image that did not survive in the seed text;
  // this matrix is reconstructed from every number the text gives and
  // reproduces all of them:
  //   row sums: process 0 sends 1114, process 1 sends 2104 (value of group
  //   (0,1): 1114 + 2104 - 2 * 1000 = 1218); grouping by pairs
  //   (0,1)(2,3)(4,5)(6,7) aggregates to Fig. 2(a):
  //     [0 1012 202 4; 1012 0 4 202; 202 4 0 1012; 4 202 1012 0];
  //   grouping (0,1,4)(2,3,5) of that aggregates to Fig. 2(c): 412 between the
  //   two halves.
  return {
      0,    1000, 10,   1,    100,  1,    1,    1,     //
      1000, 0,    1000, 1,    1,    100,  1,    1,     //
      10,   1000, 0,    1000, 1,    1,    100,  1,     //
      1,    1,    1000, 0,    1,    1,    1,    100,   //
      100,  1,    1,    1,    0,    1000, 10,   1,     //
      1,    100,  1,    1,    1000, 0,    1000, 1,     //
      1,    1,    100,  1,    10,   1000, 0,    1000,  //
      1,    1,    1,    100,  1,    1,    1000, 0,     //
  };
}

CommGraph TreeMatchExampleGraph() {
  const std::vector<double> a = TreeMatchExampleMatrix();
  CommGraphBuilder b(8);
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      if (a[i * 8 + j] > 0) AddOrDie(b, i, j, a[i * 8 + j]);
    }
  }
  return BuildOrDie(std::move(b));
}

CommGraph Stencil3D(int32_t x, int32_t y, int32_t z, double w) {
  CommGraphBuilder b(int64_t{x} * y * z);
  b.Reserve(3 * int64_t{x} * y * z);
  auto id = [&](int64_t i, int64_t j, int64_t k) {
    return (i * y + j) * z + k;
  };
  for (int32_t i = 0; i < x; ++i) {
    for (int32_t j = 0; j < y; ++j) {
      for (int32_t k = 0; k < z; ++k) {
        if (i + 1 < x) AddOrDie(b, id(i, j, k), id(i + 1, j, k), w);
        if (j + 1 < y) AddOrDie(b, id(i, j, k), id(i, j + 1, k), w);
        if (k + 1 < z) AddOrDie(b, id(i, j, k), id(i, j, k + 1), w);
      }
    }
  }
  return BuildOrDie(std::move(b));
}

}  // namespace rankmap::graphs::testing
