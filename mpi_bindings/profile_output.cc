#include "mpi_bindings/profile_output.h"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::mpi_bindings {
namespace {

void AppendNumber(std::string* out, double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) {
    absl::StrAppend(out, static_cast<int64_t>(v));
  } else {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    out->append(buf);
  }
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  if (!f)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

}  // namespace

std::string FormatDenseMatrix(int32_t n, std::span<const double> matrix) {
  std::string out;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      if (j > 0) out += ' ';
      AppendNumber(&out, matrix[static_cast<size_t>(i) * n + j]);
    }
    out += '\n';
  }
  return out;
}

std::string FormatScotchGraph(const graphs::CommGraph& graph) {
  std::string out = absl::StrCat("0\n", graph.num_vertices(), " ",
                                 graph.num_arcs(), "\n0\t010\n");
  for (graphs::VertexId v = 0; v < graph.num_vertices(); ++v) {
    absl::StrAppend(&out, graph.degree(v));
    auto nb = graph.neighbors(v);
    auto w = graph.weights(v);
    for (size_t k = 0; k < nb.size(); ++k) {
      absl::StrAppend(&out, "\t", static_cast<int64_t>(std::llround(w[k])), " ",
                      nb[k]);
    }
    out += '\n';
  }
  return out;
}

absl::StatusOr<graphs::CommGraph> GraphFromMatrix(
    int32_t n, std::span<const double> matrix) {
  if (n < 0 || matrix.size() != static_cast<size_t>(n) * n) {
    return absl::InvalidArgumentError(
        absl::StrCat("profile: matrix has ", matrix.size(),
                     " entries, expected ", static_cast<int64_t>(n) * n));
  }
  graphs::CommGraphBuilder b(n);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      const double w = matrix[static_cast<size_t>(i) * n + j];
      if (w != 0.0 || !std::isfinite(w)) RETURN_IF_ERROR(b.AddEdge(i, j, w));
    }
  }
  return std::move(b).Build();
}

absl::Status WriteProfile(const std::string& prefix, int32_t n,
                          std::span<const double> bytes,
                          std::span<const double> messages) {
  ASSIGN_OR_RETURN(graphs::CommGraph graph, GraphFromMatrix(n, bytes));
  if (messages.size() != bytes.size()) {
    return absl::InvalidArgumentError("profile: message matrix size differs");
  }
  RETURN_IF_ERROR(WriteText(prefix + ".mat", FormatDenseMatrix(n, bytes)));
  RETURN_IF_ERROR(
      WriteText(prefix + ".msgs.mat", FormatDenseMatrix(n, messages)));
  return WriteText(prefix + ".grf", FormatScotchGraph(graph));
}

}  // namespace rankmap::mpi_bindings
