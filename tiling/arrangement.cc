#include "tiling/arrangement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::tiling {
namespace {

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("tiling/arrangement: ", msg));
}

// Strictly lower by more than rounding noise, so ties go to the first
// candidate.
bool Better(double candidate, double best) {
  if (!std::isfinite(best)) return candidate < best;
  return candidate < best - 1e-12 * std::max(1.0, std::abs(best));
}

int64_t Factorial(int64_t n) {
  int64_t f = 1;
  for (int64_t i = 2; i <= n; ++i) {
    if (f > std::numeric_limits<int64_t>::max() / i)
      return std::numeric_limits<int64_t>::max();
    f *= i;
  }
  return f;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b
             ? std::numeric_limits<int64_t>::max()
             : a + b;
}

int64_t SaturatingMul(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
    return std::numeric_limits<int64_t>::max();
  }
  return a * b;
}

// Scores arrangements under one ArrangementCost. Holds the inverted bandwidth
// matrices and the scratch arrays of the band sweep, so repeated evaluations
// allocate nothing.
class Evaluator {
 public:
  explicit Evaluator(const ArrangementCost& cost)
      : hop_(cost.kind == CostKind::kHop),
        euclid_(cost.hop_norm == HopNorm::kEuclid),
        k_(cost.num_clusters),
        unit_(cost.unit),
        wrap_h_(cost.wrap_horizontal),
        wrap_v_(cost.wrap_vertical) {
    if (!hop_) {
      inv_h_.resize(cost.horizontal_bandwidth.size());
      inv_v_.resize(cost.vertical_bandwidth.size());
      for (size_t i = 0; i < inv_h_.size(); ++i)
        inv_h_[i] = 1.0 / cost.horizontal_bandwidth[i];
      for (size_t i = 0; i < inv_v_.size(); ++i)
        inv_v_[i] = 1.0 / cost.vertical_bandwidth[i];
    }
  }

  double Combine(double a, double b) const {
    return hop_ && euclid_ ? std::hypot(a, b) : a + b;
  }

  // Cost of one link from cluster x to cluster y in a horizontal ring
  // (bandwidth kind).
  double LinkH(int32_t x, int32_t y) const {
    return hop_ ? (x != y ? 1.0 : 0.0)
                : inv_h_[static_cast<size_t>(x) * k_ + y];
  }

  double RingH(const int32_t* cl, int32_t n) const {
    if (hop_) return RingHops({cl, static_cast<size_t>(n)}, wrap_h_);
    if (n < 2) return 0;
    double s = 0;
    for (int32_t t = 0; t + 1 < n; ++t)
      s += inv_h_[static_cast<size_t>(cl[t]) * k_ + cl[t + 1]];
    if (wrap_h_) s += inv_h_[static_cast<size_t>(cl[n - 1]) * k_ + cl[0]];
    return s;
  }

  // cost_B of one column.
  double ColumnCost(const ArrangedColumn& col) {
    const int32_t n = static_cast<int32_t>(col.rects.size());
    band_.resize(n);
    for (int32_t t = 0; t < n; ++t) band_[t] = col.rects[t].cluster;
    double ring;
    if (hop_) {
      ring = RingHops(band_, wrap_v_);
    } else if (n < 2) {
      ring = 0;
    } else {
      ring = 0;
      for (int32_t t = 0; t + 1 < n; ++t) {
        ring += inv_v_[static_cast<size_t>(band_[t]) * k_ + band_[t + 1]];
      }
      if (wrap_v_)
        ring += inv_v_[static_cast<size_t>(band_[n - 1]) * k_ + band_[0]];
    }
    return ring * static_cast<double>(col.width) * unit_;
  }

  // cost_A over the bands of `cols` (their ring wraps at the last column).
  double BandCost(std::span<const ArrangedColumn> cols) {
    const int32_t c = static_cast<int32_t>(cols.size());
    if (c == 0) return 0;
    idx_.assign(c, 0);
    end_.resize(c);
    band_.resize(c);
    int64_t height = 0;
    for (const ArrangedRect& r : cols[0].rects) height += r.height;
    for (int32_t j = 0; j < c; ++j) end_[j] = cols[j].rects[0].height;
    double a = 0;
    int64_t pos = 0;
    while (pos < height) {
      int64_t e = end_[0];
      for (int32_t j = 1; j < c; ++j) e = std::min(e, end_[j]);
      for (int32_t j = 0; j < c; ++j) band_[j] = cols[j].rects[idx_[j]].cluster;
      a += static_cast<double>(e - pos) * RingH(band_.data(), c);
      pos = e;
      for (int32_t j = 0; j < c; ++j) {
        if (end_[j] == e && ++idx_[j] < cols[j].rects.size())
          end_[j] += cols[j].rects[idx_[j]].height;
      }
    }
    return a * unit_;
  }

