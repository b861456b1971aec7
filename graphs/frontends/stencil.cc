#include "graphs/frontends/stencil.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "graphs/graph_readers.h"

namespace rankmap::graphs {

using tiling::GridBox;
using tiling::GridPartition;

namespace {

absl::Status Invalid(std::string_view context, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(context), ": ", what));
}

int64_t Overlap(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi) {
  return std::max<int64_t>(0, std::min(ahi, bhi) - std::max(alo, blo));
}

// What HaloMessages needs to know about the grid and the stencil.
struct HaloContext {
  int32_t dims = 2;
  std::array<int64_t, 3> extent = {1, 1, 1};
  std::array<bool, 3> periodic = {false, false, false};
  bool box = false;  // box stencil (diagonals) rather than star
  int64_t halo = 1;
};

// Ghost cells of `recv` that `owner`, moved by `shift` (whole periods), covers.
// The shifted owner never overlaps recv itself (callers skip the unshifted self
// pair), which lets the star's union of axis-widened boxes be counted as a
// plain sum (the widened boxes meet only in recv).
int64_t GhostCells(const HaloContext& c, const GridBox& owner,
                   const std::array<int64_t, 3>& shift, const GridBox& recv) {
  std::array<int64_t, 3> lo, hi;
  for (int d = 0; d < 3; ++d) {
    lo[d] = owner.lo[d] + shift[d] * c.extent[d];
    hi[d] = owner.hi[d] + shift[d] * c.extent[d];
  }
  if (c.box) {
    int64_t cells = 1;
    for (int d = 0; d < c.dims; ++d) {
      cells *= Overlap(lo[d], hi[d], recv.lo[d] - c.halo, recv.hi[d] + c.halo);
      if (cells == 0) return 0;
    }
    return cells;
  }
  int64_t total = 0;
  for (int e = 0; e < c.dims; ++e) {
    int64_t cells = 1;
    for (int d = 0; d < c.dims && cells > 0; ++d) {
      const int64_t widen = d == e ? c.halo : 0;
      cells *= Overlap(lo[d], hi[d], recv.lo[d] - widen, recv.hi[d] + widen);
    }
    total += cells;
  }
  return total;
}

// Neighbour search for tensor partitions: per dimension, the (block coordinate,
// period shift) pairs whose block reaches [lo - reach, hi + reach).
void AxisCandidates(const HaloContext& c, const std::vector<int64_t>& cut,
                    int d, int64_t lo, int64_t hi, int64_t reach,
                    std::vector<std::pair<int64_t, int64_t>>& out) {
  out.clear();
  const int64_t n = c.extent[d];
  for (int64_t s = -1; s <= 1; ++s) {
    if (s != 0 && !(d < c.dims && c.periodic[d])) continue;
    const int64_t a = std::max<int64_t>(0, lo - reach - s * n);
    const int64_t b = std::min<int64_t>(n, hi + reach - s * n);
    if (a >= b) continue;
    const int64_t first =
        std::upper_bound(cut.begin(), cut.end(), a) - cut.begin() - 1;
    const int64_t last =
        std::upper_bound(cut.begin(), cut.end(), b - 1) - cut.begin() - 1;
    for (int64_t k = first; k <= last; ++k) out.emplace_back(k, s);
  }
}

// Where a receiver's ghost cells can lie: a box stencil reaches along every
// axis at once (one region), a star along one axis at a time (one region per
// axis; they meet only in the receiver, which no other box overlaps, so no
// sender is found twice). Pattern e widens the dimensions Widens(c, e, d).
int Patterns(const HaloContext& c) { return c.box ? 1 : c.dims; }
bool Widens(const HaloContext& c, int e, int d) {
  return d < c.dims && (c.box || d == e);
}

// Sorted by src, merged: the transfers into one receiver.
void AppendMerged(int32_t dst, std::vector<std::pair<int32_t, int64_t>>& in,
                  std::vector<HaloMessage>& out) {
  std::sort(in.begin(), in.end());
  for (size_t i = 0; i < in.size();) {
    int64_t cells = 0;
    size_t j = i;
    for (; j < in.size() && in[j].first == in[i].first; ++j)
      cells += in[j].second;
    if (cells > 0) out.push_back({in[i].first, dst, cells});
    i = j;
  }
}

