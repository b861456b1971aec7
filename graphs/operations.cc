#include "graphs/operations.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "graphs/csr_access.h"

namespace rankmap::graphs {
namespace {

// Writes the rows of the relabelled graph in increasing new-id order r; each
// arc (r, c) lands in row c, so every output row receives its entries in
// increasing order and comes out sorted. `new_id[old]` is -1 for dropped
// vertices; `old_of[r]` lists kept vertices.
CommGraph Relabel(const CommGraph& graph, std::span<const VertexId> old_of,
                  std::span<const VertexId> new_id) {
  const VertexId k = static_cast<VertexId>(old_of.size());
  std::vector<ArcIndex> xadj(k + 1, 0);
  for (VertexId r = 0; r < k; ++r) {
    for (VertexId u : graph.neighbors(old_of[r])) {
      if (new_id[u] >= 0) ++xadj[new_id[u] + 1];
    }
  }
  for (VertexId c = 0; c < k; ++c) xadj[c + 1] += xadj[c];
  std::vector<VertexId> adjncy(xadj[k]);
  std::vector<double> adjwgt(xadj[k]);
  std::vector<double> adjmsg(graph.has_messages() ? xadj[k] : 0);
  std::vector<ArcIndex> fill(xadj.begin(), xadj.end() - 1);
  for (VertexId r = 0; r < k; ++r) {
    auto row = graph.neighbors(old_of[r]);
    auto wgt = graph.weights(old_of[r]);
    for (size_t a = 0; a < row.size(); ++a) {
      const VertexId c = new_id[row[a]];
      if (c < 0) continue;
      if (!adjmsg.empty()) adjmsg[fill[c]] = graph.messages(old_of[r])[a];
      adjncy[fill[c]] = r;
      adjwgt[fill[c]++] = wgt[a];
    }
  }
  std::vector<double> vwgt;
  if (graph.has_vertex_weights()) {
    vwgt.resize(k);
    for (VertexId r = 0; r < k; ++r) vwgt[r] = graph.vertex_weight(old_of[r]);
  }
  return internal::CsrAccess::Make(std::move(xadj), std::move(adjncy),
                                   std::move(adjwgt), std::move(vwgt),
                                   std::move(adjmsg));
}

}  // namespace

absl::StatusOr<CommGraph> PermuteVertices(const CommGraph& graph,
                                          std::span<const VertexId> perm) {
  const VertexId n = graph.num_vertices();
  if (static_cast<int64_t>(perm.size()) != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/permute: permutation has ", perm.size(),
                     " entries, the graph ", n, " vertices"));
  }
  std::vector<VertexId> old_of(n, -1);
  for (VertexId v = 0; v < n; ++v) {
    const VertexId p = perm[v];
    if (p < 0 || p >= n || old_of[p] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("graphs/permute: perm[", v, "] = ", p,
                       " is out of range or repeated"));
    }
    old_of[p] = v;
  }
  return Relabel(graph, old_of, perm);
}

absl::StatusOr<CommGraph> InducedSubgraph(const CommGraph& graph,
                                          std::span<const VertexId> vertices) {
  return SubgraphExtractor().Extract(graph, vertices);
}

absl::StatusOr<CommGraph> SubgraphExtractor::Extract(
    const CommGraph& graph, std::span<const VertexId> vertices) {
  const VertexId n = graph.num_vertices();
  if (static_cast<VertexId>(new_id_.size()) < n) new_id_.resize(n, -1);
  auto clear = [&](size_t upto) {
    for (size_t i = 0; i < upto; ++i) new_id_[vertices[i]] = -1;
  };
  for (size_t i = 0; i < vertices.size(); ++i) {
    const VertexId v = vertices[i];
    if (v < 0 || v >= n || new_id_[v] >= 0) {
      clear(i);
      return absl::InvalidArgumentError(
          absl::StrCat("graphs/subgraph: vertices[", i, "] = ", v,
                       " is out of range or repeated"));
    }
    new_id_[v] = static_cast<VertexId>(i);
  }
  CommGraph sub = Relabel(graph, vertices, new_id_);
  clear(vertices.size());
  return sub;
}