  CostBreakdown Evaluate(std::span<const ArrangedColumn> cols) {
    CostBreakdown r;
    r.a = BandCost(cols);
    for (const ArrangedColumn& col : cols) r.b += ColumnCost(col);
    r.combined = Combine(r.a, r.b);
    return r;
  }

  // Sum over the bands of the pair (x, y) of height * unit * LinkH(cluster_x,
  // cluster_y): the contribution of x -> y adjacency to cost_A when the
  // horizontal cost splits into links.
  double PairCost(const ArrangedColumn& x, const ArrangedColumn& y) const {
    size_t i = 0, j = 0;
    int64_t ex = x.rects[0].height, ey = y.rects[0].height, pos = 0;
    double s = 0;
    while (i < x.rects.size() && j < y.rects.size()) {
      int64_t e = std::min(ex, ey);
      s += static_cast<double>(e - pos) *
           LinkH(x.rects[i].cluster, y.rects[j].cluster);
      pos = e;
      if (ex == e && ++i < x.rects.size()) ex += x.rects[i].height;
      if (ey == e && ++j < y.rects.size()) ey += y.rects[j].height;
    }
    return s * unit_;
  }

  bool hop() const { return hop_; }
  bool wrap_h() const { return wrap_h_; }

 private:
  bool hop_;
  bool euclid_;
  int32_t k_;
  double unit_;
  bool wrap_h_, wrap_v_;
  std::vector<double> inv_h_, inv_v_;
  std::vector<size_t> idx_;
  std::vector<int64_t> end_;
  std::vector<int32_t> band_;
};

// Groups of one column (by first appearance of the cluster).
std::vector<std::vector<ArrangedRect>> Groups(const ArrangedColumn& col) {
  std::vector<std::vector<ArrangedRect>> groups;
  std::vector<int32_t> cluster_of_group;
  for (const ArrangedRect& r : col.rects) {
    auto it =
        std::find(cluster_of_group.begin(), cluster_of_group.end(), r.cluster);
    if (it == cluster_of_group.end()) {
      cluster_of_group.push_back(r.cluster);
      groups.push_back({r});
    } else {
      groups[it - cluster_of_group.begin()].push_back(r);
    }
  }
  return groups;
}

void FillColumn(const std::vector<std::vector<ArrangedRect>>& groups,
                const std::vector<int32_t>& order, ArrangedColumn& out) {
  out.rects.clear();
  for (int32_t g : order)
    out.rects.insert(out.rects.end(), groups[g].begin(), groups[g].end());
}

// An evaluation sweeps at most R bands of c columns (R rectangles): the
// search's time bound is its evaluations times (R + 1) c.
absl::Status CheckWork(std::string_view search, int64_t evaluations,
                       const Arrangement& m, const ArrangeOptions& options) {
  int64_t rects = 0;
  for (const ArrangedColumn& col : m.columns) {
    rects += static_cast<int64_t>(col.rects.size());
  }
  const int64_t work = SaturatingMul(
      evaluations,
      SaturatingMul(rects + 1, static_cast<int64_t>(m.columns.size())));
  if (work > options.max_work) {
    return Invalid(absl::StrCat(
        std::string(search), " needs ", evaluations, " evaluations of ", rects,
        " rectangles in ", m.columns.size(), " columns, above the limit of ",
        options.max_work, " steps"));
  }
  return absl::OkStatus();
}

// ValidateArrangement with the clusters 0..max_cluster (whose count must fit).
absl::Status ValidateUpToCluster(const Arrangement& m, int32_t max_cluster) {
  if (max_cluster == std::numeric_limits<int32_t>::max()) {
    return Invalid(absl::StrCat("cluster id ", max_cluster, " is too large"));
  }
  return ValidateArrangement(m, max_cluster + 1);
}

std::vector<int32_t> Iota(int32_t n) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

