#include "graphs/comm_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace rankmap::graphs {
namespace {

constexpr int64_t kMaxVertices = std::numeric_limits<VertexId>::max() - 1;

bool IsValidWeight(double w) { return std::isfinite(w) && w >= 0.0; }

}  // namespace

double CommGraph::EdgeWeight(VertexId u, VertexId v) const {
  auto row = neighbors(u);
  auto it = std::lower_bound(row.begin(), row.end(), v);
  if (it == row.end() || *it != v) return 0.0;
  return adjwgt_[xadj_[u] + (it - row.begin())];
}

// Sums run in long double so that finite weights whose total passes DBL_MAX
// only on the way (every arc counted twice) still give the finite half.
double CommGraph::TotalVolume() const {
  long double sum = 0.0L;
  for (double w : adjwgt_) sum += w;
  return static_cast<double>(sum / 2);
}

double CommGraph::VertexVolume(VertexId v) const {
  long double sum = 0.0L;
  for (double w : weights(v)) sum += w;
  return static_cast<double>(sum);
}

double CommGraph::TotalVertexWeight() const {
  if (vwgt_.empty()) return static_cast<double>(num_vertices());
  double sum = 0.0;
  for (double w : vwgt_) sum += w;
  return sum;
}

absl::StatusOr<CommGraph> CommGraph::FromCsr(std::vector<ArcIndex> xadj,
                                             std::vector<VertexId> adjncy,
                                             std::vector<double> adjwgt,
                                             std::vector<double> vwgt) {
  if (xadj.empty() || xadj.front() != 0) {
    return absl::InvalidArgumentError("graphs/csr: xadj must start with 0");
  }
  const int64_t n = static_cast<int64_t>(xadj.size()) - 1;
  if (n > kMaxVertices)
    return absl::InvalidArgumentError("graphs/csr: too many vertices");
  if (xadj.back() != static_cast<ArcIndex>(adjncy.size()) ||
      adjncy.size() != adjwgt.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "graphs/csr: xadj ends at ", xadj.back(), " but adjncy has ",
        adjncy.size(), " and adjwgt ", adjwgt.size(), " entries"));
  }
  if (!vwgt.empty() && static_cast<int64_t>(vwgt.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "graphs/csr: vwgt has ", vwgt.size(), " entries, expected ", n));
  }
  CommGraph g;
  g.xadj_ = std::move(xadj);
  g.adjncy_ = std::move(adjncy);
  g.adjwgt_ = std::move(adjwgt);
  g.vwgt_ = std::move(vwgt);
  for (VertexId v = 0; v < n; ++v) {
    if (g.xadj_[v + 1] < g.xadj_[v]) {
      return absl::InvalidArgumentError(
          absl::StrCat("graphs/csr: xadj decreases at vertex ", v));
    }
    if (!g.vwgt_.empty() && !IsValidWeight(g.vwgt_[v])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "graphs/csr: vertex ", v, ": invalid vertex weight ", g.vwgt_[v]));
    }
    VertexId prev = -1;
    for (ArcIndex a = g.xadj_[v]; a < g.xadj_[v + 1]; ++a) {
      const VertexId u = g.adjncy_[a];
      if (u < 0 || u >= n || u == v || u <= prev) {
        return absl::InvalidArgumentError(
            absl::StrCat("graphs/csr: vertex ", v, ": neighbour ", u,
                         " is out of range, a self loop, or not in strictly "
                         "increasing order"));
      }
      if (!IsValidWeight(g.adjwgt_[a])) {
        return absl::InvalidArgumentError(
            absl::StrCat("graphs/csr: edge (", v, ", ", u, "): invalid weight ",
                         g.adjwgt_[a]));
      }
      prev = u;
    }
  }
  for (VertexId v = 0; v < n; ++v) {
    auto row = g.neighbors(v);
    for (size_t k = 0; k < row.size(); ++k) {
      const VertexId u = row[k];
      if (u < v) continue;
      if (g.EdgeWeight(u, v) != g.adjwgt_[g.xadj_[v] + k] ||
          !std::binary_search(g.neighbors(u).begin(), g.neighbors(u).end(),
                              v)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "graphs/csr: edge (", v, ", ", u, ") is not symmetric"));
      }
    }
  }
  return g;
}

CommGraphBuilder::CommGraphBuilder(int64_t num_vertices) : n_(num_vertices) {}

