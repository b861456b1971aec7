#include "core/treematch.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/refine.h"

namespace rankmap::core {
namespace {

using graphs::VertexId;

// The graph between the units of one level: CSR with unsorted rows, padding
// units have none.
struct Csr {
  int32_t n = 0;
  std::vector<int64_t> xadj{0};
  std::vector<int32_t> adj;
  std::vector<double> w;

  double Volume(int32_t u) const {
    double s = 0.0;
    for (int64_t a = xadj[u]; a < xadj[u + 1]; ++a) s += w[a];
    return s;
  }
  double Total() const {  // sum over undirected edges
    double s = 0.0;
    for (double x : w) s += x;
    return s / 2;
  }
};

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

std::vector<double> Dense(const Csr& c) {
  std::vector<double> m(static_cast<size_t>(c.n) * c.n, 0.0);
  for (int32_t u = 0; u < c.n; ++u) {
    for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a)
      m[static_cast<size_t>(u) * c.n + c.adj[a]] += c.w[a];
  }
  return m;
}

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
  const int32_t p = c.n;
  std::vector<double> vol(p);
  for (int32_t u = 0; u < p; ++u) vol[u] = c.Volume(u);
  std::vector<int32_t> order(p);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return vol[a] > vol[b]; });
  std::vector<char> assigned(p, 0);
  std::vector<double> conn(p, 0.0);
  std::vector<int32_t> touched;
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
      }
    };
    take(s);
    for (int32_t i = 1; i < k; ++i) {
      int32_t best = -1;
      for (int32_t v : touched) {
        if (assigned[v]) continue;
        if (best < 0 || conn[v] > conn[best] ||
            (conn[v] == conn[best] && v < best))
          best = v;
      }
      if (best < 0) {
        while (assigned[order[back]]) --back;
        best = order[back];
      }
      take(best);
    }
    for (int32_t v : touched) conn[v] = 0.0;
    touched.clear();
  }
  return members;
}

// ---- The paper: candidate groups + greedy independent sets
// -----------------------------------

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

std::vector<int32_t> PaperGroups(const Csr& c, int32_t k) {
  const int32_t p = c.n;
  if (k == 1) {
    std::vector<int32_t> id(p);
    std::iota(id.begin(), id.end(), 0);
    return id;
  }
  if (Binomial(p, k, kCandidateLimit) > kCandidateLimit)
    return GreedyGroups(c, k);
  const Candidates cand = Enumerate(c, k);
  std::vector<int64_t> by_value(cand.size());
  std::iota(by_value.begin(), by_value.end(), 0);
  std::stable_sort(by_value.begin(), by_value.end(), [&](int64_t a, int64_t b) {
    return cand.value[a] < cand.value[b];
  });
  // Weighted degree in the incompatibility graph: mean value of the candidates
  // sharing a unit.
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
    double s = -k * cand.value[r];
    int64_t cnt = -k;
    for (int32_t i = 0; i < k; ++i) {
      s += unit_sum[cand.at(r)[i]];
      cnt += unit_count[cand.at(r)[i]];
    }
    degree[r] = cnt > 0 ? s / cnt : 0.0;
  }
  std::vector<int64_t> by_degree(cand.size());
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](int64_t a, int64_t b) { return degree[a] > degree[b]; });

  std::vector<int32_t> best = GreedyIndependentSet(cand, p, by_value);
  double best_value = ValueOf(c, best, k);
  for (std::vector<int32_t> other :
       {PrefixCover(cand, p, by_value).Solve(),
        GreedyIndependentSet(cand, p, by_degree)}) {
    if (static_cast<int32_t>(other.size()) != p) continue;
    const double v = ValueOf(c, other, k);
    if (v < best_value) {
      best_value = v;
      best = std::move(other);
    }
  }
  return best;
}

// ---- Exact and improved groupings (extensions)
// ----------------------------------------------

// Branch and bound over all groupings of a small level, maximising the volume
// inside groups. Starts from `seed` (a valid grouping), so the result is never
// worse than it.
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
                                 const MappingOptions& o) {
  const bool extended =
      o.exact_pairing || o.exhaustive_limit > 0 || o.split_arities;
  std::vector<int32_t> best;
  if (k == 2 && o.exact_pairing) {
    best = HeavyEdgePairs(c);
    if (c.n <= kExactPairLimit)
      best = ExactGrouping(c, 2, std::move(best)).Solve();
  } else {
    best = PaperGroups(c, k);
    if (extended && k > 1 &&
        Binomial(c.n, k, kCandidateLimit) <= kCandidateLimit) {
      std::vector<int32_t> greedy = GreedyGroups(c, k);
      if (InternalWeight(c, greedy, k) > InternalWeight(c, best, k))
        best = std::move(greedy);
    }
  }
  if (k > 1 && k <= o.exhaustive_limit && c.n <= kExhaustiveUnits) {
    best = ExactGrouping(c, k, std::move(best)).Solve();
  }
  return best;
}