absl::StatusOr<ArrangeResult> Greedy(const Arrangement& start, Evaluator& ev,
                                     bool bandwidth_alg,
                                     const ArrangeOptions& options) {
  ArrangeResult res;
  const Arrangement grouped = GroupByCluster(start);
  const int32_t c = static_cast<int32_t>(grouped.columns.size());
  std::vector<std::vector<std::vector<ArrangedRect>>> groups(c);
  int64_t planned = Factorial(c);
  for (int32_t i = 0; i < c; ++i) {
    groups[i] = Groups(grouped.columns[i]);
    if (i > 0 || bandwidth_alg) {
      planned = SaturatingAdd(
          planned, Factorial(static_cast<int64_t>(groups[i].size())));
    }
  }
  if (planned > options.max_evaluations) {
    return Invalid(absl::StrCat("the greedy search needs ", planned,
                                " evaluations, above the limit ",
                                options.max_evaluations));
  }
  RETURN_IF_ERROR(CheckWork("the greedy search", planned, start, options));
  auto objective = [&](const CostBreakdown& cb) {
    return bandwidth_alg ? cb.combined : cb.a;
  };
  res.start_cost = ev.Evaluate(start.columns);
  res.grouped_cost = ev.Evaluate(grouped.columns);

  Arrangement cur = grouped;
  ArrangedColumn cand;
  cand.rects.reserve(64);
  for (int32_t i = 0; i < c; ++i) {
    if (i == 0 && !bandwidth_alg)
      continue;  // Algorithm 1 accepts the first column as is.
    cand.width = cur.columns[i].width;
    std::vector<int32_t> perm = Iota(static_cast<int32_t>(groups[i].size()));
    std::vector<int32_t> best_perm = perm;
    double best = std::numeric_limits<double>::infinity();
    do {
      FillColumn(groups[i], perm, cand);
      double score;
      if (i == 0) {
        score = ev.ColumnCost(cand);
      } else {
        std::swap(cur.columns[i], cand);
        CostBreakdown cb =
            ev.Evaluate({cur.columns.data(), static_cast<size_t>(i + 1)});
        std::swap(cur.columns[i], cand);
        score = objective(cb);
      }
      ++res.evaluations;
      if (Better(score, best)) {
        best = score;
        best_perm = perm;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
    FillColumn(groups[i], best_perm, cur.columns[i]);
  }
  // Column orders.
  std::vector<int32_t> order = Iota(c);
  std::vector<int32_t> best_order = order;
  double best = std::numeric_limits<double>::infinity();
  Arrangement trial = cur;
  do {
    for (int32_t j = 0; j < c; ++j) trial.columns[j] = cur.columns[order[j]];
    double score = objective(ev.Evaluate(trial.columns));
    ++res.evaluations;
    if (Better(score, best)) {
      best = score;
      best_order = order;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  for (int32_t j = 0; j < c; ++j) trial.columns[j] = cur.columns[best_order[j]];
  res.arrangement = std::move(trial);
  res.cost = ev.Evaluate(res.arrangement.columns);
  if (Better(objective(res.grouped_cost), objective(res.cost))) {
    res.arrangement = grouped;
    res.cost = res.grouped_cost;
  }
  return res;
}

absl::StatusOr<ArrangeResult> Exhaustive(const Arrangement& start,
                                         Evaluator& ev,
                                         const ArrangeOptions& options) {
  ArrangeResult res;
  const int32_t c = static_cast<int32_t>(start.columns.size());
  int64_t total = ev.wrap_h() ? Factorial(c - 1) : Factorial(c);
  for (const ArrangedColumn& col : start.columns) {
    total =
        SaturatingMul(total, Factorial(static_cast<int64_t>(col.rects.size())));
  }
  if (total > options.max_evaluations) {
    return Invalid(absl::StrCat("exhaustive search needs ", total,
                                " evaluations, above the limit ",
                                options.max_evaluations));
  }
  RETURN_IF_ERROR(CheckWork("exhaustive search", total, start, options));
  res.start_cost = ev.Evaluate(start.columns);
  res.grouped_cost = ev.Evaluate(GroupByCluster(start).columns);
  // Every within-column order of every column, with its cost_B.
  std::vector<std::vector<ArrangedColumn>> variants(c);
  std::vector<std::vector<double>> variant_b(c);
  for (int32_t j = 0; j < c; ++j) {
    std::vector<int32_t> perm =
        Iota(static_cast<int32_t>(start.columns[j].rects.size()));
    do {
      ArrangedColumn col;
      col.width = start.columns[j].width;
      for (int32_t t : perm) col.rects.push_back(start.columns[j].rects[t]);
      variant_b[j].push_back(ev.ColumnCost(col));
      variants[j].push_back(std::move(col));
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  // Cyclic band rings cost the same under a rotation of the column order and
  // cost_B ignores the order, so with wrapping only the orders that start with
  // column 0 are tried: the first minimum is the same, c times sooner.
  std::vector<std::vector<int32_t>> orders;
  {
    std::vector<int32_t> o = Iota(c);
    do {
      if (!ev.wrap_h() || o[0] == 0) orders.push_back(o);
    } while (std::next_permutation(o.begin(), o.end()));
  }
  // With cluster-level link costs that split into links (bandwidth, or hops on
  // open chains), cost_A is a sum over adjacent column pairs: tabulate pairs
  // once per choice of variants.
  const bool pairwise = !ev.hop() || !ev.wrap_h();
  std::vector<double> pair(static_cast<size_t>(c) * c, 0);
  std::vector<int32_t> choice(c, 0), best_choice(c, 0), best_order = orders[0];
  double best = std::numeric_limits<double>::infinity();
  Arrangement trial;
  trial.columns.resize(c);

  auto score_leaf = [&]() {
    double b = 0;
    for (int32_t j = 0; j < c; ++j) b += variant_b[j][choice[j]];
    for (size_t oi = 0; oi < orders.size(); ++oi) {
      const std::vector<int32_t>& o = orders[oi];
      double a;
      if (pairwise) {
        a = 0;
        for (int32_t t = 0; t + 1 < c; ++t)
          a += pair[static_cast<size_t>(o[t]) * c + o[t + 1]];
        if (ev.wrap_h() && c >= 2)
          a += pair[static_cast<size_t>(o[c - 1]) * c + o[0]];
      } else {
        for (int32_t t = 0; t < c; ++t)
          trial.columns[t] = variants[o[t]][choice[o[t]]];
        a = ev.BandCost(trial.columns);
      }
      ++res.evaluations;
      double combined = ev.Combine(a, b);
      if (Better(combined, best)) {
        best = combined;
        best_choice = choice;
        best_order = o;
      }
    }
  };
  // Depth-first over columns; pair entries with earlier columns are filled on
  // the way down.
  auto recurse = [&](auto&& self, int32_t j) -> void {
    if (j == c) {
      score_leaf();
      return;
    }
    for (int32_t v = 0; v < static_cast<int32_t>(variants[j].size()); ++v) {
      choice[j] = v;
      if (pairwise) {
        for (int32_t i = 0; i < j; ++i) {
          const ArrangedColumn& x = variants[i][choice[i]];
          const ArrangedColumn& y = variants[j][v];
          pair[static_cast<size_t>(i) * c + j] = ev.PairCost(x, y);
          pair[static_cast<size_t>(j) * c + i] = ev.PairCost(y, x);
        }
      }
      self(self, j + 1);
    }
  };
  recurse(recurse, 0);
  for (int32_t t = 0; t < c; ++t) {
    trial.columns[t] = variants[best_order[t]][best_choice[best_order[t]]];
  }
  res.arrangement = std::move(trial);
  res.cost = ev.Evaluate(res.arrangement.columns);
  return res;
}

absl::Status CheckMatrix(const std::vector<double>& m, int32_t k,
                         const char* name) {
  if (m.size() != static_cast<size_t>(k) * k) {
    return Invalid(absl::StrCat(name, " bandwidth matrix has ", m.size(),
                                " entries, expected ",
                                static_cast<int64_t>(k) * k));
  }
  for (size_t i = 0; i < m.size(); ++i) {
    if (!std::isfinite(m[i]) || m[i] <= 0) {
      return Invalid(absl::StrCat(name, " bandwidth (", i / k, ",", i % k,
                                  ") is ", m[i], "; must be > 0"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

ArrangementCost ArrangementCost::Hop(int32_t num_clusters, bool wrap_horizontal,
                                     HopNorm norm) {
  ArrangementCost c;
  c.kind = CostKind::kHop;
  c.num_clusters = num_clusters;
  c.wrap_horizontal = wrap_horizontal;
  c.hop_norm = norm;
  return c;
}

absl::StatusOr<ArrangementCost> ArrangementCost::Bandwidth(
    int32_t num_clusters, std::vector<double> bandwidth, double unit) {
  std::vector<double> copy = bandwidth;
  return AsymmetricBandwidth(num_clusters, std::move(bandwidth),
                             std::move(copy), unit);
}

absl::StatusOr<ArrangementCost> ArrangementCost::AsymmetricBandwidth(
    int32_t num_clusters, std::vector<double> horizontal,
    std::vector<double> vertical, double unit) {
  ArrangementCost c;
  c.kind = CostKind::kBandwidth;
  c.num_clusters = num_clusters;
  c.horizontal_bandwidth = std::move(horizontal);
  c.vertical_bandwidth = std::move(vertical);
  c.unit = unit;
  RETURN_IF_ERROR(ValidateCost(c));
  return c;
}

absl::Status ValidateCost(const ArrangementCost& cost) {
  if (cost.num_clusters < 1) return Invalid("cost needs at least one cluster");
  if (!std::isfinite(cost.unit) || cost.unit <= 0) {
    return Invalid(absl::StrCat("unit ", cost.unit, " must be > 0"));
  }
  if (cost.kind == CostKind::kBandwidth) {
    RETURN_IF_ERROR(CheckMatrix(cost.horizontal_bandwidth, cost.num_clusters,
                                "horizontal"));
    RETURN_IF_ERROR(
        CheckMatrix(cost.vertical_bandwidth, cost.num_clusters, "vertical"));
  }
  return absl::OkStatus();
}

absl::Status ValidateArrangement(const Arrangement& m, int32_t num_clusters) {
  if (m.columns.empty()) return Invalid("arrangement has no columns");
  int64_t height = -1;
  std::vector<int32_t> procs;
  for (size_t j = 0; j < m.columns.size(); ++j) {
    const ArrangedColumn& col = m.columns[j];
    if (col.width <= 0)
      return Invalid(absl::StrCat("column ", j, " has width ", col.width));
    if (col.rects.empty())
      return Invalid(absl::StrCat("column ", j, " has no rectangles"));
    int64_t h = 0;
    for (size_t t = 0; t < col.rects.size(); ++t) {
      const ArrangedRect& r = col.rects[t];
      if (r.height <= 0) {
        return Invalid(absl::StrCat("column ", j, " rectangle ", t,
                                    " has height ", r.height));
      }
      if (r.cluster < 0 || r.cluster >= num_clusters) {
        return Invalid(absl::StrCat("column ", j, " rectangle ", t,
                                    " has cluster ", r.cluster, " outside [0, ",
                                    num_clusters, ")"));
      }
      if (r.proc < 0)
        return Invalid(
            absl::StrCat("column ", j, " rectangle ", t, " has proc < 0"));
      procs.push_back(r.proc);
      h += r.height;
    }
    if (height >= 0 && h != height) {
      return Invalid(
          absl::StrCat("column ", j, " is ", h, " high, column 0 is ", height));
    }
    height = h;
  }
  std::sort(procs.begin(), procs.end());
  auto dup = std::adjacent_find(procs.begin(), procs.end());
  if (dup != procs.end())
    return Invalid(absl::StrCat("processor ", *dup, " appears twice"));
  return absl::OkStatus();
}

absl::StatusOr<CostBreakdown> EvaluateArrangement(const Arrangement& m,
                                                  const ArrangementCost& cost) {
  RETURN_IF_ERROR(ValidateCost(cost));
  RETURN_IF_ERROR(ValidateArrangement(m, cost.num_clusters));
  Evaluator ev(cost);
  return ev.Evaluate(m.columns);
}

absl::StatusOr<Bands> ComputeBands(const Arrangement& m) {
  int32_t max_cluster = 0;
  for (const auto& col : m.columns) {
    for (const auto& r : col.rects)
      max_cluster = std::max(max_cluster, r.cluster);
  }
  RETURN_IF_ERROR(ValidateUpToCluster(m, max_cluster));
  Bands bands;
  const size_t c = m.columns.size();
  std::vector<size_t> idx(c, 0);
  std::vector<int64_t> end(c);
  int64_t height = 0;
  for (const auto& r : m.columns[0].rects) height += r.height;
  for (size_t j = 0; j < c; ++j) end[j] = m.columns[j].rects[0].height;
  for (int64_t pos = 0; pos < height;) {
    int64_t e = *std::min_element(end.begin(), end.end());
    std::vector<int32_t> cl(c);
    for (size_t j = 0; j < c; ++j) cl[j] = m.columns[j].rects[idx[j]].cluster;
    bands.heights.push_back(e - pos);
    bands.clusters.push_back(std::move(cl));
    pos = e;
    for (size_t j = 0; j < c; ++j) {
      if (end[j] == e && ++idx[j] < m.columns[j].rects.size()) {
        end[j] += m.columns[j].rects[idx[j]].height;
      }
    }
  }
  return bands;
}

int32_t RingHops(std::span<const int32_t> clusters, bool wrap) {
  const int32_t n = static_cast<int32_t>(clusters.size());
  if (n < 2) return 0;
  int32_t k = 0;
  for (int32_t t = 0; t + 1 < n; ++t) k += clusters[t] != clusters[t + 1];
  if (!wrap) return k;
  k += clusters[n - 1] != clusters[0];
  return std::min(k, n - 1);
}

Arrangement GroupByCluster(const Arrangement& m) {
  Arrangement out;
  for (const ArrangedColumn& col : m.columns) {
    ArrangedColumn g;
    g.width = col.width;
    for (const auto& group : Groups(col))
      g.rects.insert(g.rects.end(), group.begin(), group.end());
    out.columns.push_back(std::move(g));
  }
  return out;
}

absl::StatusOr<ArrangeResult> Arrange(const Arrangement& start,
                                      const ArrangementCost& cost,
                                      ArrangeAlgorithm algorithm,
                                      const ArrangeOptions& options) {
  RETURN_IF_ERROR(ValidateCost(cost));
  RETURN_IF_ERROR(ValidateArrangement(start, cost.num_clusters));
  Evaluator ev(cost);
  switch (algorithm) {
    case ArrangeAlgorithm::kHopGreedy:
      return Greedy(start, ev, /*bandwidth_alg=*/false, options);
    case ArrangeAlgorithm::kBandwidthGreedy:
      return Greedy(start, ev, /*bandwidth_alg=*/true, options);
    case ArrangeAlgorithm::kExhaustive:
      return Exhaustive(start, ev, options);
  }
  return Invalid("unknown algorithm");
}

std::vector<int32_t> ProcessorOrder(const Arrangement& m) {
  std::vector<int32_t> order;
  for (const auto& col : m.columns) {
    for (const auto& r : col.rects) order.push_back(r.proc);
  }
  return order;
}

absl::StatusOr<Partition> ArrangementToPartition(const Arrangement& m,
                                                 int32_t num_procs) {
  int32_t max_cluster = 0;
  for (const auto& col : m.columns) {
    for (const auto& r : col.rects)
      max_cluster = std::max(max_cluster, r.cluster);
  }
  RETURN_IF_ERROR(ValidateUpToCluster(m, max_cluster));
  Partition p;
  p.num_owners = num_procs;
  for (const auto& r : m.columns[0].rects) p.rows += r.height;
  for (const auto& col : m.columns) {
    int64_t row = 0;
    for (const auto& r : col.rects) {
      if (r.proc >= num_procs) {
        return Invalid(absl::StrCat("processor ", r.proc, " >= ", num_procs));
      }
      p.rects.push_back(Rect{row, p.cols, r.height, col.width, r.proc});
      row += r.height;
    }
    p.cols += col.width;
  }
  return p;
}

absl::StatusOr<Arrangement> ArrangementFromPartition(
    const Partition& p, std::span<const int32_t> cluster_of_proc) {
  RETURN_IF_ERROR(ValidatePartition(p));
  if (cluster_of_proc.size() != static_cast<size_t>(p.num_owners)) {
    return Invalid(absl::StrCat("cluster list has ", cluster_of_proc.size(),
                                " entries for ", p.num_owners, " processors"));
  }
  std::map<int64_t, std::vector<Rect>> by_col;
  for (const Rect& r : p.rects) by_col[r.col].push_back(r);
  Arrangement m;
  for (auto& [col, rects] : by_col) {
    std::sort(rects.begin(), rects.end(),
              [](const Rect& a, const Rect& b) { return a.row < b.row; });
    ArrangedColumn column;
    column.width = rects[0].width;
    int64_t row = 0;
    for (const Rect& r : rects) {
      if (r.width != column.width || r.row != row) {
        return Invalid(absl::StrCat(
            "partition is not column-based at column offset ", col));
      }
      column.rects.push_back(
          ArrangedRect{r.owner, cluster_of_proc[r.owner], r.height});
      row += r.height;
    }
    if (row != p.rows) {
      return Invalid(
          absl::StrCat("partition is not column-based at column offset ", col));
    }
    m.columns.push_back(std::move(column));
  }
  int32_t max_cluster = 0;
  for (int32_t c : cluster_of_proc) {
    if (c < 0) return Invalid("negative cluster id");
    max_cluster = std::max(max_cluster, c);
  }
  RETURN_IF_ERROR(ValidateUpToCluster(m, max_cluster));
  return m;
}

}  // namespace rankmap::tiling
