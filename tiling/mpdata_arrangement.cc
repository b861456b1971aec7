#include "tiling/mpdata_arrangement.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"

namespace rankmap::tiling {
namespace {

absl::Status Invalid(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("mpdata: ", what));
}

// Inverse bandwidths by group pair and everything else the cost needs, checked
// once.
struct Evaluator {
  int32_t groups = 1;
  std::vector<double> inv_h, inv_v;
  std::vector<int32_t> group;  // of each processor
  double domain = 512;
  bool cyclic = false;

  // Links of a chain of n elements: n - 1 open, n cyclic (the printed formulas'
  // modulo wrap, which for n = 2 counts the pair twice), none for a single
  // element.
  int32_t Links(int32_t n) const { return n < 2 ? 0 : (cyclic ? n : n - 1); }

  // Cost of the first k columns of a rows x cols grid (row-major cells);
  // horizontal terms only when with_h. h and w are those of the full grid so
  // partial costs compare with full ones.
  MpdataCost Cost(const std::vector<int32_t>& cells, int32_t rows, int32_t cols,
                  int32_t k, bool with_h = true) const {
    MpdataCost c;
    const double h = domain / rows, w = domain / cols;
    if (with_h) {
      const int32_t links = Links(k);
      for (int32_t i = 0; i < rows; ++i) {
        const int32_t* row = cells.data() + static_cast<size_t>(i) * cols;
        double sum = 0;
        for (int32_t t = 0; t < links; ++t) {
          sum += inv_h[group[row[t]] * groups + group[row[(t + 1) % k]]];
        }
        c.horizontal += h * sum;
      }
    }
    const int32_t links = Links(rows);
    for (int32_t j = 0; j < k; ++j) {
      double sum = 0;
      for (int32_t t = 0; t < links; ++t) {
        sum +=
            inv_v[group[cells[static_cast<size_t>(t) * cols + j]] * groups +
                  group[cells[static_cast<size_t>((t + 1) % rows) * cols + j]]];
      }
      c.vertical += w * sum;
    }
    c.total = c.horizontal + c.vertical;
    return c;
  }
};

absl::StatusOr<Evaluator> MakeEvaluator(std::span<const int32_t> group,
                                        const MpdataNetwork& net,
                                        const MpdataOptions& o) {
  const int32_t g = net.num_groups;
  if (g < 1)
    return Invalid(absl::StrCat("group count ", g, " is not positive"));
  const size_t want = static_cast<size_t>(g) * g;
  if (net.horizontal.size() != want || net.vertical.size() != want) {
    return Invalid(absl::StrCat("bandwidth matrices need ", want,
                                " entries, found ", net.horizontal.size(),
                                " and ", net.vertical.size()));
  }
  Evaluator e;
  e.groups = g;
  for (size_t k = 0; k < want; ++k) {
    for (double b : {net.horizontal[k], net.vertical[k]}) {
      if (!std::isfinite(b) || b <= 0) {
        return Invalid(absl::StrCat("bandwidth ", b, " of group pair (", k / g,
                                    ", ", k % g, ") is not a positive number"));
      }
    }
    e.inv_h.push_back(1.0 / net.horizontal[k]);
    e.inv_v.push_back(1.0 / net.vertical[k]);
  }
  for (size_t p = 0; p < group.size(); ++p) {
    if (group[p] < 0 || group[p] >= g) {
      return Invalid(absl::StrCat("processor ", p, " is in group ", group[p],
                                  ", outside [0, ", g, ")"));
    }
  }
  if (!std::isfinite(o.domain) || o.domain <= 0) {
    return Invalid(
        absl::StrCat("domain ", o.domain, " is not a positive number"));
  }
  e.group.assign(group.begin(), group.end());
  e.domain = o.domain;
  e.cyclic = o.cyclic;
  return e;
}

absl::Status CheckCells(const MpdataGrid& grid, size_t procs) {
  if (grid.rows < 1 || grid.cols < 1 ||
      grid.cells.size() != static_cast<size_t>(grid.rows) * grid.cols) {
    return Invalid(absl::StrCat("a ", grid.rows, " x ", grid.cols,
                                " grid with ", grid.cells.size(), " cells"));
  }
  for (int32_t p : grid.cells) {
    if (p < 0 || static_cast<size_t>(p) >= procs) {
      return Invalid(
          absl::StrCat("processor ", p, " outside [0, ", procs, ")"));
    }
  }
  return absl::OkStatus();
}

// n! saturated at `cap` + 1.
int64_t Factorial(int64_t n, int64_t cap) {
  int64_t f = 1;
  for (int64_t k = 2; k <= n; ++k) {
    if (f > cap / k) return cap + 1;
    f *= k;
  }
  return f;
}

// Step 2 (Algorithm 2 with the asymmetric cost) on a fixed shape.
MpdataGrid Regroup(const Evaluator& e, const MpdataGrid& in,
                   int64_t& evaluations) {
  const int32_t r = in.rows, c = in.cols;
  // Each column's processors grouped by group, groups by first appearance.
  std::vector<std::vector<std::vector<int32_t>>> groups(c);
  for (int32_t j = 0; j < c; ++j) {
    std::vector<int32_t> seen;
    for (int32_t i = 0; i < r; ++i) {
      const int32_t p = in.at(i, j);
      auto it = std::find(seen.begin(), seen.end(), e.group[p]);
      if (it == seen.end()) {
        seen.push_back(e.group[p]);
        groups[j].push_back({p});
      } else {
        groups[j][it - seen.begin()].push_back(p);
      }
    }
  }
  MpdataGrid out = in;
  auto place = [&](int32_t j, const std::vector<int32_t>& perm) {
    int32_t i = 0;
    for (int32_t k : perm) {
      for (int32_t p : groups[j][k])
        out.cells[static_cast<size_t>(i++) * c + j] = p;
    }
  };
  for (int32_t j = 0; j < c; ++j) {
    std::vector<int32_t> perm(groups[j].size()), best;
    std::iota(perm.begin(), perm.end(), 0);
    double best_cost = 0;
    do {
      place(j, perm);
      // Column 1 alone has no horizontal links: its order minimises cost_V.
      const double cost =
          e.Cost(out.cells, r, c, j + 1, /*with_h=*/j > 0).total;
      ++evaluations;
      if (best.empty() || cost < best_cost) {
        best_cost = cost;
        best = perm;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
    place(j, best);
  }
  // Whole-column order.
  std::vector<int32_t> perm(c), best;
  std::iota(perm.begin(), perm.end(), 0);
  const std::vector<int32_t> fixed = out.cells;
  std::vector<int32_t> cand(fixed.size());
  double best_cost = 0;
  do {
    for (int32_t i = 0; i < r; ++i) {
      for (int32_t j = 0; j < c; ++j) {
        cand[static_cast<size_t>(i) * c + j] =
            fixed[static_cast<size_t>(i) * c + perm[j]];
      }
    }
    const double cost = e.Cost(cand, r, c, c).total;
    ++evaluations;
    if (best.empty() || cost < best_cost) {
      best_cost = cost;
      best = perm;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  for (int32_t i = 0; i < r; ++i) {
    for (int32_t j = 0; j < c; ++j) {
      out.cells[static_cast<size_t>(i) * c + j] =
          fixed[static_cast<size_t>(i) * c + best[j]];
    }
  }
  return out;
}

// Evaluations of Step 2 on `grid`: c! column orders plus g_j! group orders
// per column, or an error above options.max_evaluations.
absl::StatusOr<int64_t> Step2Evaluations(const Evaluator& e,
                                         const MpdataGrid& grid,
                                         const MpdataOptions& options) {
  int64_t budget = Factorial(grid.cols, options.max_evaluations);
  for (int32_t j = 0; j < grid.cols; ++j) {
    std::vector<int32_t> gs;
    for (int32_t i = 0; i < grid.rows; ++i)
      gs.push_back(e.group[grid.at(i, j)]);
    std::sort(gs.begin(), gs.end());
    const int64_t distinct = std::unique(gs.begin(), gs.end()) - gs.begin();
    budget += Factorial(distinct, options.max_evaluations);
    if (budget > options.max_evaluations) break;
  }
  if (budget > options.max_evaluations) {
    return Invalid(absl::StrCat("Step 2 on a ", grid.rows, " x ", grid.cols,
                                " grid needs more than ",
                                options.max_evaluations, " evaluations"));
  }
  return budget;
}

}  // namespace

absl::StatusOr<MpdataGrid> FillMpdataGrid(std::span<const int32_t> order,
                                          int32_t rows, int32_t cols,
                                          bool column_major) {
  if (rows < 1 || cols < 1 ||
      static_cast<size_t>(rows) * cols != order.size()) {
    return Invalid(absl::StrCat("cannot fill ", order.size(),
                                " processors into ", rows, " x ", cols));
  }
  MpdataGrid g;
  g.rows = rows;
  g.cols = cols;
  g.column_major = column_major;
  g.cells.resize(order.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = column_major ? k % rows : k / cols;
    const size_t j = column_major ? k / rows : k % cols;
    g.cells[i * cols + j] = order[k];
  }
  return g;
}

std::vector<int32_t> LinearOrder(const MpdataGrid& g) {
  std::vector<int32_t> order;
  order.reserve(g.cells.size());
  if (g.column_major) {
    for (int32_t j = 0; j < g.cols; ++j) {
      for (int32_t i = 0; i < g.rows; ++i) order.push_back(g.at(i, j));
    }
  } else {
    order = g.cells;
  }
  return order;
}

absl::StatusOr<MpdataCost> EvaluateMpdata(const MpdataGrid& grid,
                                          std::span<const int32_t> group,
                                          const MpdataNetwork& network,
                                          const MpdataOptions& options) {
  ASSIGN_OR_RETURN(Evaluator e, MakeEvaluator(group, network, options));
  RETURN_IF_ERROR(CheckCells(grid, group.size()));
  return e.Cost(grid.cells, grid.rows, grid.cols, grid.cols);
}

absl::StatusOr<MpdataResult> ArrangeMpdata(std::span<const int32_t> group,
                                           const MpdataNetwork& network,
                                           const MpdataOptions& options,
                                           std::span<const int32_t> initial) {
  ASSIGN_OR_RETURN(Evaluator e, MakeEvaluator(group, network, options));
  const int32_t procs = static_cast<int32_t>(group.size());
  std::vector<int32_t> order(initial.begin(), initial.end());
  if (order.empty()) {
    order.resize(procs);
    std::iota(order.begin(), order.end(), 0);
  }
  {
    std::vector<int32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int32_t k = 0; k < procs; ++k) {
      if (static_cast<int32_t>(sorted.size()) != procs || sorted[k] != k) {
        return Invalid(absl::StrCat(
            "the initial order is not a permutation of 0..", procs - 1));
      }
    }
  }
  std::vector<std::pair<int32_t, int32_t>> shapes;
  for (int32_t r = 1; r <= procs; ++r) {
    if (procs % r != 0) continue;
    const int32_t c = procs / r;
    if (!options.allow_1d && (r == 1 || c == 1)) continue;
    shapes.emplace_back(r, c);
  }
  if (shapes.empty()) {
    return Invalid(
        absl::StrCat(procs, " processors admit no r x c grid with r, c >= 2"));
  }
  if (options.max_iterations < 1) {
    return Invalid(absl::StrCat("max_iterations ", options.max_iterations,
                                " is not positive"));
  }
  MpdataResult res;
  std::set<std::vector<int32_t>> seen = {order};
  // Every evaluation visits the P cells of a grid; the rounds together stay
  // within options.max_work visits.
  int64_t work = 0;
  auto spend = [&](int64_t evaluations) -> absl::Status {
    work = base::SaturatingMulAdd(evaluations, procs, work);
    if (work <= options.max_work) return absl::OkStatus();
    return Invalid(absl::StrCat("Algorithm 3 on ", procs,
                                " processors needs more than ",
                                options.max_work, " cell visits"));
  };
  for (int32_t round = 1; round <= options.max_iterations; ++round) {
    res.iterations = round;
    RETURN_IF_ERROR(spend(2 * static_cast<int64_t>(shapes.size())));
    // Step 1: shape and fill order of the current linear order.
    MpdataGrid best;
    double best_cost = 0;
    for (auto [r, c] : shapes) {
      for (bool column_major : {true, false}) {
        ASSIGN_OR_RETURN(MpdataGrid g,
                         FillMpdataGrid(order, r, c, column_major));
        const double cost = e.Cost(g.cells, r, c, c).total;
        ++res.evaluations;
        if (best.cells.empty() || cost < best_cost) {
          best_cost = cost;
          best = std::move(g);
        }
      }
    }
    if (round == 1) {
      res.first_step1 = best;
      res.first_step1_cost =
          e.Cost(best.cells, best.rows, best.cols, best.cols);
    }
    // Step 2, after checking the factorial search stays within budget.
    ASSIGN_OR_RETURN(const int64_t budget, Step2Evaluations(e, best, options));
    RETURN_IF_ERROR(spend(budget));
    MpdataGrid next = Regroup(e, best, res.evaluations);
    res.grid = next;
    res.cost = e.Cost(next.cells, next.rows, next.cols, next.cols);
    std::vector<int32_t> next_order = LinearOrder(next);
    if (next_order == order) {
      res.converged = true;
      break;
    }
    if (!seen.insert(next_order).second) break;  // a cycle, not a fixed point
    order = std::move(next_order);
  }
  return res;
}

}  // namespace rankmap::tiling