std::vector<int32_t> PrimeFactors(int32_t k) {
  std::vector<int32_t> f;
  for (int32_t d = 2; static_cast<int64_t>(d) * d <= k; ++d) {
    while (k % d == 0) {
      f.push_back(d);
      k /= d;
    }
  }
  if (k > 1) f.push_back(k);
  return f;
}

struct Step {
  int32_t arity;
  std::vector<int32_t> members;
};

// Groups one tree level (arity k, c already padded) and returns the steps and
// the next graph.
std::vector<Step> GroupLevel(const Csr& c, int32_t k, const MappingOptions& o,
                             std::vector<int64_t>* scratch, Csr* next) {
  const std::vector<int32_t> factors = PrimeFactors(k);
  const bool try_split = o.split_arities && factors.size() >= 2;
  if (try_split && c.n > kSplitOnlyUnits) {
    // Large levels: pairing-based splitting only; direct greedy growth of big
    // groups costs O(m * k) and loses to it on large sparse levels.
    std::vector<Step> split;
    Csr cur = c;
    for (int32_t f : factors) {
      split.push_back({f, GroupDirect(cur, f, o)});
      cur = Contract(cur, split.back().members, f, scratch);
    }
    *next = std::move(cur);
    return split;
  }
  std::vector<Step> direct{{k, GroupDirect(c, k, o)}};
  Csr direct_next = Contract(c, direct[0].members, k, scratch);
  if (!try_split) {
    *next = std::move(direct_next);
    return direct;
  }
  std::vector<Step> split;
  Csr cur = c;
  for (int32_t f : factors) {
    split.push_back({f, GroupDirect(cur, f, o)});
    cur = Contract(cur, split.back().members, f, scratch);
  }
  if (cur.Total() < direct_next.Total()) {
    *next = std::move(cur);
    return split;
  }
  *next = std::move(direct_next);
  return direct;
}

graphs::CommGraph ToCommGraph(const Csr& c) {
  std::vector<int64_t> xadj(c.n + 1, 0);
  std::vector<int32_t> adj;
  std::vector<double> w;
  std::vector<std::pair<int32_t, double>> row;
  for (int32_t u = 0; u < c.n; ++u) {
    row.clear();
    for (int64_t a = c.xadj[u]; a < c.xadj[u + 1]; ++a)
      row.emplace_back(c.adj[a], c.w[a]);
    std::sort(row.begin(), row.end());
    for (auto& [v, x] : row) {
      adj.push_back(v);
      w.push_back(x);
    }
    xadj[u + 1] = static_cast<int64_t>(adj.size());
  }
  auto g =
      graphs::CommGraph::FromCsr(std::move(xadj), std::move(adj), std::move(w));
  return g.ok() ? *std::move(g) : graphs::CommGraph();
}

// Balanced tree, every leaf of capacity cap >= 1.
Mapping BottomUp(const topology::Tree& tree, const graphs::CommGraph& graph,
                 int32_t cap, const MappingOptions& o,
                 std::vector<GroupingStep>* trace) {
  std::vector<int32_t> levels;
  if (cap > 1) levels.push_back(cap);
  const std::vector<int32_t> arities = tree.Arities();
  for (auto it = arities.rbegin(); it != arities.rend(); ++it)
    levels.push_back(*it);

  Csr cur = FromGraph(graph);
  std::vector<int64_t> scratch;
  std::vector<Step> steps;
  for (int32_t k : levels) {
    if (k == 1) continue;
    const int32_t padded =
        static_cast<int32_t>((static_cast<int64_t>(cur.n) + k - 1) / k * k);
    Pad(&cur, padded);
    scratch.assign(padded / k, -1);
    Csr next;
    std::vector<Step> level = GroupLevel(cur, k, o, &scratch, &next);
    if (trace != nullptr) {
      // Recompute the intermediate graphs of split levels for the trace only.
      Csr t = cur;
      for (const Step& s : level) {
        GroupingStep gs;
        gs.arity = s.arity;
        gs.num_units = t.n;
        gs.members = s.members;
        std::vector<int64_t> sc(t.n / s.arity, -1);
        t = Contract(t, s.members, s.arity, &sc);
        gs.aggregated = ToCommGraph(t);
        trace->push_back(std::move(gs));
      }
    }
    for (Step& s : level) steps.push_back(std::move(s));
    cur = std::move(next);
  }
  // Walk: position inside each group is a mixed-radix digit of the slot number.
  const int32_t n = graph.num_vertices();
  std::vector<int64_t> offset(n, 0);
  std::vector<int32_t> unit(n);
  std::iota(unit.begin(), unit.end(), 0);
  int64_t mult = 1;
  for (const Step& s : steps) {
    std::vector<int32_t> pos(s.members.size());
    for (size_t i = 0; i < s.members.size(); ++i)
      pos[s.members[i]] = static_cast<int32_t>(i);
    for (int32_t v = 0; v < n; ++v) {
      const int32_t i = pos[unit[v]];
      offset[v] += (i % s.arity) * mult;
      unit[v] = i / s.arity;
    }
    mult *= s.arity;
  }
  Mapping m(n);
  for (int32_t v = 0; v < n; ++v) m[v] = static_cast<LeafId>(offset[v] / cap);
  return m;
}

