#include "core/initial/grouping.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

namespace rankmap::core::internal {

Csr FromGraph(const graphs::CommGraph& g) {
  Csr c;
  c.n = g.num_vertices();
  c.xadj.assign(g.xadj().begin(), g.xadj().end());
  c.adj.assign(g.adjncy().begin(), g.adjncy().end());
  c.w.assign(g.adjwgt().begin(), g.adjwgt().end());
  return c;
}

void Pad(Csr* c, int32_t n) {
  if (n <= c->n) return;
  c->xadj.resize(n + 1, c->xadj.back());
  c->n = n;
}

// Contracts c by the grouping: group g (members [g*k, g*k+k)) becomes vertex g.
// O(n + m). scratch entries must all be -1 (it grows as needed); it is left
// that way.
Csr Contract(const Csr& c, const std::vector<int32_t>& members, int32_t k,
             std::vector<int64_t>* scratch) {
  const int32_t groups = c.n / k;
  std::vector<int32_t> group_of(c.n);
  for (int32_t i = 0; i < c.n; ++i) group_of[members[i]] = i / k;
  Csr out;
  out.n = groups;
  out.xadj.assign(groups + 1, 0);
  out.adj.reserve(c.adj.size() / 2);
  out.w.reserve(c.adj.size() / 2);
  std::vector<int64_t>& slot = *scratch;
  if (static_cast<int32_t>(slot.size()) < groups) slot.resize(groups, -1);
  for (int32_t g = 0; g < groups; ++g) {
    const int64_t row = static_cast<int64_t>(out.adj.size());
    for (int32_t i = 0; i < k; ++i) {
      const int32_t u = members[static_cast<int64_t>(g) * k + i];
      for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
        const int32_t h = group_of[c.adj[a]];
        if (h == g) continue;
        if (slot[h] < 0) {
          slot[h] = static_cast<int64_t>(out.adj.size());
          out.adj.push_back(h);
          out.w.push_back(0.0);
        }
        out.w[slot[h]] += c.w[a];
      }
    }
    for (int64_t a = row; a < static_cast<int64_t>(out.adj.size()); ++a)
      slot[out.adj[a]] = -1;
    out.xadj[g + 1] = static_cast<int64_t>(out.adj.size());
  }
  return out;
}

// Volume inside the groups. O(n + m).
double InternalWeight(const Csr& c, const std::vector<int32_t>& members,
                      int32_t k) {
  std::vector<int32_t> group_of(c.n);
  for (int32_t i = 0; i < c.n; ++i) group_of[members[i]] = i / k;
  double s = 0.0;
  for (int32_t u = 0; u < c.n; ++u) {
    for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
      if (group_of[c.adj[a]] == group_of[u]) s += c.w[a];
    }
  }
  return s / 2;
}

namespace {

std::vector<double> Dense(const Csr& c) {
  std::vector<double> m(static_cast<size_t>(c.n) * c.n, 0.0);
  for (int32_t u = 0; u < c.n; ++u) {
    for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a)
      m[static_cast<size_t>(u) * c.n + c.adj[a]] += c.w[a];
  }
  return m;
}

}  // namespace

// C(p, k), saturating at limit + 1.
int64_t Binomial(int64_t p, int64_t k, int64_t limit) {
  if (k < 0 || k > p) return 0;
  k = std::min(k, p - k);
  long double r = 1;
  for (int64_t i = 1; i <= k; ++i) {
    r = r * (p - k + i) / i;
    if (r > limit) return limit + 1;
  }
  return static_cast<int64_t>(std::llround(static_cast<double>(r)));
}

// ---- Greedy growth (large levels)
// ----------------------------------------------------------

std::vector<int32_t> GreedyGroups(const Csr& c, int32_t k) {
  return GreedyGroups(c, k, std::vector<char>(c.n, 0));
}