absl::Status CommGraphBuilder::AddEdge(int64_t u, int64_t v, double w) {
  if (u < 0 || u >= n_ || v < 0 || v >= n_) {
    return absl::OutOfRangeError(
        absl::StrCat("graphs/builder: edge (", u, ", ", v,
                     "): vertex id out of range [0, ", n_, ")"));
  }
  if (!IsValidWeight(w)) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/builder: edge (", u, ", ", v, "): weight ", w,
                     " is negative, NaN or infinite"));
  }
  if (u == v) return absl::OkStatus();
  if (u > v) std::swap(u, v);
  edges_.push_back({static_cast<VertexId>(u), static_cast<VertexId>(v), w});
  return absl::OkStatus();
}

absl::Status CommGraphBuilder::SetVertexWeight(int64_t v, double w) {
  if (v < 0 || v >= n_) {
    return absl::OutOfRangeError(absl::StrCat("graphs/builder: vertex ", v,
                                              " out of range [0, ", n_, ")"));
  }
  if (!IsValidWeight(w)) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/builder: vertex ", v, ": weight ", w,
                     " is negative, NaN or infinite"));
  }
  if (vwgt_.empty()) vwgt_.assign(static_cast<size_t>(n_), 1.0);
  vwgt_[v] = w;
  return absl::OkStatus();
}

absl::StatusOr<CommGraph> CommGraphBuilder::Build() && {
  if (n_ < 0 || n_ > kMaxVertices) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/builder: vertex count ", n_, " outside [0, ",
                     kMaxVertices, "]"));
  }
  const VertexId n = static_cast<VertexId>(n_);
  // Bucket the edges by their smaller endpoint (counting sort), then merge
  // duplicates per row.
  std::vector<ArcIndex> start(n + 1, 0);
  for (const Edge& e : edges_) ++start[e.u + 1];
  for (VertexId v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<std::pair<VertexId, double>> upper(edges_.size());
  {
    std::vector<ArcIndex> pos(start.begin(), start.end() - 1);
    for (const Edge& e : edges_) upper[pos[e.u]++] = {e.v, e.w};
  }
  edges_.clear();
  edges_.shrink_to_fit();
  std::vector<VertexId> degree(n, 0);
  ArcIndex unique = 0;
  for (VertexId v = 0; v < n; ++v) {
    auto first = upper.begin() + start[v], last = upper.begin() + start[v + 1];
    std::sort(first, last,
              [](const auto& a, const auto& b) { return a.first < b.first; });
    ArcIndex out = start[v];
    for (auto it = first; it != last; ++it) {
      if (out > start[v] && upper[out - 1].first == it->first) {
        upper[out - 1].second += it->second;
        if (!std::isfinite(upper[out - 1].second)) {
          return absl::InvalidArgumentError(
              absl::StrCat("graphs/builder: edge (", v, ", ", it->first,
                           "): the summed weight overflows to infinity"));
        }
      } else {
        upper[out++] = *it;
      }
    }
    for (ArcIndex a = start[v]; a < out; ++a) {
      ++degree[v];
      ++degree[upper[a].first];
    }
    // A sentinel marks where the compacted row ends inside its bucket.
    if (out < start[v + 1]) upper[out].first = -1;
    unique += out - start[v];
  }
  CommGraph g;
  g.xadj_.assign(n + 1, 0);
  for (VertexId v = 0; v < n; ++v) g.xadj_[v + 1] = g.xadj_[v] + degree[v];
  g.adjncy_.resize(2 * unique);
  g.adjwgt_.resize(2 * unique);
  std::vector<ArcIndex> fill(g.xadj_.begin(), g.xadj_.end() - 1);
  // Rows come out sorted: for vertex x, the lower neighbours (u < x) are
  // appended while scanning u in increasing order, before x's own upper row is
  // appended.
  for (VertexId u = 0; u < n; ++u) {
    for (ArcIndex a = start[u]; a < start[u + 1] && upper[a].first >= 0; ++a) {
      const auto [v, w] = upper[a];
      g.adjncy_[fill[u]] = v;
      g.adjwgt_[fill[u]++] = w;
      g.adjncy_[fill[v]] = u;
      g.adjwgt_[fill[v]++] = w;
    }
  }
  g.vwgt_ = std::move(vwgt_);
  return g;
}

}  // namespace rankmap::graphs