// The checks of HaloMessages' inputs, and what its searches need.
absl::StatusOr<HaloContext> MakeHaloContext(const GridPartition& partition,
                                            const std::vector<bool>& periodic,
                                            Stencil stencil, int32_t halo) {
  constexpr std::string_view kCtx = "stencil/halo";
  RETURN_IF_ERROR(tiling::ValidateGridPartition(partition));
  if (StencilDims(stencil) != partition.dims) {
    return Invalid(
        kCtx, absl::StrCat("a ", StencilHasDiagonals(stencil) ? "box" : "star",
                           " stencil for ", StencilDims(stencil),
                           "D grids on a ", partition.dims, "D grid"));
  }
  if (halo < 1)
    return Invalid(kCtx, absl::StrCat("halo width ", halo, " is not positive"));
  if (!periodic.empty() &&
      static_cast<int32_t>(periodic.size()) != partition.dims) {
    return Invalid(kCtx, absl::StrCat("periodic has ", periodic.size(),
                                      " entries, the grid ", partition.dims,
                                      " dimensions"));
  }
  HaloContext c;
  c.dims = partition.dims;
  c.box = StencilHasDiagonals(stencil);
  c.halo = halo;
  for (int d = 0; d < c.dims; ++d) {
    c.extent[d] = partition.extent[d];
    c.periodic[d] = !periodic.empty() && periodic[d];
    // Wider halos would wrap more than once; three copies of the grid would not
    // suffice.
    if (c.periodic[d] && halo > c.extent[d]) {
      return Invalid(kCtx, absl::StrCat("halo width ", halo,
                                        " exceeds the periodic extent ",
                                        c.extent[d], " of dimension ", d));
    }
  }
  return c;
}

// The messages found so far against the memory budget: each costs its own
// entry and, in the graph built from them, two arcs.
class MessageBudget {
 public:
  MessageBudget(int64_t procs, int64_t max_memory_bytes)
      : procs_(procs), budget_(base::MemoryBudget(max_memory_bytes)) {}

  int64_t bytes() const { return budget_; }

  absl::Status Check(int64_t messages) const {
    const int64_t bytes = base::SaturatingMulAdd(
        messages, sizeof(HaloMessage),
        EstimatedGraphBytes(procs_, base::SaturatingMulAdd(messages, 2)));
    if (bytes <= budget_) return absl::OkStatus();
    return base::CheckMemory(
        absl::StrCat("stencil: the halo exchange of ", procs_, " processes (",
                     messages, " messages so far)"),
        bytes, budget_);
  }

 private:
  int64_t procs_;
  int64_t budget_;
};

// Tensor partitions: per dimension, the blocks within reach by binary search
// on the cuts. O(P * neighbours).
absl::Status TensorMessages(const HaloContext& c, const GridPartition& p,
                            const MessageBudget& budget,
                            std::vector<HaloMessage>& out) {
  const int32_t procs = static_cast<int32_t>(p.boxes.size());
  std::array<int64_t, 3> g = {1, 1, 1};
  for (int d = 0; d < c.dims; ++d)
    g[d] = static_cast<int64_t>(p.cuts[d].size()) - 1;
  std::array<std::vector<std::pair<int64_t, int64_t>>, 3> cand;
  const std::vector<int64_t> unit = {0, 1};
  std::vector<std::pair<int32_t, int64_t>> incoming;
  for (int32_t r = 0; r < procs; ++r) {
    const GridBox& recv = p.boxes[r];
    incoming.clear();
    for (int e = 0; e < Patterns(c); ++e) {
      for (int d = 0; d < 3; ++d) {
        AxisCandidates(c, d < c.dims ? p.cuts[d] : unit, d, recv.lo[d],
                       recv.hi[d], Widens(c, e, d) ? c.halo : 0, cand[d]);
      }
      for (auto [c0, s0] : cand[0]) {
        for (auto [c1, s1] : cand[1]) {
          for (auto [c2, s2] : cand[2]) {
            const int32_t src =
                static_cast<int32_t>((c0 * g[1] + c1) * g[2] + c2);
            if (src == r) continue;  // itself, or a wrap onto itself
            const int64_t cells =
                GhostCells(c, p.boxes[src], {s0, s1, s2}, recv);
            if (cells > 0) incoming.emplace_back(src, cells);
          }
        }
      }
    }
    RETURN_IF_ERROR(
        budget.Check(static_cast<int64_t>(out.size() + incoming.size())));
    AppendMerged(r, incoming, out);
  }
  return absl::OkStatus();
}

