#include "graphs/frontends/stencil.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

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
// period shift) pairs whose block reaches [lo - h, hi + h).
void AxisCandidates(const HaloContext& c, const std::vector<int64_t>& cut,
                    int d, int64_t lo, int64_t hi,
                    std::vector<std::pair<int64_t, int64_t>>& out) {
  out.clear();
  const int64_t n = c.extent[d];
  const int64_t reach = d < c.dims ? c.halo : 0;
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
  const int32_t procs = static_cast<int32_t>(partition.boxes.size());
  std::vector<HaloMessage> out;
  std::vector<std::pair<int32_t, int64_t>> incoming;
  if (!partition.cuts.empty()) {
    std::array<int64_t, 3> g = {1, 1, 1};
    for (int d = 0; d < c.dims; ++d)
      g[d] = static_cast<int64_t>(partition.cuts[d].size()) - 1;
    std::array<std::vector<std::pair<int64_t, int64_t>>, 3> cand;
    const std::vector<int64_t> unit = {0, 1};
    for (int32_t r = 0; r < procs; ++r) {
      const GridBox& recv = partition.boxes[r];
      for (int d = 0; d < 3; ++d) {
        AxisCandidates(c, d < c.dims ? partition.cuts[d] : unit, d, recv.lo[d],
                       recv.hi[d], cand[d]);
      }
      incoming.clear();
      for (auto [c0, s0] : cand[0]) {
        for (auto [c1, s1] : cand[1]) {
          for (auto [c2, s2] : cand[2]) {
            const int32_t src =
                static_cast<int32_t>((c0 * g[1] + c1) * g[2] + c2);
            if (src == r && s0 == 0 && s1 == 0 && s2 == 0) continue;
            const int64_t cells =
                GhostCells(c, partition.boxes[src], {s0, s1, s2}, recv);
            if (cells > 0 && src != r) incoming.emplace_back(src, cells);
          }
        }
      }
      AppendMerged(r, incoming, out);
    }
    return out;
  }
  // General boxes: test every pair (and check disjointness on the way, for
  // free).
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
  for (int32_t r = 0; r < procs; ++r) {
    const GridBox& recv = partition.boxes[r];
    incoming.clear();
    for (int32_t a = 0; a < procs; ++a) {
      const GridBox& own = partition.boxes[a];
      if (a != r) {
        bool meet = true;
        for (int d = 0; d < c.dims; ++d) {
          meet =
              meet && Overlap(own.lo[d], own.hi[d], recv.lo[d], recv.hi[d]) > 0;
        }
        if (meet) {
          return Invalid(
              "stencil/partition",
              absl::StrCat("boxes of processes ", a, " and ", r, " overlap"));
        }
      }
      for (const auto& s : shifts) {
        if (a == r) continue;  // wrap onto itself: no message
        const int64_t cells = GhostCells(c, own, s, recv);
        if (cells > 0) incoming.emplace_back(a, cells);
      }
    }
    AppendMerged(r, incoming, out);
  }
  return out;
}

absl::StatusOr<CommGraph> HaloGraph(const GridPartition& partition,
                                    const std::vector<bool>& periodic,
                                    Stencil stencil, int32_t halo,
                                    double element_size,
                                    std::span<const double> axis_weights) {
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
  ASSIGN_OR_RETURN(std::vector<HaloMessage> msgs,
                   HaloMessages(partition, periodic, stencil, halo));
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
                   o.axis_weights);
}

}  // namespace rankmap::graphs
