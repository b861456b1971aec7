#include "mpi_bindings/intercept_plan.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "api/named_options.h"
#include "topology/binding.h"

namespace rankmap::mpi_bindings {
namespace {

// Leaves *status alone unless it is OK and RANKMAP_ALGORITHM is unknown.
ReorderOptions OptionsFromEnvironment(absl::Status* status) {
  ReorderOptions o;
  if (const char* a = std::getenv("RANKMAP_ALGORITHM")) {
    if (absl::StatusOr<core::MappingOptions> p = api::PresetOrAlgorithm(a);
        p.ok()) {
      o.mapping = *std::move(p);
    } else if (status->ok()) {
      *status = p.status();
    }
  }
  if (const char* s = std::getenv("RANKMAP_SEED"))
    o.mapping.seed = std::strtoull(s, nullptr, 10);
  if (const char* b = std::getenv("RANKMAP_BIND"); b != nullptr && *b) {
    absl::StatusOr<topology::BindWhat> what = topology::ParseBindWhat(b);
    if (!what.ok()) {
      if (status->ok()) {
        *status = absl::InvalidArgumentError(
            absl::StrCat("RANKMAP_BIND: ", what.status().message()));
      }
    } else if (*what != topology::BindWhat::kNone) {
      o.rebind = Rebind::kPu;
      o.bind_memory = *what == topology::BindWhat::kCpuMem;
    }
  }
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
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (out->status.ok()) {
    const char* report = std::getenv("RANKMAP_BIND_REPORT");
    if (!out->binding.empty() &&
        ((report != nullptr && report[0] == '1') ||
         out->binding.find("not bound") != std::string::npos)) {
      std::fprintf(stderr, "rankmap: rank %d: %s\n", out->new_rank[rank],
                   out->binding.c_str());
    }
    return true;
  }
  if (rank == 0) {
    std::fprintf(stderr, "rankmap: reordering skipped: %s\n",
                 std::string(out->status.message()).c_str());
  }
  PMPI_Comm_free(&out->comm);
  return false;
}

}  // namespace rankmap::mpi_bindings
