#include "core/part_split.h"

#include <algorithm>

#include "core/mapping.h"

namespace rankmap::core {

absl::Status SplitParts(const MetisGraph& g, const PartTargets& t,
                        const MetisAttempts& attempts, uint64_t seed,
                        std::vector<int32_t>* part) {
  const int32_t n = g.num_vertices();
  const int32_t k = t.num_parts();
  part->assign(n, 0);
  if (g.adjncy.empty()) {
    int32_t p = 0;
    double load = 0.0;
    for (int32_t i = 0; i < n; ++i) {
      while (p + 1 < k &&
             (t.exact() ? load >= static_cast<double>(t.size[p])
                        : load + g.vertex_weight[i] > t.weight[p] + 1e-9)) {
        ++p;
        load = 0.0;
      }
      (*part)[i] = p;
      load += t.Load(g, i);
    }
    RepairParts(g, t, part);
    return absl::OkStatus();
  }
  const double ub = t.exact() ? 1.001 : t.ub;
  std::vector<double> aims(k);
  for (int32_t p = 0; p < k; ++p) aims[p] = t.Aim(p);
  double best_cut = -1.0;
  std::vector<int32_t> trial;
  for (int32_t method = attempts.first_method; method < attempts.last_method;
       ++method) {
    if (absl::Status s = MetisPartition(
            g, aims, ub,
            method == 0 ? MetisMethod::kRecursive : MetisMethod::kKway,
            attempts.ncuts, seed, &trial);
        !s.ok()) {
      return s;
    }
    RepairParts(g, t, &trial);
    const double cut = g.Cut(trial);
    if (best_cut < 0 || cut < best_cut) {
      best_cut = cut;
      *part = trial;
    }
  }
  RepairParts(g, t, part);
  return absl::OkStatus();
}

void RepairParts(const MetisGraph& g, const PartTargets& t,
                 std::vector<int32_t>* part) {
  const int32_t n = g.num_vertices();
  const int32_t k = t.num_parts();
  std::vector<double> load(k, 0.0), cap(k);
  for (int32_t i = 0; i < n; ++i) load[(*part)[i]] += t.Load(g, i);
  for (int32_t p = 0; p < k; ++p) cap[p] = t.Capacity(p);
  auto over = [&](int32_t p) { return !WithinBound(load[p], cap[p]); };
  auto fits = [&](int32_t p, double x) {
    return WithinBound(load[p] + x, cap[p]);
  };
  std::vector<double> conn(k, 0.0);
  std::vector<int32_t> touched;
  struct Move {
    double gain;
    int32_t v, to;
  };
  for (int pass = 0; pass < 4 * n + 8; ++pass) {
    bool any_over = false;
    for (int32_t p = 0; p < k; ++p) any_over = any_over || over(p);
    if (!any_over) return;
    std::vector<Move> moves;
    for (int32_t i = 0; i < n; ++i) {
      const int32_t from = (*part)[i];
      if (!over(from)) continue;
      const double x = t.Load(g, i);
      for (int32_t e = g.xadj[i]; e < g.xadj[i + 1]; ++e) {
        const int32_t q = (*part)[g.adjncy[e]];
        if (conn[q] == 0.0) touched.push_back(q);
        conn[q] += g.arc_weight[e];
      }
      int32_t best = -1;
      double best_conn = -1.0;
      for (int32_t q : touched) {
        if (q != from && fits(q, x) && conn[q] > best_conn) {
          best = q;
          best_conn = conn[q];
        }
      }
      if (best < 0) {
        // No neighbouring part has room: the emptiest part relative to its
        // capacity.
        double room = 0.0;
        for (int32_t q = 0; q < k; ++q) {
          if (q != from && fits(q, x) && cap[q] - load[q] > room) {
            room = cap[q] - load[q];
            best = q;
          }
        }
        best_conn = best >= 0 ? conn[best] : 0.0;
      }
      if (best >= 0) moves.push_back({best_conn - conn[from], i, best});
      for (int32_t q : touched) conn[q] = 0.0;
      touched.clear();
    }
    if (moves.empty())
      return;  // infeasible (a vertex heavier than every free room)
    std::stable_sort(
        moves.begin(), moves.end(),
        [](const Move& a, const Move& b) { return a.gain > b.gain; });
    for (const Move& m : moves) {
      const int32_t from = (*part)[m.v];
      const double x = t.Load(g, m.v);
      if (!over(from) || !fits(m.to, x)) continue;
      load[from] -= x;
      load[m.to] += x;
      (*part)[m.v] = m.to;
    }
  }
}

}  // namespace rankmap::core
