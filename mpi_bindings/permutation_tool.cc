// Prints the new ranks Reorder would give a job, without MPI (for tests and
// planning):
//
//   permutation_tool NP ALGORITHM SEED EDGES_FILE
//
// ALGORITHM is an algorithm or a preset, read as RANKMAP_ALGORITHM is
// (api::PresetOrAlgorithm).
// The machine comes from RANKMAP_TOPOLOGY (the job packed on its first NP
// slots); EDGES_FILE holds "u v w" lines (u sends w bytes to v). Output:
// "new_rank=a,b,..." indexed by old rank.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "api/named_options.h"
#include "core/mapper.h"
#include "mpi_bindings/job_tree.h"

int main(int argc, char** argv) {
  using namespace rankmap;
  const char* topo = std::getenv("RANKMAP_TOPOLOGY");
  if (argc != 5 || topo == nullptr) {
    std::fprintf(
        stderr, "usage: RANKMAP_TOPOLOGY=... %s NP ALGORITHM SEED EDGES_FILE\n",
        argv[0]);
    return 2;
  }
  const int np = std::atoi(argv[1]);
  absl::StatusOr<core::MappingOptions> resolved =
      api::PresetOrAlgorithm(argv[2]);
  if (!resolved.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(resolved.status().message()).c_str());
    return 2;
  }
  core::MappingOptions options = *std::move(resolved);
  options.seed = std::strtoull(argv[3], nullptr, 10);
  graphs::CommGraphBuilder b(np);
  std::ifstream in(argv[4]);
  int64_t u, v;
  double w;
  while (in >> u >> v >> w) {
    if (absl::Status s = b.AddEdge(u, v, w); !s.ok()) {
      std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
      return 2;
    }
  }
  absl::StatusOr<graphs::CommGraph> graph = std::move(b).Build();
  mpi_bindings::JobTreeOptions jo;
  jo.topology = topo;
  std::vector<mpi_bindings::ProcessInfo> procs(np);
  absl::StatusOr<mpi_bindings::JobTree> job =
      mpi_bindings::BuildJobTree(procs, jo);
  if (!graph.ok() || !job.ok()) {
    std::fprintf(
        stderr, "%s\n",
        std::string((graph.ok() ? job.status() : graph.status()).message())
            .c_str());
    return 2;
  }
  absl::StatusOr<mpi_bindings::Reordering> r =
      mpi_bindings::ComputeReordering(*job, *graph, options);
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", std::string(r.status().message()).c_str());
    return 2;
  }
  std::printf("new_rank=");
  for (int q = 0; q < np; ++q) {
    std::printf("%d%s", r->new_rank[q], q + 1 < np ? "," : "\n");
  }
  return 0;
}
