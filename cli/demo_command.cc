#include "cli/demo_command.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "base/status_macros.h"
#include "cli/comparison.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "graphs/frontends/stencil.h"
#include "graphs/operations.h"
#include "tiling/grid_partition.h"
#include "topology/topology.h"
#include "topology/tree_ops.h"

namespace rankmap::cli {
namespace {

// A 2D 5-point stencil with one cell per process on a process grid as square
// as possible (fewer rows than columns), ranks shuffled: a stand-in for an
// application whose launcher numbered ranks without regard to the grid. Cells
// of 4 KiB each way make the 8 KiB per neighbour pair the report announces.
absl::StatusOr<graphs::CommGraph> ShuffledStencil(int32_t n, uint64_t seed) {
  // DimsCreate puts the longer side first; the demo's rows are the shorter.
  ASSIGN_OR_RETURN(const std::vector<int64_t> dims,
                   tiling::DimsCreate(n, {0, 0}));
  graphs::StencilOptions o;
  o.grid = {dims[1], dims[0]};
  o.proc_grid = o.grid;
  o.points = 5;
  o.element_size = 4.0 * 1024;
  ASSIGN_OR_RETURN(const graphs::CommGraph grid, graphs::StencilGraph(o));
  std::vector<graphs::VertexId> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(perm.begin(), perm.end(), rng);
  return graphs::PermuteVertices(grid, perm);
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
  ASSIGN_OR_RETURN(graphs::CommGraph stencil, ShuffledStencil(n, cmd.seed));
  out << "== a 2D 5-point stencil with " << n
      << " processes (8 KiB halos, ranks shuffled), one per slot\n";
  RETURN_IF_ERROR(PrintComparison(tree, stencil, opts, out, nullptr));
  // A built-in cluster shows what mapping buys when the machine itself is
  // small: 4 nodes of 2 sockets x 8 cores, link costs 100 / 10 / 1 (distances
  // 1, 11, 111).
  ASSIGN_OR_RETURN(topology::Tree cluster,
                   topology::LoadTopology("tleaf 3 4 100 2 10 8 1"));
  ASSIGN_OR_RETURN(graphs::CommGraph big,
                   ShuffledStencil(cluster.num_leaves(), cmd.seed));
  out << "== the same stencil pattern with " << cluster.num_leaves()
      << " processes on a built-in cluster: tleaf 3 4 100 2 10 8 1\n";
  return PrintComparison(cluster, big, opts, out, nullptr);
}

}  // namespace rankmap::cli
