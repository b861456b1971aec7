#include "mpi_bindings/intercept_plan.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rankmap::mpi_bindings {
namespace {

// Leaves *status alone unless it is OK and RANKMAP_ALGORITHM is unknown.
ReorderOptions OptionsFromEnvironment(absl::Status* status) {
  ReorderOptions o;
  if (const char* a = std::getenv("RANKMAP_ALGORITHM")) {
    if (absl::StatusOr<core::MappingOptions> p =
            core::MappingOptions::Preset(a);
        p.ok()) {
      o.mapping = *p;
    } else if (absl::StatusOr<core::Algorithm> alg = core::ParseAlgorithm(a);
               alg.ok()) {
      o.mapping.algorithm = *alg;
    } else if (status->ok()) {
      *status = alg.status();
    }
  }
  if (const char* s = std::getenv("RANKMAP_SEED"))
    o.mapping.seed = std::strtoull(s, nullptr, 10);
  return o;
}

}  // namespace

bool IsIntercommunicator(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return inter != 0;
}

bool PlanReordering(MPI_Comm comm, const std::vector<LocalEdge>& edges,
                    absl::Status local, ReorderOutcome* out) {
  ReorderOptions options = OptionsFromEnvironment(&local);
  *out = ReorderFromEdges(comm, edges, options, local);
  if (out->status.ok()) return true;
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    std::fprintf(stderr, "rankmap: reordering skipped: %s\n",
                 std::string(out->status.message()).c_str());
  }
  PMPI_Comm_free(&out->comm);
  return false;
}

}  // namespace rankmap::mpi_bindings