// Any tree: split the processes of each node over its children by greedy
// growing (see header).
Mapping TopDownGreedy(const topology::Tree& tree,
                      const graphs::CommGraph& graph) {
  const VertexId n = graph.num_vertices();
  Mapping m(n, 0);
  std::vector<int32_t> procs(n);
  std::iota(procs.begin(), procs.end(), 0);
  std::vector<int32_t> region(
      n, -1);  // id of the node range a process currently belongs to
  std::vector<char> taken(n, 0);
  std::vector<double> conn(n, 0.0);
  struct Frame {
    NodeId node;
    int32_t begin, end;  // range of procs
  };
  std::vector<Frame> stack{{tree.root(), 0, n}};
  std::vector<int32_t> out;
  using Entry =
      std::pair<double, int32_t>;  // (connection, -id) for deterministic ties
  while (!stack.empty()) {
    const Frame f = stack.back();
    stack.pop_back();
    if (f.begin == f.end) continue;
    if (tree.is_leaf(f.node)) {
      for (int32_t i = f.begin; i < f.end; ++i) m[procs[i]] = f.node;
      continue;
    }
    for (int32_t i = f.begin; i < f.end; ++i) {
      region[procs[i]] = f.node;
      taken[procs[i]] = 0;
    }
    out.clear();
    int32_t cursor = f.begin;  // first candidate seed in procs order
    int32_t carried = -1;      // best boundary vertex of the previous child
    std::vector<std::pair<int32_t, int32_t>> child_ranges;
    for (NodeId c : tree.children(f.node)) {
      const int32_t want = static_cast<int32_t>(std::min<int64_t>(
          tree.Capacity(c),
          (f.end - f.begin) - static_cast<int32_t>(out.size())));
      const int32_t start = static_cast<int32_t>(out.size());
      std::priority_queue<Entry> heap;
      std::vector<int32_t> touched;
      auto take = [&](int32_t u) {
        taken[u] = 1;
        out.push_back(u);
        auto nb = graph.neighbors(u);
        auto wt = graph.weights(u);
        for (size_t a = 0; a < nb.size(); ++a) {
          const int32_t v = nb[a];
          if (region[v] != f.node || taken[v]) continue;
          if (conn[v] == 0.0) touched.push_back(v);
          conn[v] += wt[a] + 1e-300;
          heap.emplace(conn[v], -v);
        }
      };
      for (int32_t got = 0; got < want; ++got) {
        int32_t u = -1;
        while (!heap.empty()) {
          auto [cv, nv] = heap.top();
          heap.pop();
          if (!taken[-nv] && cv == conn[-nv]) {
            u = -nv;
            break;
          }
        }
        if (u < 0 && carried >= 0 && !taken[carried]) u = carried;
        if (u < 0) {
          while (taken[procs[cursor]]) ++cursor;
          u = procs[cursor];
        }
        take(u);
      }
      // The strongest remaining boundary vertex seeds the next child.
      carried = -1;
      while (!heap.empty()) {
        auto [cv, nv] = heap.top();
        heap.pop();
        if (!taken[-nv] && cv == conn[-nv]) {
          carried = -nv;
          break;
        }
      }
      for (int32_t v : touched) conn[v] = 0.0;
      child_ranges.emplace_back(start, static_cast<int32_t>(out.size()));
    }
    std::copy(out.begin(), out.end(), procs.begin() + f.begin);
    const auto children = tree.children(f.node);
    for (size_t i = children.size(); i-- > 0;) {
      stack.push_back({children[i], f.begin + child_ranges[i].first,
                       f.begin + child_ranges[i].second});
    }
  }
  return m;
}

}  // namespace

double LeavingTraffic(const graphs::CommGraph& g, int32_t arity,
                      const std::vector<int32_t>& members) {
  const Csr c = FromGraph(g);
  return c.Total() - InternalWeight(c, members, arity);
}

absl::StatusOr<std::vector<int32_t>> GroupUnits(const graphs::CommGraph& g,
                                                int32_t arity,
                                                const MappingOptions& options) {
  if (arity < 1 || g.num_vertices() % arity != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "treematch: cannot group ", g.num_vertices(), " units by ", arity));
  }
  return GroupDirect(FromGraph(g), arity, options);
}

absl::StatusOr<Mapping> TreeMatchMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options,
                                     std::vector<GroupingStep>* trace) {
  const VertexId n = graph.num_vertices();
  if (n > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(
        absl::StrCat("treematch: ", n, " processes but the topology has only ",
                     tree.Capacity(tree.root()), " slots"));
  }
  if (n == 0) return Mapping();
  bool uniform = tree.Balanced();
  const int32_t cap = tree.capacity(0);
  for (LeafId l = 0; l < tree.num_leaves() && uniform; ++l)
    uniform = tree.capacity(l) == cap;
  Mapping m = uniform && cap >= 1 ? BottomUp(tree, graph, cap, options, trace)
                                  : TopDownGreedy(tree, graph);
  if (options.refine) RefineMapping(tree, graph, options, &m);
  return m;
}

}  // namespace rankmap::core