absl::StatusOr<CommGraph> GraphContractor::Contract(
    const CommGraph& graph, std::span<const VertexId> group,
    VertexId num_groups) {
  const VertexId n = graph.num_vertices();
  if (static_cast<int64_t>(group.size()) != n || num_groups < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/contract: ", group.size(), " group ids for ", n,
                     " vertices, ", num_groups, " groups"));
  }
  const VertexId k = num_groups;
  // Members of each group, by counting sort.
  member_start_.assign(k + 1, 0);
  for (VertexId v = 0; v < n; ++v) {
    if (group[v] < 0 || group[v] >= k) {
      return absl::InvalidArgumentError(absl::StrCat("graphs/contract: group[",
                                                     v, "] = ", group[v],
                                                     " outside [0, ", k, ")"));
    }
    ++member_start_[group[v] + 1];
  }
  for (VertexId g = 0; g < k; ++g) member_start_[g + 1] += member_start_[g];
  members_.resize(n);
  fill_.assign(member_start_.begin(), member_start_.end() - 1);
  for (VertexId v = 0; v < n; ++v) members_[fill_[group[v]]++] = v;

  // Pass 1: per group g, the sums w(g, h) for h > g only, accumulated through
  // slot_[h] (the position of h in g's row, valid when >= the row's start).
  // Each edge's sum is computed once, on its lower endpoint's side.
  std::vector<double> vwgt(k, 0.0);
  slot_.assign(k, -1);
  upper_start_.assign(k + 1, 0);
  upper_adj_.clear();
  upper_wgt_.clear();
  for (VertexId g = 0; g < k; ++g) {
    const ArcIndex row_start = static_cast<ArcIndex>(upper_adj_.size());
    for (ArcIndex i = member_start_[g]; i < member_start_[g + 1]; ++i) {
      const VertexId v = members_[i];
      vwgt[g] += graph.vertex_weight(v);
      auto row = graph.neighbors(v);
      auto wgt = graph.weights(v);
      for (size_t a = 0; a < row.size(); ++a) {
        const VertexId h = group[row[a]];
        if (h <= g) continue;
        if (slot_[h] < row_start) {
          slot_[h] = static_cast<ArcIndex>(upper_adj_.size());
          upper_adj_.push_back(h);
          upper_wgt_.push_back(wgt[a]);
        } else {
          upper_wgt_[slot_[h]] += wgt[a];
        }
      }
    }
    upper_start_[g + 1] = static_cast<ArcIndex>(upper_adj_.size());
  }

  // Pass 2: lay out each row as [lower neighbours][upper neighbours], both
  // sorted. Lower entries of row h arrive from rows g < h in increasing g;
  // upper entries of row g are then produced from the lower parts of rows h > g
  // in increasing h.
  std::vector<ArcIndex> xadj(k + 1, 0);
  std::vector<ArcIndex> lower_count(k, 0);
  for (ArcIndex a = 0; a < upper_start_[k]; ++a) ++lower_count[upper_adj_[a]];
  for (VertexId g = 0; g < k; ++g) {
    xadj[g + 1] =
        xadj[g] + lower_count[g] + (upper_start_[g + 1] - upper_start_[g]);
  }
  std::vector<VertexId> adjncy(xadj[k]);
  std::vector<double> adjwgt(xadj[k]);
  fill_.assign(xadj.begin(), xadj.end() - 1);
  for (VertexId g = 0; g < k; ++g) {
    for (ArcIndex a = upper_start_[g]; a < upper_start_[g + 1]; ++a) {
      const VertexId h = upper_adj_[a];
      adjncy[fill_[h]] = g;
      adjwgt[fill_[h]++] = upper_wgt_[a];
    }
  }
  for (VertexId h = 0; h < k; ++h) {
    for (ArcIndex a = xadj[h]; a < xadj[h] + lower_count[h]; ++a) {
      const VertexId g = adjncy[a];
      adjncy[fill_[g]] = h;
      adjwgt[fill_[g]++] = adjwgt[a];
    }
  }
  return internal::CsrAccess::Make(std::move(xadj), std::move(adjncy),
                                   std::move(adjwgt), std::move(vwgt));
}

absl::StatusOr<CommGraph> ContractGraph(const CommGraph& graph,
                                        std::span<const VertexId> group,
                                        VertexId num_groups) {
  GraphContractor contractor;
  return contractor.Contract(graph, group, num_groups);
}

GraphStats ComputeStats(const CommGraph& graph) {
  GraphStats s;
  s.num_vertices = graph.num_vertices();
  s.num_edges = graph.num_edges();
  s.total_vertex_weight = graph.TotalVertexWeight();
  if (s.num_vertices == 0) return s;
  s.min_degree = std::numeric_limits<int64_t>::max();
  for (VertexId v = 0; v < graph.num_vertices(); ++v) {
    const int64_t d = graph.degree(v);
    s.min_degree = std::min(s.min_degree, d);
    s.max_degree = std::max(s.max_degree, d);
    s.isolated_vertices += d == 0;
  }
  s.mean_degree = static_cast<double>(graph.num_arcs()) / s.num_vertices;
  if (graph.num_arcs() > 0) {
    auto [lo, hi] =
        std::minmax_element(graph.adjwgt().begin(), graph.adjwgt().end());
    s.min_edge_weight = *lo;
    s.max_edge_weight = *hi;
  }
  s.total_volume = graph.TotalVolume();
  return s;
}

std::string FormatStats(const GraphStats& s) {
  return absl::StrCat("n=", s.num_vertices, " m=", s.num_edges,
                      " degree=", s.min_degree, "..", s.max_degree, " (mean ",
                      s.mean_degree, ") isolated=", s.isolated_vertices,
                      " weight=", s.min_edge_weight, "..", s.max_edge_weight,
                      " volume=", s.total_volume);
}

}  // namespace rankmap::graphs
