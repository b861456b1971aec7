#include "graphs/frontends/mesh_halo.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/foam_file.h"

namespace rankmap::graphs {

absl::StatusOr<MeshHalo> ComputeMeshHalo(const CommGraph& mesh,
                                         std::span<const int32_t> part,
                                         int32_t num_parts) {
  const VertexId n = mesh.num_vertices();
  if (num_parts < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("mesh halo: ", num_parts, " parts"));
  }
  if (static_cast<int64_t>(part.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mesh halo: ", part.size(), " parts for ", n, " mesh vertices"));
  }
  MeshHalo halo;
  halo.num_parts = num_parts;
  halo.owned.assign(num_parts, 0);
  halo.sends.resize(num_parts);
  // (p, q, v): vertex v of part p is needed by part q.
  std::vector<std::tuple<int32_t, int32_t, VertexId>> needs;
  for (VertexId v = 0; v < n; ++v) {
    const int32_t p = part[v];
    if (p < 0 || p >= num_parts) {
      return absl::InvalidArgumentError(
          absl::StrCat("mesh halo: vertex ", v, " is in part ", p,
                       ", not in [0, ", num_parts, ")"));
    }
    ++halo.owned[p];
    for (VertexId u : mesh.neighbors(v)) {
      const int32_t q = part[u];
      if (q != p && q >= 0 && q < num_parts) needs.emplace_back(p, q, v);
    }
  }
  std::sort(needs.begin(), needs.end());
  needs.erase(std::unique(needs.begin(), needs.end()), needs.end());
  for (const auto& [p, q, v] : needs) {
    auto& list = halo.sends[p];
    if (list.empty() || list.back().first != q)
      list.emplace_back(q, std::vector<VertexId>{});
    list.back().second.push_back(v);
  }
  return halo;
}

absl::StatusOr<CommGraph> MeshHaloGraph(const MeshHalo& halo,
                                        double bytes_per_value) {
  if (!std::isfinite(bytes_per_value) || bytes_per_value <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mesh halo: bytes per value must be finite and > 0, found ",
        bytes_per_value));
  }
  CommGraphBuilder b(halo.num_parts);
  for (int32_t p = 0; p < halo.num_parts; ++p) {
    for (const auto& [q, vertices] : halo.sends[p]) {
      RETURN_IF_ERROR(b.AddEdge(
          p, q, bytes_per_value * static_cast<double>(vertices.size())));
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<std::vector<int32_t>> ParsePartition(std::string_view text,
                                                    std::string_view source,
                                                    int64_t num_vertices) {
  if (LooksLikeFoamFile(text)) {
    ASSIGN_OR_RETURN(FoamFile f, FoamFile::Open(text, source));
    ASSIGN_OR_RETURN(const int64_t n, f.ListSize());
    if (n != num_vertices) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(source), ": ", n, " labels for ",
                       num_vertices, " mesh vertices"));
    }
    return f.ReadLabels(int64_t{INT32_MAX} + 1, "a part number");
  }
  base::TextScanner s(text, source);
  std::vector<int32_t> part;
  while (true) {
    s.SkipBlankAndCommentLines('#');
    if (s.AtEndOfFile()) break;
    const std::string_view tok = s.TokenOnLine();
    int64_t p = 0;
    if (!base::ParseInt(tok, &p) || p < 0 || p > INT32_MAX) {
      return s.Error("a part number (an integer >= 0)", base::Quote(tok));
    }
    if (!s.AtEndOfLine()) {
      return s.Error("one part number per line", base::Quote(s.TokenOnLine()));
    }
    if (static_cast<int64_t>(part.size()) == num_vertices) {
      return s.Message(absl::StrCat("more than ", num_vertices,
                                    " lines (one per mesh vertex)"));
    }
    part.push_back(static_cast<int32_t>(p));
    s.NextLine();
  }
  if (static_cast<int64_t>(part.size()) != num_vertices) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source), ": ", part.size(), " lines for ",
                     num_vertices, " mesh vertices"));
  }
  return part;
}

absl::StatusOr<std::vector<int32_t>> ReadPartitionFile(const std::string& path,
                                                       int64_t num_vertices) {
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(path, "partition"));
  return ParsePartition(text, path, num_vertices);
}

}  // namespace rankmap::graphs
