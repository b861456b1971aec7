// PMPI interception of MPI_Dist_graph_create_adjacent and
// MPI_Dist_graph_create, built as librankmap_reorder.so (link it before -lmpi,
// or LD_PRELOAD it): when the program asks for reorder = 1, the ranks of the
// new graph communicator follow the engine's mapping of the declared edges onto
// the machine (Open MPI 4.1 returns the same ranks; MPICH ignores the flag).
// MPI_Cart_create is intercepted the same way (cart_intercept.cc).
//
// Steps, collective over comm_old: every rank contributes its declared edges
// (weights as given, MPI_UNWEIGHTED counting 1); ReorderFromEdges gathers them
// on rank 0, maps them and splits comm_old with the new ranks as keys; the
// graph communicator is then created on the split communicator with every
// source and destination renumbered to the new rank of the same process, so
// each process keeps exactly the neighbours it declared (in its declared
// order). If mapping fails, rank 0 prints one line on stderr and every rank
// falls back to the plain PMPI call (identity order).
//
// Environment: see intercept_plan.h.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mpi_bindings/intercept_plan.h"
#include "mpi_bindings/reorder.h"

namespace rankmap::mpi_bindings {
namespace {

std::vector<int> Renumber(const int* ranks, int count,
                          const std::vector<int32_t>& new_rank) {
  std::vector<int> out(ranks, ranks + count);
  for (int& r : out) {
    if (r >= 0 && r < static_cast<int>(new_rank.size())) r = new_rank[r];
  }
  return out;
}

double Weight(const int* weights, int k) {
  return weights == MPI_UNWEIGHTED || weights == nullptr ? 1.0 : weights[k];
}

// Runs `collect` (which fills the edges); an exception becomes an error the
// ranks agree on, so the application falls back instead of terminating.
template <typename F>
absl::Status Collect(F collect) {
  try {
    collect();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return absl::ResourceExhaustedError(
        absl::StrCat("collecting the declared edges: ", e.what()));
  }
}

}  // namespace
}  // namespace rankmap::mpi_bindings

extern "C" {

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                   const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[],
                                   const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  using namespace rankmap::mpi_bindings;
  if (!reorder || IsIntercommunicator(comm_old)) {
    return PMPI_Dist_graph_create_adjacent(
        comm_old, indegree, sources, sourceweights, outdegree, destinations,
        destweights, info, reorder, comm_dist_graph);
  }
  int me = 0;
  PMPI_Comm_rank(comm_old, &me);
  // Each edge is declared as an out-edge by its source: out-edges alone cover
  // the graph.
  std::vector<LocalEdge> edges;
  const absl::Status local = Collect([&] {
    edges.reserve(outdegree > 0 ? outdegree : 0);
    for (int k = 0; k < outdegree; ++k) {
      edges.push_back({me, destinations[k], Weight(destweights, k)});
    }
  });
  ReorderOutcome out;
  if (!PlanReordering(comm_old, edges, local, &out)) {
    return PMPI_Dist_graph_create_adjacent(
        comm_old, indegree, sources, sourceweights, outdegree, destinations,
        destweights, info, reorder, comm_dist_graph);
  }
  std::vector<int> src = Renumber(sources, indegree, out.new_rank);
  std::vector<int> dst = Renumber(destinations, outdegree, out.new_rank);
  const int rc = PMPI_Dist_graph_create_adjacent(
      out.comm, indegree, src.data(), sourceweights, outdegree, dst.data(),
      destweights, info, 0, comm_dist_graph);
  PMPI_Comm_free(&out.comm);
  return rc;
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                          const int degrees[], const int destinations[],
                          const int weights[], MPI_Info info, int reorder,
                          MPI_Comm* comm_dist_graph) {
  using namespace rankmap::mpi_bindings;
  if (!reorder || IsIntercommunicator(comm_old)) {
    return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations,
                                  weights, info, reorder, comm_dist_graph);
  }
  std::vector<LocalEdge> edges;
  int total = 0;
  const absl::Status local = Collect([&] {
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < degrees[i]; ++k, ++total) {
        edges.push_back(
            {sources[i], destinations[total], Weight(weights, total)});
      }
    }
  });
  ReorderOutcome out;
  if (!PlanReordering(comm_old, edges, local, &out)) {
    return PMPI_Dist_graph_create(comm_old, n, sources, degrees, destinations,
                                  weights, info, reorder, comm_dist_graph);
  }
  std::vector<int> src = Renumber(sources, n, out.new_rank);
  std::vector<int> dst = Renumber(destinations, total, out.new_rank);
  const int rc =
      PMPI_Dist_graph_create(out.comm, n, src.data(), degrees, dst.data(),
                             weights, info, 0, comm_dist_graph);
  PMPI_Comm_free(&out.comm);
  return rc;
}

}  // extern "C"