std::vector<int32_t> GreedyGroups(const Csr& c, int32_t k,
                                  std::vector<char> assigned) {
  const int32_t p = c.n;
  std::vector<double> vol(p);
  for (int32_t u = 0; u < p; ++u) vol[u] = c.Volume(u);
  std::vector<int32_t> order(p);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return vol[a] > vol[b]; });
  std::vector<double> conn(p, 0.0);
  std::vector<int32_t> touched;
  // Candidates as a max-heap of (connection, -unit), so the most connected
  // unit (ties: the lowest id) comes first; entries of taken units or of
  // connections that have grown since are skipped when they surface. A scan
  // of every touched unit per pick would cost O(k^2) on wide groups.
  std::vector<std::pair<double, int32_t>> heap;
  std::vector<int32_t> members;
  members.reserve(p);
  int32_t back =
      p -
      1;  // lightest unassigned candidate, for groups with no connected unit
  for (int32_t s : order) {
    if (assigned[s]) continue;
    auto take = [&](int32_t u) {
      assigned[u] = 1;
      members.push_back(u);
      for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
        const int32_t v = c.adj[a];
        if (assigned[v]) continue;
        if (conn[v] == 0.0) touched.push_back(v);
        conn[v] +=
            c.w[a] + 1e-300;  // keeps zero-weight arcs visible as connections
        heap.emplace_back(conn[v], -v);
        std::push_heap(heap.begin(), heap.end());
      }
    };
    take(s);
    for (int32_t i = 1; i < k; ++i) {
      int32_t best = -1;
      while (!heap.empty() && best < 0) {
        const auto [value, minus_v] = heap.front();
        std::pop_heap(heap.begin(), heap.end());
        heap.pop_back();
        if (!assigned[-minus_v] && value == conn[-minus_v]) best = -minus_v;
      }
      if (best < 0) {
        while (assigned[order[back]]) --back;
        best = order[back];
      }
      take(best);
    }
    for (int32_t v : touched) conn[v] = 0.0;
    touched.clear();
    heap.clear();
  }
  return members;
}

// ---- The paper: candidate groups + greedy independent sets
// -----------------------------------

