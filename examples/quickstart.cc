// Quick start: load a topology, build a communication graph, map it, print the
// cost.
//   bazel run //examples:quickstart [-- "pack:2 core:4 pu:2"]
#include <rankmap/core/mapper.h>
#include <rankmap/core/model/mapping.h>
#include <rankmap/graphs/comm_graph.h>
#include <rankmap/topology/topology.h>

#include <cstdio>

int main(int argc, char** argv) {
  using namespace rankmap;
  // Where the processes run: this machine by default, or any description
  // rankmap accepts.
  auto tree = topology::LoadTopology(argc > 1 ? argv[1] : "this");
  if (!tree.ok())
    return std::fprintf(stderr, "%s\n", tree.status().ToString().c_str()), 2;
  // Who talks to whom: process i with i + n/2, a pairing the identity placement
  // spreads far apart; every 4th pair exchanges 100 MB, the others 1 MB.
  const int32_t n = static_cast<int32_t>(tree->Capacity(tree->root()));
  graphs::CommGraphBuilder builder(n);
  for (int32_t i = 0; i < n; ++i) {
    if (!builder.AddEdge(i, (i + n / 2) % n, i % 4 == 0 ? 1e8 : 1e6).ok())
      return 1;
  }
  auto graph = std::move(builder).Build();
  if (!graph.ok())
    return std::fprintf(stderr, "%s\n", graph.status().ToString().c_str()), 2;
  // Map with the default engine and compare with the identity placement.
  auto mapping = core::Map(*tree, *graph, core::MappingOptions{});
  if (!mapping.ok())
    return std::fprintf(stderr, "%s\n", mapping.status().ToString().c_str()), 1;
  const double j = core::ComputeJ(*tree, *graph, *mapping);
  const double identity =
      core::ComputeJ(*tree, *graph, core::Slots(*tree, graph->num_vertices()));
  std::printf("%d processes: J = %.6g (identity %.6g)\n", n, j, identity);
  for (int32_t p = 0; p < n && p < 16; ++p)
    std::printf("process %d -> leaf %d\n", p, (*mapping)[p]);
  return 0;
}