// A bucket grid over the partition, about one bucket per box, so that a
// receiver tests the boxes near its halo instead of every box.
class BoxIndex {
 public:
  BoxIndex(const HaloContext& c, size_t num_boxes) : stamp_(num_boxes, 0) {
    double cells = 1;
    for (int d = 0; d < c.dims; ++d) cells *= static_cast<double>(c.extent[d]);
    const double per_cell =
        std::pow(static_cast<double>(num_boxes) / cells, 1.0 / c.dims);
    for (int d = 0; d < c.dims; ++d) {
      const int64_t n = std::clamp<int64_t>(
          std::llround(static_cast<double>(c.extent[d]) * per_cell), 1,
          c.extent[d]);
      size_[d] = (c.extent[d] + n - 1) / n;
      count_[d] = (c.extent[d] + size_[d] - 1) / size_[d];
    }
  }

  // Files every box under the buckets it meets, once their number is known
  // to fit `budget` bytes beside the messages.
  absl::Status Fill(const std::vector<GridBox>& boxes, int64_t budget) {
    int64_t entries = 0;
    ForEachBucket(boxes, [&](int64_t, int32_t) { ++entries; });
    const int64_t buckets = count_[0] * count_[1] * count_[2];
    RETURN_IF_ERROR(base::CheckMemory(
        absl::StrCat("stencil: the neighbour index of ", boxes.size(),
                     " boxes"),
        base::SaturatingMulAdd(buckets + entries, sizeof(int64_t)), budget));
    first_.assign(buckets + 1, 0);
    ForEachBucket(boxes, [&](int64_t b, int32_t) { ++first_[b + 1]; });
    for (size_t b = 1; b < first_.size(); ++b) first_[b] += first_[b - 1];
    ids_.resize(first_.back());
    std::vector<int64_t> next(first_.begin(), first_.end() - 1);
    ForEachBucket(boxes, [&](int64_t b, int32_t i) { ids_[next[b]++] = i; });
    return absl::OkStatus();
  }

  // Starts a query: boxes are reported once across the Query calls up to the
  // next NewQuery.
  void NewQuery() { ++epoch_; }

  // Every box filed under a bucket that meets [lo, hi) (inside the grid): a
  // superset of the boxes meeting it, appended.
  void Query(const std::array<int64_t, 3>& lo, const std::array<int64_t, 3>& hi,
             std::vector<int32_t>& out) {
    for (int64_t x = lo[0] / size_[0]; x <= (hi[0] - 1) / size_[0]; ++x) {
      for (int64_t y = lo[1] / size_[1]; y <= (hi[1] - 1) / size_[1]; ++y) {
        for (int64_t z = lo[2] / size_[2]; z <= (hi[2] - 1) / size_[2]; ++z) {
          const int64_t b = (x * count_[1] + y) * count_[2] + z;
          for (int64_t k = first_[b]; k < first_[b + 1]; ++k) {
            if (stamp_[ids_[k]] != epoch_) {
              stamp_[ids_[k]] = epoch_;
              out.push_back(ids_[k]);
            }
          }
        }
      }
    }
  }

 private:
  template <typename Fn>
  void ForEachBucket(const std::vector<GridBox>& boxes, Fn fn) const {
    for (size_t i = 0; i < boxes.size(); ++i) {
      const GridBox& bx = boxes[i];
      for (int64_t x = bx.lo[0] / size_[0]; x <= (bx.hi[0] - 1) / size_[0];
           ++x) {
        for (int64_t y = bx.lo[1] / size_[1]; y <= (bx.hi[1] - 1) / size_[1];
             ++y) {
          for (int64_t z = bx.lo[2] / size_[2]; z <= (bx.hi[2] - 1) / size_[2];
               ++z) {
            fn((x * count_[1] + y) * count_[2] + z, static_cast<int32_t>(i));
          }
        }
      }
    }
  }