namespace {

struct Candidates {
  int32_t k = 0;
  std::vector<int32_t> units;  // k per candidate
  std::vector<double> value;   // traffic leaving the candidate group
  int64_t size() const { return static_cast<int64_t>(value.size()); }
  const int32_t* at(int64_t i) const { return units.data() + i * k; }
};

Candidates Enumerate(const Csr& c, int32_t k) {
  Candidates cand;
  cand.k = k;
  const int32_t p = c.n;
  const std::vector<double> m = Dense(c);
  std::vector<double> vol(p);
  for (int32_t u = 0; u < p; ++u) vol[u] = c.Volume(u);
  std::vector<int32_t> idx(k);
  std::iota(idx.begin(), idx.end(), 0);
  while (true) {
    double v = 0.0, inside = 0.0;
    for (int32_t i = 0; i < k; ++i) {
      v += vol[idx[i]];
      for (int32_t j = i + 1; j < k; ++j)
        inside += m[static_cast<size_t>(idx[i]) * p + idx[j]];
    }
    cand.units.insert(cand.units.end(), idx.begin(), idx.end());
    cand.value.push_back(v - 2 * inside);
    int32_t i = k - 1;
    while (i >= 0 && idx[i] == p - k + i) --i;
    if (i < 0) break;
    ++idx[i];
    for (int32_t j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
  }
  return cand;
}

// Greedy maximal independent set in the given candidate order. Returns members.
std::vector<int32_t> GreedyIndependentSet(const Candidates& cand, int32_t p,
                                          const std::vector<int64_t>& order) {
  std::vector<char> used(p, 0);
  std::vector<int32_t> members;
  members.reserve(p);
  for (int64_t r : order) {
    const int32_t* g = cand.at(r);
    bool free = true;
    for (int32_t i = 0; i < cand.k && free; ++i) free = !used[g[i]];
    if (!free) continue;
    for (int32_t i = 0; i < cand.k; ++i) {
      used[g[i]] = 1;
      members.push_back(g[i]);
    }
    if (static_cast<int32_t>(members.size()) == p) break;
  }
  return members;
}

// Largest value last: the shortest prefix of the value order that still holds a
// full grouping, found by binary search with a budgeted exact-cover search per
// prefix.
class PrefixCover {
 public:
  PrefixCover(const Candidates& cand, int32_t p,
              const std::vector<int64_t>& order)
      : cand_(cand), p_(p), order_(order), lists_(p), used_(p, 0) {
    for (int64_t r = 0; r < static_cast<int64_t>(order.size()); ++r) {
      const int32_t* g = cand.at(order[r]);
      for (int32_t i = 0; i < cand.k; ++i) lists_[g[i]].push_back(r);
    }
  }

  std::vector<int32_t> Solve() {
    int64_t lo = p_ / cand_.k, hi = static_cast<int64_t>(order_.size());
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (Try(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (!Try(hi)) return {};
    std::vector<int32_t> members;
    for (int64_t r : chosen_) {
      const int32_t* g = cand_.at(order_[r]);
      members.insert(members.end(), g, g + cand_.k);
    }
    return members;
  }

 private:
  static constexpr int64_t kBudget = 20000;

  bool Try(int64_t limit) {
    std::fill(used_.begin(), used_.end(), 0);
    chosen_.clear();
    budget_ = kBudget;
    return Cover(limit, 0);
  }

  bool Cover(int64_t limit, int32_t from) {
    while (from < p_ && used_[from]) ++from;
    if (from == p_) return true;
    for (int64_t r : lists_[from]) {
      if (r >= limit || --budget_ < 0) return false;
      const int32_t* g = cand_.at(order_[r]);
      bool free = true;
      for (int32_t i = 0; i < cand_.k && free; ++i) free = !used_[g[i]];
      if (!free) continue;
      for (int32_t i = 0; i < cand_.k; ++i) used_[g[i]] = 1;
      chosen_.push_back(r);
      if (Cover(limit, from + 1)) return true;
      chosen_.pop_back();
      for (int32_t i = 0; i < cand_.k; ++i) used_[g[i]] = 0;
    }
    return false;
  }

  const Candidates& cand_;
  int32_t p_;
  const std::vector<int64_t>& order_;
  std::vector<std::vector<int64_t>> lists_;
  std::vector<char> used_;
  std::vector<int64_t> chosen_;
  int64_t budget_ = 0;
};

double ValueOf(const Csr& c, const std::vector<int32_t>& members, int32_t k) {
  return c.Total() - InternalWeight(c, members, k);
}

}  // namespace

namespace {

// Sparse candidates for levels too large to enumerate: for arity 2 every edge;
// above, one group per unit grown greedily from it (the unit most connected to
// the group joins next), without duplicates. Each candidate's value is exact.
Candidates Bucketed(const Csr& c, int32_t k) {
  Candidates cand;
  cand.k = k;
  const int32_t p = c.n;
  // Each unit grows a group of k: p x k candidate entries and about p x k^2
  // steps. A wide level (a node with thousands of children) would take hours
  // and gigabytes; it gets no candidates, so greedy growth groups it all.
  if (k > 2 && (int64_t{p} * k > kBucketedEntries ||
                int64_t{p} * k * k > kBucketedWork)) {
    return cand;
  }
  std::vector<double> vol(p);
  for (int32_t u = 0; u < p; ++u) vol[u] = c.Volume(u);
  if (k == 2) {
    for (int32_t u = 0; u < p; ++u) {
      for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
        if (c.adj[a] <= u) continue;
        cand.units.push_back(u);
        cand.units.push_back(c.adj[a]);
        cand.value.push_back(vol[u] + vol[c.adj[a]] - 2 * c.w[a]);
      }
    }
    return cand;
  }
  std::vector<double> conn(p, 0.0);
  std::vector<char> in(p, 0);
  std::vector<int32_t> touched, group;
  std::set<std::vector<int32_t>> seen;
  for (int32_t s = 0; s < p; ++s) {
    if (c.xadj[s] == c.xadj[s + 1]) continue;  // padding and silent units
    group.assign(1, s);
    in[s] = 1;
    double inside = 0.0;
    auto absorb = [&](int32_t u) {
      for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
        const int32_t v = c.adj[a];
        if (in[v]) continue;
        if (conn[v] == 0.0) touched.push_back(v);
        conn[v] += c.w[a];
      }
    };
    absorb(s);
    while (static_cast<int32_t>(group.size()) < k) {
      int32_t best = -1;
      for (int32_t v : touched) {
        if (!in[v] && (best < 0 || conn[v] > conn[best] ||
                       (conn[v] == conn[best] && v < best))) {
          best = v;
        }
      }
      if (best < 0) break;  // the component is smaller than k
      inside += conn[best];
      group.push_back(best);
      in[best] = 1;
      absorb(best);
    }
    for (int32_t v : touched) conn[v] = 0.0;
    touched.clear();
    for (int32_t u : group) in[u] = 0;
    if (static_cast<int32_t>(group.size()) < k) continue;
    std::vector<int32_t> key = group;
    std::sort(key.begin(), key.end());
    if (!seen.insert(key).second) continue;
    double v = 0.0;
    for (int32_t u : key) v += vol[u];
    cand.units.insert(cand.units.end(), key.begin(), key.end());
    cand.value.push_back(v - 2 * inside);
  }
  return cand;
}

// The candidates' order by the heuristic, and the grouping it gives: the
// greedy maximal independent set in that order (largest value last: the
// shortest prefix of the value order holding a full grouping), completed by
// greedy growth when sparse candidates cannot cover every unit.
std::vector<int32_t> IndependentSet(const Csr& c, const Candidates& cand,
                                    int32_t k, bool complete,
                                    IndependentSetOrder order) {
  const int32_t p = c.n;
  std::vector<int64_t> by_value(cand.size());
  std::iota(by_value.begin(), by_value.end(), 0);
  std::stable_sort(by_value.begin(), by_value.end(), [&](int64_t a, int64_t b) {
    return cand.value[a] < cand.value[b];
  });
  std::vector<int32_t> members;
  switch (order) {
    case IndependentSetOrder::kSmallestValueFirst:
      members = GreedyIndependentSet(cand, p, by_value);
      break;
    case IndependentSetOrder::kLargestValueLast:
      // Sparse candidates rarely hold an exact cover of every unit, and a
      // greedy cover of a prefix is the smallest-first set: only complete
      // candidate lists run the budgeted exact-cover search.
      if (complete) members = PrefixCover(cand, p, by_value).Solve();
      if (members.empty()) members = GreedyIndependentSet(cand, p, by_value);
      break;
    case IndependentSetOrder::kLargestWeightedDegreeFirst: {
      // Weighted degree as Kako et al. define it for the independent-set
      // greedy: the mean value of the candidates a candidate excludes,
      // relative to its own value. (The plain mean picks the groups of the
      // heaviest units first: (1,2)(5,6)(0,4)(3,7) on the paper's matrix.)
      std::vector<double> unit_sum(p, 0.0);
      std::vector<int64_t> unit_count(p, 0);
      for (int64_t r = 0; r < cand.size(); ++r) {
        for (int32_t i = 0; i < k; ++i) {
          unit_sum[cand.at(r)[i]] += cand.value[r];
          ++unit_count[cand.at(r)[i]];
        }
      }
      std::vector<double> degree(cand.size());
      for (int64_t r = 0; r < cand.size(); ++r) {
        double sum = -k * cand.value[r];
        int64_t cnt = -k;
        for (int32_t i = 0; i < k; ++i) {
          sum += unit_sum[cand.at(r)[i]];
          cnt += unit_count[cand.at(r)[i]];
        }
        const double mean = cnt > 0 ? sum / cnt : 0.0;
        degree[r] = cand.value[r] > 0 ? mean / cand.value[r]
                                      : std::numeric_limits<double>::infinity();
      }
      std::vector<int64_t> by_degree(cand.size());
      std::iota(by_degree.begin(), by_degree.end(), 0);
      std::stable_sort(
          by_degree.begin(), by_degree.end(),
          [&](int64_t a, int64_t b) { return degree[a] > degree[b]; });
      members = GreedyIndependentSet(cand, p, by_degree);
      break;
    }
  }
  if (static_cast<int32_t>(members.size()) < p) {
    std::vector<char> assigned(p, 0);
    for (int32_t u : members) assigned[u] = 1;
    std::vector<int32_t> rest = GreedyGroups(c, k, std::move(assigned));
    members.insert(members.end(), rest.begin(), rest.end());
  }
  return members;
}

}  // namespace

bool EnumerationFits(int32_t p, int32_t k) {
  return p <= kEnumerateUnits &&
         Binomial(p, k, kCandidateLimit) <= kCandidateLimit;
}

std::vector<int32_t> PaperGroupsBy(const Csr& c, int32_t k,
                                   IndependentSetOrder order) {
  if (k == 1) {
    std::vector<int32_t> id(c.n);
    std::iota(id.begin(), id.end(), 0);
    return id;
  }
  const bool complete = EnumerationFits(c.n, k);
  const Candidates cand = complete ? Enumerate(c, k) : Bucketed(c, k);
  return IndependentSet(c, cand, k, complete, order);
}

std::vector<int32_t> PaperGroups(const Csr& c, int32_t k) {
  if (k == 1)
    return PaperGroupsBy(c, k, IndependentSetOrder::kSmallestValueFirst);
  const bool complete = EnumerationFits(c.n, k);
  const Candidates cand = complete ? Enumerate(c, k) : Bucketed(c, k);
  std::vector<int32_t> best;
  double best_value = 0.0;
  for (IndependentSetOrder order :
       {IndependentSetOrder::kSmallestValueFirst,
        IndependentSetOrder::kLargestValueLast,
        IndependentSetOrder::kLargestWeightedDegreeFirst}) {
    std::vector<int32_t> members = IndependentSet(c, cand, k, complete, order);
    const double v = ValueOf(c, members, k);
    if (best.empty() || v < best_value) {
      best_value = v;
      best = std::move(members);
    }
  }
  return best;
}

// ---- Exact and improved groupings (extensions)
// ----------------------------------------------

// Branch and bound over all groupings of a small level, maximising the volume
// inside groups. Starts from `seed` (a valid grouping), so the result is never
// worse than it.
namespace {

class ExactGrouping {
 public:
  ExactGrouping(const Csr& c, int32_t k, std::vector<int32_t> seed)
      : k_(k), p_(c.n), m_(Dense(c)), used_(p_, 0), best_(std::move(seed)) {
    best_inside_ = InternalWeight(c, best_, k);
    // Optimistic share of a unit: half its k-1 heaviest connections.
    share_.assign(p_, 0.0);
    std::vector<double> row(p_);
    for (int32_t u = 0; u < p_; ++u) {
      row.assign(m_.begin() + static_cast<size_t>(u) * p_,
                 m_.begin() + static_cast<size_t>(u + 1) * p_);
      std::partial_sort(row.begin(), row.begin() + std::min(k - 1, p_),
                        row.end(), std::greater<double>());
      for (int32_t i = 0; i < std::min(k - 1, p_); ++i) share_[u] += row[i] / 2;
    }
    remaining_share_ = std::accumulate(share_.begin(), share_.end(), 0.0);
  }

