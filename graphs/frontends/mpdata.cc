#include "graphs/frontends/mpdata.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"

namespace rankmap::graphs {
namespace {

absl::Status Invalid(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("mpdata: ", what));
}

// The domain of the front end's options.
absl::StatusOr<MpdataDomain> FrontendDomain(const MpdataFrontendOptions& o) {
  if (o.domain.size() != 2 && o.domain.size() != 3) {
    return Invalid(absl::StrCat("--domain has ", o.domain.size(),
                                " extents, expected n x m or n x m x l"));
  }
  MpdataDomain d;
  d.n = o.domain[0];
  d.m = o.domain[1];
  d.l = o.domain.size() == 3 ? o.domain[2] : 1;
  d.ihalo = d.jhalo = o.halo;
  d.element_size = o.element_size;
  d.periodic = o.periodic;
  d.horizontal_weight = o.horizontal_weight;
  d.vertical_weight = o.vertical_weight;
  return d;
}

}  // namespace

absl::StatusOr<CommGraph> MpdataHaloGraph(const tiling::MpdataGrid& grid,
                                          const MpdataDomain& d) {
  if (grid.rows < 1 || grid.cols < 1 ||
      grid.cells.size() != static_cast<size_t>(grid.rows) * grid.cols) {
    return Invalid("malformed grid");
  }
  if (d.n < 1 || d.m < 1 || d.l < 1 || d.ihalo < 1 || d.jhalo < 1 ||
      !std::isfinite(d.element_size) || d.element_size <= 0 ||
      !std::isfinite(d.horizontal_weight) || d.horizontal_weight <= 0 ||
      !std::isfinite(d.vertical_weight) || d.vertical_weight <= 0) {
    return Invalid(
        "domain sizes, halos, element size and weights must be positive");
  }
  if (d.n < grid.rows || d.m < grid.cols) {
    return Invalid(absl::StrCat("a ", d.n, " x ", d.m,
                                " domain does not split into ", grid.rows,
                                " x ", grid.cols, " sub-domains"));
  }
  // Block distribution: sizes differ by at most one cell.
  auto nb = [&](int32_t i) { return d.n / grid.rows + (i < d.n % grid.rows); };
  auto mb = [&](int32_t j) { return d.m / grid.cols + (j < d.m % grid.cols); };
  // In doubles: the products of hostile sizes would overflow 64 bits.
  auto horizontal = [&](int32_t i) {
    return static_cast<double>(nb(i)) * static_cast<double>(d.jhalo) *
           static_cast<double>(d.l) * d.element_size * d.horizontal_weight;
  };
  auto vertical = [&](int32_t j) {
    return static_cast<double>(d.ihalo) *
           (2.0 * static_cast<double>(d.jhalo) + static_cast<double>(mb(j))) *
           static_cast<double>(d.l) * d.element_size * d.vertical_weight;
  };
  const int32_t procs = static_cast<int32_t>(grid.cells.size());
  std::vector<bool> used(procs, false);
  for (int32_t p : grid.cells) {
    if (p < 0 || p >= procs || used[p]) {
      return Invalid(
          absl::StrCat("grid cells must be a permutation of 0..", procs - 1));
    }
    used[p] = true;
  }
  CommGraphBuilder b(procs);
  for (int32_t i = 0; i < grid.rows; ++i) {
    for (int32_t j = 0; j < grid.cols; ++j) {
      const int32_t p = grid.at(i, j);
      // Each neighbour pair once per side; both directions.
      if (j + 1 < grid.cols || (d.periodic && grid.cols > 1)) {
        const int32_t q = grid.at(i, (j + 1) % grid.cols);
        RETURN_IF_ERROR(b.AddEdge(p, q, horizontal(i)));
        RETURN_IF_ERROR(b.AddEdge(q, p, horizontal(i)));
      }
      if (i + 1 < grid.rows || (d.periodic && grid.rows > 1)) {
        const int32_t q = grid.at((i + 1) % grid.rows, j);
        RETURN_IF_ERROR(b.AddEdge(p, q, vertical(j)));
        RETURN_IF_ERROR(b.AddEdge(q, p, vertical(j)));
      }
    }
  }
  return std::move(b).Build();
}

absl::StatusOr<MpdataFrontendResult> MpdataFrontend(
    const MpdataFrontendOptions& o) {
  ASSIGN_OR_RETURN(const MpdataDomain domain, FrontendDomain(o));
  const int64_t procs =
      o.group.empty() ? o.procs : static_cast<int64_t>(o.group.size());
  if (procs < 1 || procs > kMaxMpdataProcessors) {
    return Invalid(absl::StrCat(procs, " processors, expected 1 to ",
                                kMaxMpdataProcessors));
  }
  int64_t groups = 1;
  for (int32_t g : o.group) {
    if (g < 0) return Invalid(absl::StrCat("group ", g, " is negative"));
    groups = std::max<int64_t>(groups, int64_t{g} + 1);
  }
  // The group-pair matrices (given or all 1, their inverses), sized first.
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat("mpdata: ", groups, " groups of ", procs, " processors"),
      base::SaturatingMulAdd(base::SaturatingMulAdd(groups, groups), 32,
                             base::SaturatingMulAdd(procs, 64)),
      base::MemoryBudget(o.max_memory_bytes)));
  std::vector<int32_t> group = o.group;
  if (group.empty()) group.assign(procs, 0);
  MpdataFrontendResult r;
  tiling::MpdataNetwork net;
  net.num_groups = static_cast<int32_t>(groups);
  net.horizontal = o.horizontal_bandwidth;
  if (net.horizontal.empty()) net.horizontal.assign(groups * groups, 1.0);
  net.vertical =
      o.vertical_bandwidth.empty() ? net.horizontal : o.vertical_bandwidth;
  r.num_groups = net.num_groups;
  tiling::MpdataOptions options;
  options.domain = static_cast<double>(domain.n);
  options.cyclic = domain.periodic;
  options.allow_1d = o.allow_1d;
  ASSIGN_OR_RETURN(r.arrangement, tiling::ArrangeMpdata(group, net, options));
  ASSIGN_OR_RETURN(r.graph, MpdataHaloGraph(r.arrangement.grid, domain));
  return r;
}

}  // namespace rankmap::graphs
