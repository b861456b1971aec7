#include "cli/demo_command.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "base/status_macros.h"
#include "cli/comparison.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/topology.h"
#include "topology/tree_ops.h"

namespace rankmap::cli {
namespace {

// A 2D 5-point stencil on an r x c process grid as square as possible, ranks
// shuffled (a stand-in for an application whose launcher numbered ranks without
// regard to the grid).
absl::StatusOr<graphs::CommGraph> DemoStencil(int32_t n, uint64_t seed,
                                              double bytes) {
  int32_t r = static_cast<int32_t>(std::sqrt(static_cast<double>(n)));
  while (r > 1 && n % r != 0) --r;
  const int32_t c = n / r;
  std::vector<int32_t> perm(n);
  for (int32_t i = 0; i < n; ++i) perm[i] = i;
  std::mt19937_64 rng(seed);
  std::shuffle(perm.begin(), perm.end(), rng);
  graphs::CommGraphBuilder b(n);
  for (int32_t i = 0; i < r; ++i) {
    for (int32_t j = 0; j < c; ++j) {
      if (i + 1 < r)
        RETURN_IF_ERROR(
            b.AddEdge(perm[i * c + j], perm[(i + 1) * c + j], bytes));
      if (j + 1 < c)
        RETURN_IF_ERROR(b.AddEdge(perm[i * c + j], perm[i * c + j + 1], bytes));
    }
  }
  return std::move(b).Build();
}

}  // namespace

absl::Status RunDemo(const DemoCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  core::MappingOptions opts;
  opts.seed = cmd.seed;
  const int32_t n = static_cast<int32_t>(tree.Capacity(tree.root()));
  out << "== this machine (" << cmd.inputs.topology
      << "): " << tree.num_leaves() << " leaves, height " << tree.height()
      << "\n"
      << topology::DrawTree(tree);
  ASSIGN_OR_RETURN(graphs::CommGraph stencil,
                   DemoStencil(n, cmd.seed, 8.0 * 1024));
  out << "== a 2D 5-point stencil with " << n
      << " processes (8 KiB halos, ranks shuffled), one per slot\n";
  RETURN_IF_ERROR(PrintComparison(tree, stencil, opts, out, nullptr));
  // A built-in cluster shows what mapping buys when the machine itself is
  // small: 4 nodes of 2 sockets x 8 cores, link costs 100 / 10 / 1 (distances
  // 1, 11, 111).
  ASSIGN_OR_RETURN(topology::Tree cluster,
                   topology::LoadTopology("tleaf 3 4 100 2 10 8 1"));
  ASSIGN_OR_RETURN(graphs::CommGraph big,
                   DemoStencil(cluster.num_leaves(), cmd.seed, 8.0 * 1024));
  out << "== the same stencil pattern with " << cluster.num_leaves()
      << " processes on a built-in cluster: tleaf 3 4 100 2 10 8 1\n";
  return PrintComparison(cluster, big, opts, out, nullptr);
}

}  // namespace rankmap::cli