  std::vector<int32_t> Solve() {
    current_.clear();
    Next(0, 0.0);
    return best_;
  }

 private:
  static constexpr int64_t kBudget = 200000;

  void Next(int32_t from, double inside) {
    while (from < p_ && used_[from]) ++from;
    if (from == p_) {
      if (inside > best_inside_ * (1 + 1e-12) + 1e-300) {
        best_inside_ = inside;
        best_ = current_;
      }
      return;
    }
    if (inside + remaining_share_ <= best_inside_ * (1 + 1e-12) ||
        --budget_ < 0)
      return;
    std::vector<int32_t> outer =
        std::move(group_);  // the caller's completed group
    group_.assign(1, from);
    Take(from);
    Extend(from + 1, inside, 0.0);
    Release(from);
    group_ = std::move(outer);
  }

  // Chooses the remaining members of the group started at group_[0], indices >=
  // start.
  void Extend(int32_t start, double inside, double gain) {
    if (static_cast<int32_t>(group_.size()) == k_) {
      current_.insert(current_.end(), group_.begin(), group_.end());
      Next(group_[0] + 1, inside + gain);
      current_.resize(current_.size() - k_);
      return;
    }
    for (int32_t v = start; v < p_ && budget_ >= 0; ++v) {
      if (used_[v]) continue;
      double add = 0.0;
      for (int32_t u : group_) add += m_[static_cast<size_t>(u) * p_ + v];
      group_.push_back(v);
      Take(v);
      Extend(v + 1, inside, gain + add);
      Release(v);
      group_.pop_back();
    }
  }

