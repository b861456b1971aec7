#include "tests/hetero_clusters.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tests/factories.h"

namespace rankmap::testing {
namespace {

using topology::NodeId;

constexpr double kScale = 100000.0;

graphs::CommGraph Build(graphs::CommGraphBuilder b) {
  return std::move(b).Build().value();
}

}  // namespace

HeteroPlatform MakeHeteroPlatform(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  constexpr int32_t kCores[] = {4, 8, 12, 16, 24};
  HeteroPlatform p;
  const int32_t k = static_cast<int32_t>(uniform(3, 6));
  for (int32_t c = 0; c < k; ++c) {
    p.nodes.push_back(static_cast<int32_t>(uniform(2, 5)));
    p.cores.push_back(kCores[uniform(0, 4)]);
  }
  p.bandwidth.assign(static_cast<size_t>(k) * k, 0.0);
  for (int32_t a = 0; a < k; ++a) {
    p.bandwidth[a * k + a] = static_cast<double>(uniform(40, 100) * 100);
    for (int32_t b = a + 1; b < k; ++b) {
      p.bandwidth[a * k + b] = p.bandwidth[b * k + a] =
          static_cast<double>(uniform(6, 30) * 50);
    }
  }
  topology::TreeBuilder builder;
  const NodeId root = builder.AddRoot("network");
  std::vector<double> pair(static_cast<size_t>(k) * k, 0.0);
  for (int32_t a = 0; a < k; ++a) {
    for (int32_t b = 0; b < k; ++b) {
      if (a != b) pair[a * k + b] = kScale / p.bandwidth[a * k + b];
    }
  }
  builder.SetPairCosts(root, pair);
  p.spec = "network\n";
  for (int32_t c = 0; c < k; ++c) {
    const std::string name(1, static_cast<char>('a' + c));
    const NodeId cl =
        builder.AddChild(root, "cluster", kScale / p.bandwidth[c * k + c]);
    absl::StrAppend(&p.spec, "cluster ", name, "\n", p.nodes[c],
                    " x core:", p.cores[c], "\n");
    for (int32_t n = 0; n < p.nodes[c]; ++n) {
      const NodeId node = builder.AddChild(cl, "Machine", 1.0);
      for (int32_t i = 0; i < p.cores[c]; ++i) builder.AddChild(node, "Core");
    }
  }
  absl::StrAppend(&p.spec, "bandwidths ", kScale, "\n");
  for (int32_t a = 0; a < k; ++a) {
    for (int32_t b = 0; b < k; ++b)
      absl::StrAppend(&p.spec, b > 0 ? " " : "", p.bandwidth[a * k + b]);
    absl::StrAppend(&p.spec, "\n");
  }
  p.tree = std::move(builder).Build().value();
  return p;
}

HeteroInstance MakeHeteroInstance(uint64_t seed, HeteroGraph kind) {
  HeteroInstance in;
  in.platform = MakeHeteroPlatform(seed);
  const int32_t n = in.platform.tree.num_leaves();
  std::mt19937_64 rng(seed * 7919 + 13);
  graphs::CommGraph natural;
  switch (kind) {
    case HeteroGraph::kStencil2D: {
      int32_t c = 1;
      for (int32_t d = 1; d * d <= n; ++d) {
        if (n % d == 0) c = d;
      }
      natural = MakeGrid2D(n / c, c, 32768.0);
      in.name = absl::StrCat("hetero", seed, "-stencil2d-", n);
      break;
    }
    case HeteroGraph::kRandom: {
      graphs::CommGraphBuilder b(n);
      for (int32_t u = 0; u < n; ++u) {
        for (int k = 0; k < 4; ++k) {
          (void)b.AddEdge(u, static_cast<int32_t>(rng() % n),
                          1024.0 * static_cast<double>(1 + rng() % 100));
        }
      }
      natural = Build(std::move(b));
      in.name = absl::StrCat("hetero", seed, "-random-", n);
      break;
    }
    case HeteroGraph::kClustered: {
      graphs::CommGraphBuilder b(n);
      for (int32_t u = 0; u < n; ++u) {
        const int32_t g8 = u / 8 * 8, g32 = u / 32 * 32;
        for (int32_t v = u + 1; v < std::min(n, g8 + 8); ++v)
          (void)b.AddEdge(u, v, 65536.0);
        for (int k = 0; k < 3; ++k) {
          (void)b.AddEdge(
              u, g32 + static_cast<int32_t>(rng() % std::min(32, n - g32)),
              4096.0);
        }
        (void)b.AddEdge(u, static_cast<int32_t>(rng() % n), 256.0);
      }
      natural = Build(std::move(b));
      in.name = absl::StrCat("hetero", seed, "-clustered-", n);
      break;
    }
  }
  const std::vector<int32_t> perm = RandomPermutation(n, seed + 101);
  in.graph = Permute(natural, perm);
  in.unshuffled.assign(n, -1);
  for (int32_t u = 0; u < n; ++u) in.unshuffled[perm[u]] = u;
  return in;
}

}  // namespace rankmap::testing
