#include "tests/factories.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <sstream>
#include <string>

#include "graphs/test_graphs.h"

namespace rankmap::testing {
namespace {

graphs::CommGraph BuildOrDie(graphs::CommGraphBuilder b) {
  auto g = std::move(b).Build();
  if (!g.ok()) {
    std::fprintf(stderr, "factory: %s\n",
                 std::string(g.status().message()).c_str());
    std::abort();
  }
  return *std::move(g);
}

void AddOrDie(graphs::CommGraphBuilder& b, int64_t u, int64_t v, double w) {
  if (!b.AddEdge(u, v, w).ok()) std::abort();
}

}  // namespace

graphs::CommGraph MakeGrid2D(int32_t r, int32_t c, double w) {
  graphs::CommGraphBuilder b(int64_t{r} * c);
  for (int32_t i = 0; i < r; ++i) {
    for (int32_t j = 0; j < c; ++j) {
      if (i + 1 < r) AddOrDie(b, i * c + j, (i + 1) * c + j, w);
      if (j + 1 < c) AddOrDie(b, i * c + j, i * c + j + 1, w);
    }
  }
  return BuildOrDie(std::move(b));
}

graphs::CommGraph MakeGrid3D(int32_t x, int32_t y, int32_t z, double w) {
  return graphs::testing::Stencil3D(x, y, z, w);
}

graphs::CommGraph MakeRandomGraph(int32_t n, int32_t partners, uint64_t seed) {
  std::mt19937_64 rng(seed);
  graphs::CommGraphBuilder b(n);
  for (int32_t u = 0; u < n && n > 1; ++u) {
    for (int32_t k = 0; k < partners; ++k) {
      AddOrDie(b, u, static_cast<int32_t>(rng() % n),
               1.0 + static_cast<double>(rng() % 100));
    }
  }
  return BuildOrDie(std::move(b));
}

graphs::CommGraph MakeCliqueChain(int32_t groups, int32_t size, double heavy,
                                  double light) {
  graphs::CommGraphBuilder b(int64_t{groups} * size);
  for (int32_t g = 0; g < groups; ++g) {
    for (int32_t i = 0; i < size; ++i) {
      for (int32_t j = i + 1; j < size; ++j)
        AddOrDie(b, g * size + i, g * size + j, heavy);
    }
    if (g + 1 < groups) AddOrDie(b, g * size, (g + 1) * size, light);
  }
  return BuildOrDie(std::move(b));
}

graphs::CommGraph MakePairRing(int32_t pairs, double heavy, double light) {
  graphs::CommGraphBuilder b(2 * int64_t{pairs});
  for (int32_t p = 0; p < pairs; ++p) {
    AddOrDie(b, 2 * p, 2 * p + 1, heavy);
    AddOrDie(b, 2 * p + 1, (2 * p + 2) % (2 * pairs), light);
  }
  return BuildOrDie(std::move(b));
}

double PairwiseJ(const topology::Tree& tree, const graphs::CommGraph& g,
                 const std::vector<int32_t>& mapping) {
  double j = 0.0;
  for (int32_t u = 0; u < g.num_vertices(); ++u) {
    for (int32_t v = u + 1; v < g.num_vertices(); ++v) {
      const double w = g.EdgeWeight(u, v);
      if (w > 0) j += w * tree.Distance(mapping[u], mapping[v]);
    }
  }
  return j;
}

RestrictedTwoNodeCase MakeRestrictedTwoNodeCase() {
  topology::TreeBuilder b;
  const topology::NodeId root = b.AddRoot("switch", 100);
  const topology::NodeId a = b.AddChild(root, "node", 1);
  const topology::NodeId nb = b.AddChild(root, "node", 1);
  for (int i = 0; i < 6; ++i) b.AddChild(a, "core");
  for (int i = 0; i < 4; ++i) {
    const topology::NodeId core = b.AddChild(nb, "core");
    if (i % 2 == 0) b.SetCapacity(core, 0);
  }
  auto tree = std::move(b).Build();
  if (!tree.ok()) std::abort();
  graphs::CommGraphBuilder gb(8);
  for (int i = 0; i < 6; ++i) {
    for (int j = i + 1; j < 6; ++j) AddOrDie(gb, i, j, 5);
  }
  AddOrDie(gb, 6, 7, 5);
  AddOrDie(gb, 5, 6, 1);
  return {*std::move(tree),
          Permute(BuildOrDie(std::move(gb)), RandomPermutation(8, 2))};
}

std::string MutateText(std::string text, std::string_view alphabet,
                       std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const size_t pos = rng() % text.size();
    switch (rng() % 3) {
      case 0:
        text[pos] = alphabet[rng() % alphabet.size()];
        break;
      case 1:
        text.erase(pos, 1);
        break;
      default:
        text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
        break;
    }
  }
  return text;
}

topology::Tree MakeTleaf(std::string_view levels) {
  std::istringstream in{std::string(levels)};
  int64_t count = 0;
  in >> count;
  std::vector<int64_t> arities(count);
  std::vector<double> costs(count);
  for (int64_t i = 0; i < count; ++i) in >> arities[i] >> costs[i];
  auto t = topology::Tree::FromLevels(arities, costs);
  if (in.fail() || !t.ok()) {
    std::fprintf(stderr, "MakeTleaf: bad levels '%s'\n",
                 std::string(levels).c_str());
    std::abort();
  }
  return *std::move(t);
}

graphs::CommGraph Permute(const graphs::CommGraph& g,
                          const std::vector<int32_t>& perm) {
  graphs::CommGraphBuilder b(g.num_vertices());
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    auto nbrs = g.neighbors(u);
    auto wgts = g.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (nbrs[k] > u) AddOrDie(b, perm[u], perm[nbrs[k]], wgts[k]);
    }
    if (g.has_vertex_weights() &&
        !b.SetVertexWeight(perm[u], g.vertex_weight(u)).ok()) {
      std::abort();
    }
  }
  return BuildOrDie(std::move(b));
}

std::vector<int32_t> RandomPermutation(int32_t n, uint64_t seed) {
  std::vector<int32_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

topology::Tree MakeHostsTree(int32_t hosts, int32_t pus) {
  topology::TreeBuilder b;
  const topology::NodeId root = b.AddRoot("switch");
  for (int32_t h = 0; h < hosts; ++h) {
    const topology::NodeId machine = b.AddChild(root, "Machine");
    for (int32_t c = 0; c < pus; ++c) {
      const topology::NodeId leaf = b.AddChild(machine, "PU");
      b.SetHost(leaf, "n" + std::to_string(h));
      b.SetOsIndex(leaf, 2 * c);
    }
  }
  return *std::move(b).Build();
}

}  // namespace rankmap::testing