  void Take(int32_t u) {
    used_[u] = 1;
    remaining_share_ -= share_[u];
  }
  void Release(int32_t u) {
    used_[u] = 0;
    remaining_share_ += share_[u];
  }

  int32_t k_, p_;
  std::vector<double> m_;
  std::vector<char> used_;
  std::vector<int32_t> best_, current_, group_;
  std::vector<double> share_;
  double best_inside_ = 0.0, remaining_share_ = 0.0;
  int64_t budget_ = kBudget;
};

}  // namespace

std::vector<int32_t> ExactGroups(const Csr& c, int32_t k,
                                 std::vector<int32_t> start) {
  return ExactGrouping(c, k, std::move(start)).Solve();
}

// Heavy-edge matching, then 2-opt re-pairing passes. O(m log m + passes * m).
std::vector<int32_t> HeavyEdgePairs(const Csr& c) {
  const int32_t p = c.n;
  struct Edge {
    double w;
    int32_t u, v;
  };
  std::vector<Edge> edges;
  edges.reserve(c.adj.size() / 2);
  for (int32_t u = 0; u < p; ++u) {
    for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
      if (c.adj[a] > u) edges.push_back({c.w[a], u, c.adj[a]});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    if (a.w != b.w) return a.w > b.w;
    return a.u != b.u ? a.u < b.u : a.v < b.v;
  });
  std::vector<int32_t> mate(p, -1);
  std::vector<double> pw(p, 0.0);
  for (const Edge& e : edges) {
    if (mate[e.u] < 0 && mate[e.v] < 0) {
      mate[e.u] = e.v;
      mate[e.v] = e.u;
      pw[e.u] = pw[e.v] = e.w;
    }
  }
  edges.clear();
  edges.shrink_to_fit();
  // Augmenting paths of length 3: an unmatched u takes a matched neighbour c
  // whose mate d re-pairs with another unmatched vertex e, when
  // w(u,c) + w(d,e) > w(c,d). Greedy matchings of uniform graphs (stencils)
  // leave many vertices unmatched; this recovers most of them.
  for (int32_t u = 0; u < p; ++u) {
    if (mate[u] >= 0) continue;
    double best = 0.0;
    int32_t best_c = -1, best_e = -1;
    double best_uc = 0.0, best_de = 0.0;
    for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a) {
      const int32_t cc = c.adj[a];
      const int32_t d = mate[cc];
      if (d < 0) continue;  // cc unmatched too: would have been matched above
      for (int64_t b = c.xadj[d]; b < c.xadj[d + 1]; ++b) {
        const int32_t e = c.adj[b];
        if (e == u || mate[e] >= 0) continue;
        const double gain = c.w[a] + c.w[b] - pw[cc];
        if (gain > best) {
          best = gain;
          best_c = cc;
          best_e = e;
          best_uc = c.w[a];
          best_de = c.w[b];
        }
      }
    }
    if (best_c < 0) continue;
    const int32_t d = mate[best_c];
    mate[u] = best_c;
    mate[best_c] = u;
    mate[d] = best_e;
    mate[best_e] = d;
    pw[u] = pw[best_c] = best_uc;
    pw[d] = pw[best_e] = best_de;
  }
  int32_t last = -1;
  for (int32_t u = 0; u < p; ++u) {
    if (mate[u] >= 0) continue;
    if (last < 0) {
      last = u;
    } else {
      mate[u] = last;
      mate[last] = u;
      last = -1;
    }
  }
  // 2-opt: (a, b)(c, d) -> (a, c)(b, d) when it keeps more volume inside pairs.
  std::vector<double> row(p, 0.0);
  // Each pass touches every arc at random; huge levels get fewer passes.
  const int32_t passes = p > kSplitOnlyUnits ? 2 : 8;
  for (int32_t pass = 0; pass < passes; ++pass) {
    int64_t changes = 0;
    for (int32_t a = 0; a < p; ++a) {
      const int32_t b = mate[a];
      for (int64_t x = c.xadj[b]; x < c.xadj[b + 1]; ++x)
        row[c.adj[x]] += c.w[x];
      double best = 1e-12 * (pw[a] + 1e-300);
      int32_t best_c = -1;
      double best_ac = 0.0;
      for (int64_t x = c.xadj[a]; x < c.xadj[a + 1]; ++x) {
        const int32_t cc = c.adj[x];
        if (cc == b) continue;
        const int32_t d = mate[cc];
        const double gain = c.w[x] + row[d] - pw[a] - pw[cc];
        if (gain > best) {
          best = gain;
          best_c = cc;
          best_ac = c.w[x];
        }
      }
      if (best_c >= 0) {
        const int32_t d = mate[best_c];
        const double bd = row[d];
        mate[a] = best_c;
        mate[best_c] = a;
        mate[b] = d;
        mate[d] = b;
        pw[a] = pw[best_c] = best_ac;
        pw[b] = pw[d] = bd;
        ++changes;
      }
      for (int64_t x = c.xadj[b]; x < c.xadj[b + 1]; ++x) row[c.adj[x]] = 0.0;
    }
    if (changes == 0) break;
  }
  std::vector<int32_t> members;
  members.reserve(p);
  for (int32_t u = 0; u < p; ++u) {
    if (u < mate[u]) {
      members.push_back(u);
      members.push_back(mate[u]);
    }
  }
  return members;
}

// Direct grouping with the options' methods (no arity splitting).
std::vector<int32_t> GroupDirect(const Csr& c, int32_t k,
                                 const TreeMatchOptions& o) {
  const bool extended =
      o.exact_pairing || o.exhaustive_limit > 0 || o.split_arities;
  std::vector<int32_t> best;
  if (k == 2 && o.exact_pairing) {
    best = HeavyEdgePairs(c);
    if (c.n <= kExactPairLimit) best = ExactGroups(c, 2, std::move(best));
  } else {
    best = PaperGroups(c, k);
    if (extended && k > 1) {
      std::vector<int32_t> greedy = GreedyGroups(c, k);
      if (InternalWeight(c, greedy, k) > InternalWeight(c, best, k))
        best = std::move(greedy);
    }
  }
  if (k > 1 && k <= o.exhaustive_limit && c.n <= kExhaustiveUnits) {
    best = ExactGroups(c, k, std::move(best));
  }
  return best;
}

}  // namespace rankmap::core::internal
