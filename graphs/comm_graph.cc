#include "graphs/comm_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

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

double CommGraph::TotalMessages() const {
  long double sum = 0.0L;
  for (double m : adjmsg_) sum += m;
  return static_cast<double>(sum / 2);
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
                                             std::vector<double> vwgt,
                                             std::vector<double> adjmsg) {
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
  if (adjmsg.empty()) return g;
  return g.WithMessages(std::move(adjmsg));
}

absl::StatusOr<CommGraph> CommGraph::WithMessages(
    std::vector<double> adjmsg) const {
  CommGraph g = *this;
  if (adjmsg.empty()) {
    g.adjmsg_.clear();
    return g;
  }
  if (static_cast<ArcIndex>(adjmsg.size()) != num_arcs()) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/csr: ", adjmsg.size(), " message counts for ",
                     num_arcs(), " arcs"));
  }
  for (VertexId v = 0; v < num_vertices(); ++v) {
    auto row = neighbors(v);
    for (size_t k = 0; k < row.size(); ++k) {
      const double m = adjmsg[xadj_[v] + k];
      if (!IsValidWeight(m)) {
        return absl::InvalidArgumentError(
            absl::StrCat("graphs/csr: edge (", v, ", ", row[k],
                         "): invalid message count ", m));
      }
      const VertexId u = row[k];
      if (u < v) continue;
      auto back = neighbors(u);
      const ArcIndex mirror =
          xadj_[u] +
          (std::lower_bound(back.begin(), back.end(), v) - back.begin());
      if (adjmsg[mirror] != m) {
        return absl::InvalidArgumentError(
            absl::StrCat("graphs/csr: edge (", v, ", ", u,
                         "): message counts are not symmetric"));
      }
    }
  }
  g.adjmsg_ = std::move(adjmsg);
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
  if (!messages_.empty()) messages_.push_back(0.0);
  return absl::OkStatus();
}

absl::Status CommGraphBuilder::AddTraffic(int64_t u, int64_t v, double w,
                                          double messages) {
  if (!IsValidWeight(messages)) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/builder: edge (", u, ", ", v, "): message count ",
                     messages, " is negative, NaN or infinite"));
  }
  const size_t before = edges_.size();
  RETURN_IF_ERROR(AddEdge(u, v, w));
  if (edges_.size() == before) return absl::OkStatus();  // a self loop
  if (messages_.empty()) messages_.assign(edges_.size(), 0.0);
  messages_.back() = messages;
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

namespace {

// A row entry of the builder's upper triangle: the neighbour, the bytes and,
// in the instantiation with messages, the message count (the other keeps
// Build's memory at 16 bytes per edge when no counts were given).
struct UpperEntry {
  VertexId v;
  double w;
  static constexpr bool kMessages = false;
  double m() const { return 0.0; }
  void AddMessages(const UpperEntry&) {}
};
struct UpperEntryWithMessages {
  VertexId v;
  double w;
  double msgs;
  static constexpr bool kMessages = true;
  double m() const { return msgs; }
  void AddMessages(const UpperEntryWithMessages& o) { msgs += o.msgs; }
};

}  // namespace

template <typename Entry>
absl::StatusOr<CommGraph> CommGraphBuilder::BuildRows(VertexId n) {
  // Bucket the edges by their smaller endpoint (counting sort), then merge
  // duplicates per row.
  std::vector<ArcIndex> start(n + 1, 0);
  for (const Edge& e : edges_) ++start[e.u + 1];
  for (VertexId v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<Entry> upper(edges_.size());
  {
    std::vector<ArcIndex> pos(start.begin(), start.end() - 1);
    for (size_t i = 0; i < edges_.size(); ++i) {
      const Edge& e = edges_[i];
      Entry& x = upper[pos[e.u]++];
      x.v = e.v;
      x.w = e.w;
      if constexpr (Entry::kMessages) x.msgs = messages_[i];
    }
  }
  edges_.clear();
  edges_.shrink_to_fit();
  messages_.clear();
  messages_.shrink_to_fit();
  std::vector<VertexId> degree(n, 0);
  ArcIndex unique = 0;
  for (VertexId v = 0; v < n; ++v) {
    auto first = upper.begin() + start[v], last = upper.begin() + start[v + 1];
    std::sort(first, last,
              [](const Entry& a, const Entry& b) { return a.v < b.v; });
    ArcIndex out = start[v];
    for (auto it = first; it != last; ++it) {
      if (out > start[v] && upper[out - 1].v == it->v) {
        Entry& merged = upper[out - 1];
        merged.w += it->w;
        merged.AddMessages(*it);
        if (!std::isfinite(merged.w) || !std::isfinite(merged.m())) {
          return absl::InvalidArgumentError(absl::StrCat(
              "graphs/builder: edge (", v, ", ", it->v, "): the summed ",
              std::isfinite(merged.w) ? "message count" : "weight",
              " overflows to infinity"));
        }
      } else {
        upper[out++] = *it;
      }
    }
    for (ArcIndex a = start[v]; a < out; ++a) {
      ++degree[v];
      ++degree[upper[a].v];
    }
    // A sentinel marks where the compacted row ends inside its bucket.
    if (out < start[v + 1]) upper[out].v = -1;
    unique += out - start[v];
  }
  CommGraph g;
  g.xadj_.assign(n + 1, 0);
  for (VertexId v = 0; v < n; ++v) g.xadj_[v + 1] = g.xadj_[v] + degree[v];
  g.adjncy_.resize(2 * unique);
  g.adjwgt_.resize(2 * unique);
  if constexpr (Entry::kMessages) g.adjmsg_.resize(2 * unique);
  std::vector<ArcIndex> fill(g.xadj_.begin(), g.xadj_.end() - 1);
  // Rows come out sorted: for vertex x, the lower neighbours (u < x) are
  // appended while scanning u in increasing order, before x's own upper row is
  // appended.
  for (VertexId u = 0; u < n; ++u) {
    for (ArcIndex a = start[u]; a < start[u + 1] && upper[a].v >= 0; ++a) {
      const Entry& e = upper[a];
      const ArcIndex fu = fill[u]++, fv = fill[e.v]++;
      g.adjncy_[fu] = e.v;
      g.adjwgt_[fu] = e.w;
      g.adjncy_[fv] = u;
      g.adjwgt_[fv] = e.w;
      if constexpr (Entry::kMessages) g.adjmsg_[fu] = g.adjmsg_[fv] = e.m();
    }
  }
  g.vwgt_ = std::move(vwgt_);
  return g;
}

absl::StatusOr<CommGraph> CommGraphBuilder::Build() && {
  if (n_ < 0 || n_ > kMaxVertices) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/builder: vertex count ", n_, " outside [0, ",
                     kMaxVertices, "]"));
  }
  const VertexId n = static_cast<VertexId>(n_);
  if (messages_.empty()) return BuildRows<UpperEntry>(n);
  return BuildRows<UpperEntryWithMessages>(n);
}

}  // namespace rankmap::graphs
