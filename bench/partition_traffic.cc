#include "bench/partition_traffic.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/foam_file.h"
#include "graphs/traffic.h"

namespace rankmap::bench {
namespace {

// Faces shared by each pair of parts: the quotient graph.
absl::StatusOr<graphs::CommGraph> SharedFaces(const graphs::CommGraph& mesh,
                                              std::span<const int32_t> part,
                                              int32_t parts) {
  if (static_cast<int64_t>(part.size()) != mesh.num_vertices()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a partition of ", part.size(), " cells for a mesh of ",
                     mesh.num_vertices()));
  }
  graphs::CommGraphBuilder b(parts);
  for (graphs::VertexId u = 0; u < mesh.num_vertices(); ++u) {
    const auto nbr = mesh.neighbors(u);
    const auto w = mesh.weights(u);
    for (size_t k = 0; k < nbr.size(); ++k) {
      if (u < nbr[k] && part[u] != part[nbr[k]]) {
        RETURN_IF_ERROR(b.AddEdge(part[u], part[nbr[k]], w[k]));
      }
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<std::vector<int32_t>> ReadPartition(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(path, "partition"));
  if (graphs::LooksLikeFoamFile(text)) {
    ASSIGN_OR_RETURN(graphs::FoamFile f, graphs::FoamFile::Open(text, path));
    return f.ReadLabels(INT32_MAX, "a part");
  }
  std::vector<int32_t> part;
  base::TextScanner s(text, path);
  for (std::string_view t = s.Token(); !t.empty(); t = s.Token()) {
    int64_t p = -1;
    if (!base::ParseInt(t, &p) || p < 0 || p > INT32_MAX) {
      return s.Error("a part number", base::Quote(t));
    }
    part.push_back(static_cast<int32_t>(p));
  }
  return part;
}

}  // namespace

std::string Describe(const ExchangeModel& model) {
  return absl::StrFormat("%.6g B a face, %.6g messages a pair, each way (%s)",
                         model.bytes_per_face, model.messages_per_pair,
                         model.source);
}

absl::StatusOr<graphs::CommGraph> PartsExchange(const graphs::CommGraph& mesh,
                                                std::span<const int32_t> part,
                                                int32_t parts,
                                                const ExchangeModel& model) {
  for (int32_t p : part) {
    if (p < 0 || p >= parts) {
      return absl::InvalidArgumentError(
          absl::StrCat("part ", p, " outside [0, ", parts, ")"));
    }
  }
  ASSIGN_OR_RETURN(const graphs::CommGraph faces,
                   SharedFaces(mesh, part, parts));
  graphs::CommGraphBuilder b(parts);
  for (graphs::VertexId p = 0; p < faces.num_vertices(); ++p) {
    const auto nbr = faces.neighbors(p);
    const auto w = faces.weights(p);
    for (size_t k = 0; k < nbr.size(); ++k) {
      if (p < nbr[k]) {
        RETURN_IF_ERROR(b.AddTraffic(p, nbr[k], 2 * model.bytes_per_face * w[k],
                                     2 * model.messages_per_pair));
      }
    }
  }
  return std::move(b).Build();
}

graphs::CommGraph MessageGraph(const graphs::CommGraph& g) {
  graphs::CommGraphBuilder b(g.num_vertices());
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    const auto nbr = g.neighbors(u);
    for (size_t k = 0; k < nbr.size(); ++k) {
      // Each pair once: the builder sums both directions.
      if (u < nbr[k]) (void)b.AddEdge(u, nbr[k], g.messages(u)[k]);
    }
  }
  return *std::move(b).Build();
}

absl::StatusOr<ExchangeModel> FitFromProfile(const graphs::CommGraph& mesh,
                                             const std::string& prefix,
                                             const std::string& partition_path,
                                             int64_t exchanges) {
  ASSIGN_OR_RETURN(const graphs::Traffic t,
                   graphs::ReadTraffic(prefix + ".mat"));
  if (!t.graph.has_messages()) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".mat: no message counts beside it"));
  }
  ASSIGN_OR_RETURN(const std::vector<int32_t> part,
                   ReadPartition(partition_path));
  const int32_t ranks = t.graph.num_vertices();
  for (int32_t p : part) {
    if (p >= ranks) {
      return absl::InvalidArgumentError(absl::StrCat(partition_path, ": part ",
                                                     p, " but the profile has ",
                                                     ranks, " ranks"));
    }
  }
  ASSIGN_OR_RETURN(const graphs::CommGraph faces,
                   SharedFaces(mesh, part, ranks));
  double bytes = 0, messages = 0, shared = 0;
  int64_t pairs = 0;
  for (graphs::VertexId p = 0; p < ranks; ++p) {
    for (size_t k = 0; k < faces.neighbors(p).size(); ++k) {
      const graphs::VertexId q = faces.neighbors(p)[k];
      if (p > q) continue;
      ++pairs;
      shared += faces.weights(p)[k];
      const auto nbr = t.graph.neighbors(p);
      const auto it = std::lower_bound(nbr.begin(), nbr.end(), q);
      if (it == nbr.end() || *it != q) continue;
      bytes += t.graph.weights(p)[it - nbr.begin()];
      messages += t.graph.messages(p)[it - nbr.begin()];
    }
  }
  if (pairs == 0 || exchanges < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        partition_path, ": no two parts share a face (or exchanges < 1)"));
  }
  const double n = static_cast<double>(exchanges);
  return ExchangeModel{
      bytes / (2 * shared) / n, messages / (2.0 * pairs) / n,
      absl::StrFormat("fitted from %s over %d neighbouring pairs, %d "
                      "exchanges",
                      prefix, pairs, exchanges)};
}

}  // namespace rankmap::bench
