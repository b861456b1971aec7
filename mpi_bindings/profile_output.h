// Files the profiler writes: the traffic matrix of a job in the formats graphs/
// reads.
//
//   std::vector<double> bytes(n * n);   // bytes[i * n + j]: bytes world rank i
//   sent to j RETURN_IF_ERROR(WriteProfile("out/app", n, bytes, messages));
//   // -> out/app.mat (bytes, dense), out/app.msgs.mat (message counts),
//   out/app.grf (Scotch)
//
// `.mat` is the TopoMatch dense format: row i holds what i sent to each j,
// whitespace separated, one row per line (directed; readers symmetrise). `.grf`
// is the Scotch source graph of the symmetrised volumes (w(i, j) = bytes i->j +
// bytes j->i, self traffic dropped, weights rounded to integers as Scotch
// requires).
#ifndef RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_
#define RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_

#include <cstdint>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::mpi_bindings {

// Dense text of an n x n row-major matrix; integral values print without a
// fraction.
std::string FormatDenseMatrix(int32_t n, std::span<const double> matrix);

// Scotch `.grf` text of a graph (edge weights, no vertex weights, base 0).
std::string FormatScotchGraph(const graphs::CommGraph& graph);

// The symmetric CommGraph of a directed n x n matrix. Errors: wrong size,
// negative or non-finite entries.
absl::StatusOr<graphs::CommGraph> GraphFromMatrix(
    int32_t n, std::span<const double> matrix);

// Writes prefix.mat, prefix.msgs.mat and prefix.grf. Errors: bad matrices,
// unwritable files (named in the message).
absl::Status WriteProfile(const std::string& prefix, int32_t n,
                          std::span<const double> bytes,
                          std::span<const double> messages);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_PROFILE_OUTPUT_H_
