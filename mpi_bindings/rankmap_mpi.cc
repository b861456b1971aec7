#include "mpi_bindings/rankmap_mpi.h"

#include <exception>
#include <string>

#include "absl/strings/str_cat.h"
#include "api/named_options.h"
#include "base/catch_as_status.h"
#include "base/status_macros.h"
#include "mpi_bindings/reorder.h"

namespace rankmap::mpi_bindings {
namespace {

thread_local std::string last_error;

absl::StatusOr<ReorderOptions> ToOptions(const rankmap_mpi_options* c) {
  ReorderOptions o;
  if (c == nullptr) return o;
  if (c->algorithm != nullptr) {
    ASSIGN_OR_RETURN(o.mapping, api::PresetOrAlgorithm(c->algorithm));
  }
  o.mapping.seed = c->seed;
  if (c->topology != nullptr) o.topology = c->topology;
  if (c->network != nullptr) o.network = c->network;
  if (c->rebind < RANKMAP_REBIND_NONE || c->rebind > RANKMAP_REBIND_NUMA) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown rebind mode ", c->rebind));
  }
  o.rebind = static_cast<Rebind>(c->rebind);
  o.bind_memory = c->bind_memory != 0;
  return o;
}

// Builds the graph locally, then lets the collective agree on any local error.
int Finish(MPI_Comm comm, const absl::Status& local,
           const graphs::CommGraph& graph, const ReorderOptions& options,
           MPI_Comm* reordered) {
  ReorderOutcome out;
  absl::Status agreed = AgreeOnStatus(comm, local);
  if (agreed.ok()) {
    out = ReorderDetailed(comm, graph, options);
  } else {
    out.status = agreed;
    MPI_Comm_dup(comm, &out.comm);
  }
  *reordered = out.comm;
  last_error = std::string(out.status.message());
  return static_cast<int>(out.status.code());
}

template <typename Fill>
int Common(MPI_Comm comm, int n, const rankmap_mpi_options* c_options,
           MPI_Comm* reordered, Fill fill) {
  ReorderOptions options;
  graphs::CommGraph graph;
  // This rank's own work: an exception here must become an agreed error, not
  // a rank that leaves the others waiting in the collective.
  const absl::Status local =
      base::CatchAsStatus("building the graph", [&]() -> absl::Status {
        ASSIGN_OR_RETURN(options, ToOptions(c_options));
        if (n < 0) return absl::InvalidArgumentError("negative process count");
        graphs::CommGraphBuilder b(n);
        RETURN_IF_ERROR(fill(b));
        ASSIGN_OR_RETURN(graph, std::move(b).Build());
        return absl::OkStatus();
      });
  try {
    return Finish(comm, local, graph, options, reordered);
  } catch (const std::exception& e) {
    // Past the agreement (the collective steps guard their local work, so
    // this is a last resort): report it on this rank rather than terminating;
    // there is no communicator to return.
    *reordered = MPI_COMM_NULL;
    last_error = absl::StrCat("internal error: ", e.what());
    return RANKMAP_ERR_INTERNAL;
  }
}

}  // namespace
}  // namespace rankmap::mpi_bindings

extern "C" {

void rankmap_mpi_options_init(rankmap_mpi_options* options) {
  options->algorithm = nullptr;
  options->seed = 1;
  options->topology = nullptr;
  options->network = nullptr;
  options->rebind = RANKMAP_REBIND_NONE;
  options->bind_memory = 0;
}

int rankmap_mpi_reorder(MPI_Comm comm, int n, const int64_t* xadj,
                        const int32_t* adjncy, const double* adjwgt,
                        const rankmap_mpi_options* options,
                        MPI_Comm* reordered) {
  using rankmap::mpi_bindings::Common;
  return Common(comm, n, options, reordered,
                [&](rankmap::graphs::CommGraphBuilder& b) -> absl::Status {
                  if (n > 0 && (xadj == nullptr ||
                                (adjncy == nullptr && xadj[n] > xadj[0]))) {
                    return absl::InvalidArgumentError("null CSR array");
                  }
                  for (int u = 0; u < n; ++u) {
                    if (xadj[u] > xadj[u + 1] || xadj[u] < 0) {
                      return absl::InvalidArgumentError(
                          absl::StrCat("xadj decreases at vertex ", u));
                    }
                    for (int64_t k = xadj[u]; k < xadj[u + 1]; ++k) {
                      absl::Status s = b.AddEdge(
                          u, adjncy[k], adjwgt == nullptr ? 1.0 : adjwgt[k]);
                      if (!s.ok()) return s;
                    }
                  }
                  return absl::OkStatus();
                });
}

int rankmap_mpi_reorder_dense(MPI_Comm comm, int n, const double* bytes,
                              const rankmap_mpi_options* options,
                              MPI_Comm* reordered) {
  using rankmap::mpi_bindings::Common;
  return Common(comm, n, options, reordered,
                [&](rankmap::graphs::CommGraphBuilder& b) -> absl::Status {
                  if (n > 0 && bytes == nullptr) {
                    return absl::InvalidArgumentError("null matrix");
                  }
                  for (int i = 0; i < n; ++i) {
                    for (int j = 0; j < n; ++j) {
                      const double w = bytes[static_cast<int64_t>(i) * n + j];
                      if (i == j || w == 0.0) continue;
                      absl::Status s = b.AddEdge(i, j, w);
                      if (!s.ok()) return s;
                    }
                  }
                  return absl::OkStatus();
                });
}

const char* rankmap_mpi_error_string(void) {
  return rankmap::mpi_bindings::last_error.c_str();
}

}  // extern "C"