  std::array<int64_t, 3> size_ = {1, 1, 1};   // cells per bucket
  std::array<int64_t, 3> count_ = {1, 1, 1};  // buckets per dimension
  std::vector<int64_t> first_;                // CSR over buckets
  std::vector<int32_t> ids_;
  std::vector<uint64_t> stamp_;
  uint64_t epoch_ = 0;
};

// General boxes (no cuts): candidates from a BoxIndex, per period shift.
// Overlapping boxes share a bucket, so disjointness is checked on the way.
// O(P + candidates).
absl::Status GeneralMessages(const HaloContext& c, const GridPartition& p,
                             const MessageBudget& budget,
                             std::vector<HaloMessage>& out) {
  std::vector<std::array<int64_t, 3>> shifts;
  for (int64_t s0 = -1; s0 <= 1; ++s0) {
    for (int64_t s1 = -1; s1 <= 1; ++s1) {
      for (int64_t s2 = -1; s2 <= 1; ++s2) {
        const int64_t s[3] = {s0, s1, s2};
        bool ok = true;
        for (int d = 0; d < 3; ++d)
          ok = ok && (s[d] == 0 || (d < c.dims && c.periodic[d]));
        if (ok) shifts.push_back({s0, s1, s2});
      }
    }
  }
  BoxIndex index(c, p.boxes.size());
  RETURN_IF_ERROR(index.Fill(p.boxes, budget.bytes()));
  const int32_t procs = static_cast<int32_t>(p.boxes.size());
  std::vector<int32_t> cand;
  std::vector<std::pair<int32_t, int64_t>> incoming;
  for (int32_t r = 0; r < procs; ++r) {
    const GridBox& recv = p.boxes[r];
    cand.clear();
    index.NewQuery();
    index.Query(recv.lo, recv.hi, cand);
    int32_t first_overlap = procs;
    for (int32_t a : cand) {
      bool meet = a != r;
      for (int d = 0; d < c.dims && meet; ++d) {
        meet = Overlap(p.boxes[a].lo[d], p.boxes[a].hi[d], recv.lo[d],
                       recv.hi[d]) > 0;
      }
      if (meet) first_overlap = std::min(first_overlap, a);
    }
    if (first_overlap < procs) {
      return Invalid("stencil/partition",
                     absl::StrCat("boxes of processes ", first_overlap, " and ",
                                  r, " overlap"));
    }
    incoming.clear();
    for (const auto& s : shifts) {
      cand.clear();
      index.NewQuery();
      for (int e = 0; e < Patterns(c); ++e) {
        // Pattern e's reach of recv, moved back by the shift, in the grid.
        std::array<int64_t, 3> lo = {0, 0, 0}, hi = {1, 1, 1};
        bool empty = false;
        for (int d = 0; d < 3; ++d) {
          const int64_t reach = Widens(c, e, d) ? c.halo : 0;
          lo[d] = std::max<int64_t>(0, recv.lo[d] - reach - s[d] * c.extent[d]);
          hi[d] = std::min<int64_t>(c.extent[d],
                                    recv.hi[d] + reach - s[d] * c.extent[d]);
          empty = empty || lo[d] >= hi[d];
        }
        if (!empty) index.Query(lo, hi, cand);
      }
      for (int32_t a : cand) {
        if (a == r) continue;  // wrap onto itself: no message
        const int64_t cells = GhostCells(c, p.boxes[a], s, recv);
        if (cells > 0) incoming.emplace_back(a, cells);
      }
    }
    RETURN_IF_ERROR(
        budget.Check(static_cast<int64_t>(out.size() + incoming.size())));
    AppendMerged(r, incoming, out);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Stencil> StencilFromPoints(int32_t points) {
  switch (points) {
    case 5:
      return Stencil::k5Point;
    case 9:
      return Stencil::k9Point;
    case 7:
      return Stencil::k7Point;
    case 27:
      return Stencil::k27Point;
  }
  return Invalid("stencil", absl::StrCat("unknown stencil '", points,
                                         "' (expected 5, 9, 7 or 27)"));
}

int32_t StencilDims(Stencil s) {
  return s == Stencil::k5Point || s == Stencil::k9Point ? 2 : 3;
}

bool StencilHasDiagonals(Stencil s) {
  return s == Stencil::k9Point || s == Stencil::k27Point;
}

absl::StatusOr<std::vector<HaloMessage>> HaloMessages(
    const GridPartition& partition, const std::vector<bool>& periodic,
    Stencil stencil, int32_t halo, int64_t max_memory_bytes) {
  ASSIGN_OR_RETURN(const HaloContext c,
                   MakeHaloContext(partition, periodic, stencil, halo));
  MessageBudget budget(static_cast<int64_t>(partition.boxes.size()),
                       max_memory_bytes);
  std::vector<HaloMessage> out;
  if (!partition.cuts.empty()) {
    RETURN_IF_ERROR(TensorMessages(c, partition, budget, out));
  } else {
    RETURN_IF_ERROR(GeneralMessages(c, partition, budget, out));
  }
  return out;
}

absl::StatusOr<CommGraph> HaloGraph(const GridPartition& partition,
                                    const std::vector<bool>& periodic,
                                    Stencil stencil, int32_t halo,
                                    double element_size,
                                    std::span<const double> axis_weights,
                                    int64_t max_memory_bytes) {
  if (!std::isfinite(element_size) || element_size <= 0) {
    return Invalid("stencil/halo", absl::StrCat("element size ", element_size,
                                                " is not a positive number"));
  }
  if (!axis_weights.empty()) {
    if (axis_weights.size() != static_cast<size_t>(partition.dims)) {
      return Invalid("stencil/halo",
                     absl::StrCat(axis_weights.size(), " axis weights for ",
                                  partition.dims, " dimensions"));
    }
    for (double w : axis_weights) {
      if (!std::isfinite(w) || w <= 0) {
        return Invalid(
            "stencil/halo",
            absl::StrCat("axis weight ", w, " is not a positive number"));
      }
    }
  }
  ASSIGN_OR_RETURN(
      std::vector<HaloMessage> msgs,
      HaloMessages(partition, periodic, stencil, halo, max_memory_bytes));
  CommGraphBuilder b(static_cast<int64_t>(partition.boxes.size()));
  b.Reserve(static_cast<int64_t>(msgs.size()));
  for (const HaloMessage& m : msgs) {
    double weight = 1.0;
    if (!axis_weights.empty()) {
      // The dimensions along which the two boxes do not overlap.
      const GridBox& s = partition.boxes[m.src];
      const GridBox& d = partition.boxes[m.dst];
      weight = 0.0;
      for (int32_t k = 0; k < partition.dims; ++k) {
        if (s.hi[k] <= d.lo[k] || d.hi[k] <= s.lo[k]) {
          weight = std::max(weight, axis_weights[k]);
        }
      }
      if (weight == 0.0) weight = 1.0;
    }
    RETURN_IF_ERROR(b.AddEdge(
        m.src, m.dst, static_cast<double>(m.cells) * element_size * weight));
  }
  return std::move(b).Build();
}

absl::StatusOr<CommGraph> StencilGraph(const StencilOptions& o) {
  ASSIGN_OR_RETURN(Stencil stencil, StencilFromPoints(o.points));
  if (StencilDims(stencil) != static_cast<int32_t>(o.grid.size())) {
    return Invalid("stencil",
                   absl::StrCat("a ", o.points, "-point stencil needs a ",
                                StencilDims(stencil), "D grid, --grid has ",
                                o.grid.size(), " extents"));
  }
  ASSIGN_OR_RETURN(GridPartition p, tiling::TileGrid(o));
  return HaloGraph(p, o.periodic, stencil, o.halo, o.element_size,
                   o.axis_weights, o.max_memory_bytes);
}

}  // namespace rankmap::graphs
