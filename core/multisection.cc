#include "core/multisection.h"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/refine.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;
using topology::Tree;

static_assert(sizeof(idx_t) == 4,
              "rankmap expects Debian's 32-bit METIS idx_t");

enum class Mode { kOneToOne, kPartition };

// Subgraphs above kHugeSubgraph vertices, and all splits of graphs above
// kHugeGraph vertices, get a single METIS attempt.
constexpr int32_t kHugeSubgraph = 200000;
constexpr int32_t kHugeGraph = 500000;
// One-to-one: graphs up to this many vertices get 8 METIS attempts at the
// root, larger ones 4.
constexpr int32_t kManyRootCuts = 2048;

// Parts are numbered in the order of the children that receive something.
struct Targets {
  std::vector<NodeId> kid;     // child node of each part
  std::vector<int64_t> size;   // one-to-one: exact number of processes per part
  std::vector<double> weight;  // n-to-1: target vertex weight per part
  std::vector<double> bound;   // n-to-1: largest vertex weight a part may carry
  double ub = 1.5;  // n-to-1: METIS tolerance (max bound / weight ratio)
};

// Integer vertex weights for METIS: unchanged when they are small integers,
// else scaled so the total stays below 2^28 (every positive weight at least 1).
std::vector<idx_t> ScaleVertexWeights(const std::vector<double>& w) {
  double total = 0.0;
  bool integral = true;
  for (double x : w) {
    total += x;
    integral = integral && x == std::floor(x);
  }
  std::vector<idx_t> out(w.size());
  const double scale = (integral && total < (1 << 28))
                           ? 1.0
                           : (total > 0 ? (1 << 28) / total : 1.0);
  for (size_t i = 0; i < w.size(); ++i) {
    out[i] = w[i] > 0 ? std::max<idx_t>(
                            1, static_cast<idx_t>(std::llround(w[i] * scale)))
                      : 0;
  }
  return out;
}

class Multisection {
 public:
  // spread: n-to-1 only; also cap every level at a geometric share of the
  // imbalance, (1 + imbalance)^(1 / height), instead of letting the top levels
  // take all the slack.
  Multisection(const Tree& tree, const CommGraph& graph,
               const MappingOptions& options, Mode mode, bool spread = false)
      : tree_(tree),
        graph_(graph),
        options_(options),
        mode_(mode),
        local_(graph.num_vertices(), -1) {
    level_ub_ = spread ? std::pow(1.0 + options.imbalance,
                                  1.0 / std::max<int32_t>(1, tree.height()))
                       : 2.0;
    // n-to-1: only leaf loads are bounded, so a subtree may carry up to the sum
    // of its leaves' bounds (leaves of a subtree are contiguous: prefix sums).
    if (mode == Mode::kPartition) {
      const std::vector<double> b =
          PartitionLoadBounds(tree, graph, options.imbalance);
      bound_prefix_.assign(b.size() + 1, 0.0);
      for (size_t l = 0; l < b.size(); ++l) {
        bound_prefix_[l + 1] = bound_prefix_[l] + b[l];
      }
    }
  }

  absl::Status Run(Mapping* mapping) {
    mapping->assign(graph_.num_vertices(), -1);
    std::vector<std::pair<NodeId, std::vector<VertexId>>> stack;
    std::vector<VertexId> all(graph_.num_vertices());
    std::iota(all.begin(), all.end(), 0);
    stack.emplace_back(tree_.root(), std::move(all));
    while (!stack.empty()) {
      auto [node, verts] = std::move(stack.back());
      stack.pop_back();
      if (verts.empty()) continue;
      if (tree_.is_leaf(node)) {
        for (VertexId v : verts) (*mapping)[v] = node;
        continue;
      }
      std::vector<std::vector<VertexId>> parts;
      Targets t = MakeTargets(node, verts);
      if (absl::Status s = Split(node, verts, t, &parts); !s.ok()) return s;
      for (size_t i = 0; i < parts.size(); ++i)
        stack.emplace_back(t.kid[i], std::move(parts[i]));
    }
    return absl::OkStatus();
  }

 private:
  Targets MakeTargets(NodeId node, const std::vector<VertexId>& verts) const {
    Targets t;
    std::vector<NodeId> kids;
    for (NodeId c : tree_.children(node)) {
      if (tree_.Capacity(c) > 0) kids.push_back(c);
    }
    if (mode_ == Mode::kPartition) {
      double w = 0.0;
      for (VertexId v : verts) w += graph_.vertex_weight(v);
      const double cap = static_cast<double>(tree_.Capacity(node));
      for (NodeId c : kids) {
        t.kid.push_back(c);
        t.weight.push_back(w * tree_.Capacity(c) / cap);
        t.bound.push_back(std::min(bound_prefix_[tree_.leaf_end(c)] -
                                       bound_prefix_[tree_.leaf_begin(c)],
                                   t.weight.back() * level_ub_));
        // METIS takes one tolerance for all parts: the tightest room.
        if (t.weight.back() > 0) {
          t.ub = std::min(t.ub, t.bound.back() / t.weight.back());
        }
      }
      t.ub = std::clamp(t.ub, 1.001, 1.5);
      return t;
    }
    // One-to-one: pack into the fewest children (largest capacity first, ties
    // in tree order), then share in proportion to their capacities (largest
    // remainder, capped by capacity).
    const int64_t n = static_cast<int64_t>(verts.size());
    std::vector<NodeId> order = kids;
    std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
      return tree_.Capacity(a) > tree_.Capacity(b);
    });
    int64_t cap = 0;
    size_t used = 0;
    while (used < order.size() && cap < n) cap += tree_.Capacity(order[used++]);
    order.resize(used);
    std::sort(order.begin(), order.end());  // back to tree order
    std::vector<int64_t> size(order.size());
    std::vector<std::pair<double, size_t>> rem;
    int64_t given = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const double exact =
          static_cast<double>(n) * tree_.Capacity(order[i]) / cap;
      size[i] = std::min<int64_t>(tree_.Capacity(order[i]),
                                  static_cast<int64_t>(exact));
      given += size[i];
      rem.push_back({-(exact - size[i]), i});
    }
    std::sort(rem.begin(), rem.end());
    for (size_t r = 0; given < n; r = (r + 1) % rem.size()) {
      const size_t i = rem[r].second;
      if (size[i] < tree_.Capacity(order[i])) {
        ++size[i];
        ++given;
      }
    }
    for (size_t i = 0; i < order.size(); ++i) {
      if (size[i] == 0) continue;
      t.kid.push_back(order[i]);
      t.size.push_back(size[i]);
    }
    return t;
  }

  // True when all parts are single-slot leaves at one common distance: any
  // split costs the same.
  bool AllUnitLeaves(NodeId node, const Targets& t) const {
    if (mode_ != Mode::kOneToOne || tree_.has_pair_costs(node)) return false;
    for (NodeId c : t.kid) {
      if (!tree_.is_leaf(c) || tree_.capacity(c) != 1) return false;
    }
    return true;
  }

  absl::Status Split(NodeId node, const std::vector<VertexId>& verts,
                     const Targets& t,
                     std::vector<std::vector<VertexId>>* parts) {
    const int32_t k = static_cast<int32_t>(t.kid.size());
    parts->assign(k, {});
    if (k == 1) {
      (*parts)[0] = verts;
      return absl::OkStatus();
    }
    if (AllUnitLeaves(node, t)) {
      for (size_t i = 0; i < verts.size(); ++i) (*parts)[i].push_back(verts[i]);
      return absl::OkStatus();
    }
    // Local CSR of the induced subgraph, without zero-weight arcs.
    const int32_t n = static_cast<int32_t>(verts.size());
    for (int32_t i = 0; i < n; ++i) local_[verts[i]] = i;
    std::vector<idx_t> xadj(n + 1, 0), adjncy;
    std::vector<double> raw;
    for (int32_t i = 0; i < n; ++i) {
      auto nbrs = graph_.neighbors(verts[i]);
      auto wgts = graph_.weights(verts[i]);
      for (size_t e = 0; e < nbrs.size(); ++e) {
        const int32_t j = local_[nbrs[e]];
        if (j < 0 || wgts[e] <= 0) continue;
        adjncy.push_back(j);
        raw.push_back(wgts[e]);
      }
      xadj[i + 1] = static_cast<idx_t>(adjncy.size());
    }
    std::vector<int32_t> adjwgt32 = ScaleToMetisWeights(raw);
    std::vector<idx_t> adjwgt(adjwgt32.begin(), adjwgt32.end());
    std::vector<double> vw(n, 1.0);
    if (mode_ == Mode::kPartition) {
      for (int32_t i = 0; i < n; ++i) vw[i] = graph_.vertex_weight(verts[i]);
    }
    std::vector<idx_t> part(n, 0);
    if (!adjncy.empty()) {
      idx_t nvtxs = n, ncon = 1, nparts = k, objval = 0;
      std::vector<real_t> tpwgts(k);
      double total = 0.0;
      for (int32_t p = 0; p < k; ++p) {
        total += mode_ == Mode::kPartition ? t.weight[p]
                                           : static_cast<double>(t.size[p]);
      }
      for (int32_t p = 0; p < k; ++p) {
        const double x = mode_ == Mode::kPartition
                             ? t.weight[p]
                             : static_cast<double>(t.size[p]);
        tpwgts[p] = static_cast<real_t>(x / total);
      }
      // METIS wants the targets to sum to 1 within its tolerance; fold float
      // rounding into the largest part.
      real_t sum = 0;
      for (real_t x : tpwgts) sum += x;
      *std::max_element(tpwgts.begin(), tpwgts.end()) += 1.0f - sum;
      real_t ubvec =
          static_cast<real_t>(mode_ == Mode::kPartition ? t.ub : 1.001);
      std::vector<idx_t> vwgt;
      if (mode_ == Mode::kPartition && graph_.has_vertex_weights())
        vwgt = ScaleVertexWeights(vw);
      idx_t opts[METIS_NOPTIONS];
      METIS_SetDefaultOptions(opts);
      opts[METIS_OPTION_SEED] = static_cast<idx_t>(
          (options_.seed * 1000003ull + static_cast<uint64_t>(node)) %
          2147483647ull);
      opts[METIS_OPTION_NUMBERING] = 0;
      // More attempts where cuts cost most: the root's cut dominates J, and
      // its graph is only one of the ~n / leaves-per-level subproblems (8
      // attempts; one-to-one above kManyRootCuts processes 4: measured on the
      // bench, 4 instead of 8 costs 0.5% of J in the geometric mean and
      // halves the time; on the n-to-1 meshes it cost 0.6%). Very large
      // subgraphs, and every split of a very large graph, get one attempt and
      // one method (k-way above 8 parts) so the million-process case stays
      // within its time budget.
      const bool huge = n > kHugeSubgraph || graph_.num_vertices() > kHugeGraph;
      // One-to-one below the root: one attempt (measured: same J on the bench
      // families, up to 1.4x faster); n-to-1 keeps two.
      const bool partition = mode_ == Mode::kPartition;
      const idx_t base = partition ? 2 : 1;
      const idx_t tries =
          huge ? 1 : std::max<idx_t>(1, options_.metis_effort) * base;
      const idx_t root_tries =
          partition || graph_.num_vertices() <= kManyRootCuts
              ? 8 / base * tries
              : 4 / base * tries;
      opts[METIS_OPTION_NCUTS] =
          node == tree_.root() && !huge ? root_tries : tries;
      // Recursive bisection (method 0) and direct k-way (method 1). One-to-one
      // runs recursive bisection only: k-way's J was within 1% of it on the
      // bench at twice the time. n-to-1 and metis_effort >= 2 (strong) run both
      // and keep the smaller cut after repair (ties: recursive).
      double best_cut = -1.0;
      std::vector<idx_t> trial(n, 0);
      const bool both = partition || options_.metis_effort >= 2;
      const int first = huge && k > 8 ? 1 : 0;
      const int last = huge ? (k <= 8 ? 1 : 2) : (both ? 2 : 1);
      for (int method = first; method < last; ++method) {
        idx_t nparts_copy = nparts;
        real_t ub = ubvec;
        const int rc = method == 0
                           ? METIS_PartGraphRecursive(
                                 &nvtxs, &ncon, xadj.data(), adjncy.data(),
                                 vwgt.empty() ? nullptr : vwgt.data(), nullptr,
                                 adjwgt.data(), &nparts_copy, tpwgts.data(),
                                 &ub, opts, &objval, trial.data())
                           : METIS_PartGraphKway(
                                 &nvtxs, &ncon, xadj.data(), adjncy.data(),
                                 vwgt.empty() ? nullptr : vwgt.data(), nullptr,
                                 adjwgt.data(), &nparts_copy, tpwgts.data(),
                                 &ub, opts, &objval, trial.data());
        if (rc != METIS_OK) {
          for (VertexId v : verts) local_[v] = -1;
          return absl::InternalError(absl::StrCat(
              "multisection: METIS failed with code ", rc, " splitting ", n,
              " vertices into ", k, " parts at tree node ", node));
        }
        for (idx_t& p : trial) p = std::clamp<idx_t>(p, 0, k - 1);
        Repair(xadj, adjncy, raw, vw, t, &trial);
        double cut = 0.0;
        for (int32_t i = 0; i < n; ++i) {
          for (idx_t e = xadj[i]; e < xadj[i + 1]; ++e) {
            if (trial[i] != trial[adjncy[e]]) cut += raw[e];
          }
        }
        if (best_cut < 0 || cut < best_cut) {
          best_cut = cut;
          part = trial;
        }
      }
    } else {
      // No communication inside: any split is as good; fill parts in order.
      int32_t p = 0;
      double load = 0.0;
      for (int32_t i = 0; i < n; ++i) {
        while (p + 1 < k && (mode_ == Mode::kOneToOne
                                 ? load >= static_cast<double>(t.size[p])
                                 : load + vw[i] > t.weight[p] + 1e-9)) {
          ++p;
          load = 0.0;
        }
        part[i] = p;
        load += mode_ == Mode::kOneToOne ? 1.0 : vw[i];
      }
    }
    Repair(xadj, adjncy, raw, vw, t, &part);
    std::vector<int32_t> sigma(k);
    std::iota(sigma.begin(), sigma.end(), 0);
    if (tree_.has_pair_costs(node))
      AssignParts(node, xadj, adjncy, raw, part, t, &sigma);
    for (int32_t i = 0; i < n; ++i) {
      (*parts)[sigma[part[i]]].push_back(verts[i]);
      local_[verts[i]] = -1;
    }
    return absl::OkStatus();
  }

  // Moves vertices out of parts above their size (one-to-one) or bound (n-to-1)
  // into parts with room, always taking the move that loses the least cut
  // weight first.
  void Repair(const std::vector<idx_t>& xadj, const std::vector<idx_t>& adjncy,
              const std::vector<double>& w, const std::vector<double>& vw,
              const Targets& t, std::vector<idx_t>* part) const {
    const int32_t n = static_cast<int32_t>(vw.size());
    const int32_t k = static_cast<int32_t>(t.kid.size());
    const bool exact = mode_ == Mode::kOneToOne;
    std::vector<double> load(k, 0.0), cap(k);
    for (int32_t i = 0; i < n; ++i) load[(*part)[i]] += exact ? 1.0 : vw[i];
    for (int32_t p = 0; p < k; ++p)
      cap[p] = exact ? static_cast<double>(t.size[p]) : t.bound[p];
    auto over = [&](int32_t p) { return load[p] > cap[p] + 1e-9; };
    auto fits = [&](int32_t p, double x) {
      return load[p] + x <= cap[p] + 1e-9;
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
        const double x = exact ? 1.0 : vw[i];
        for (idx_t e = xadj[i]; e < xadj[i + 1]; ++e) {
          const int32_t q = (*part)[adjncy[e]];
          if (conn[q] == 0.0) touched.push_back(q);
          conn[q] += w[e];
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
        const double x = exact ? 1.0 : vw[m.v];
        if (!over(from) || !fits(m.to, x)) continue;
        load[from] -= x;
        load[m.to] += x;
        (*part)[m.v] = m.to;
      }
    }
  }

  // Permutes parts over children of equal capacity to lower sum cut(i, j) *
  // pair_cost.
  void AssignParts(NodeId node, const std::vector<idx_t>& xadj,
                   const std::vector<idx_t>& adjncy,
                   const std::vector<double>& w, const std::vector<idx_t>& part,
                   const Targets& t, std::vector<int32_t>* sigma) const {
    const int32_t k = static_cast<int32_t>(t.kid.size());
    std::vector<double> cut(static_cast<size_t>(k) * k, 0.0);
    for (size_t i = 0; i + 1 < xadj.size(); ++i) {
      for (idx_t e = xadj[i]; e < xadj[i + 1]; ++e) {
        if (part[i] != part[adjncy[e]])
          cut[part[i] * k + part[adjncy[e]]] += w[e];
      }
    }
    // kid of part p is t.kid[(*sigma)[p]]; only parts whose children have equal
    // capacity swap.
    auto pair = [&](int32_t a, int32_t b) {
      return tree_.pair_cost(node, tree_.child_rank(t.kid[a]),
                             tree_.child_rank(t.kid[b]));
    };
    auto part_cost = [&](int32_t p) {
      double c = 0.0;
      for (int32_t q = 0; q < k; ++q) {
        if (q != p) c += cut[p * k + q] * pair((*sigma)[p], (*sigma)[q]);
      }
      return c;
    };
    for (int round = 0; round < 16; ++round) {
      bool improved = false;
      for (int32_t a = 0; a < k; ++a) {
        for (int32_t b = a + 1; b < k; ++b) {
          if (tree_.Capacity(t.kid[(*sigma)[a]]) !=
              tree_.Capacity(t.kid[(*sigma)[b]]))
            continue;
          if (mode_ == Mode::kOneToOne &&
              t.size[(*sigma)[a]] != t.size[(*sigma)[b]])
            continue;
          const double before = part_cost(a) + part_cost(b);
          std::swap((*sigma)[a], (*sigma)[b]);
          const double after = part_cost(a) + part_cost(b);
          if (after < before - 1e-9 * (1.0 + before)) {
            improved = true;
          } else {
            std::swap((*sigma)[a], (*sigma)[b]);
          }
        }
      }
      if (!improved) break;
    }
  }

  const Tree& tree_;
  const CommGraph& graph_;
  const MappingOptions& options_;
  const Mode mode_;
  std::vector<double> bound_prefix_;  // n-to-1: prefix sums of leaf bounds
  double level_ub_ = 2.0;             // n-to-1: per-level cap (spread mode)
  std::vector<int32_t> local_;
};

// Moves vertices off leaves above their bound, each time the vertex whose move
// to a leaf with room loses least (neighbours' leaves first, else the nearest
// leaf with room in the tree).
void RepairLeafLoads(const Tree& tree, const CommGraph& graph,
                     const std::vector<double>& bound, Mapping* mapping) {
  const int32_t n = graph.num_vertices();
  std::vector<double> load(tree.num_leaves(), 0.0);
  std::vector<std::vector<VertexId>> on(tree.num_leaves());
  for (VertexId v = 0; v < n; ++v) {
    load[(*mapping)[v]] += graph.vertex_weight(v);
    on[(*mapping)[v]].push_back(v);
  }
  auto cost_at = [&](VertexId v, LeafId l) {
    double c = 0.0;
    auto nbrs = graph.neighbors(v);
    auto wgts = graph.weights(v);
    for (size_t e = 0; e < nbrs.size(); ++e)
      c += wgts[e] * tree.Distance(l, (*mapping)[nbrs[e]]);
    return c;
  };
  for (LeafId a = 0; a < tree.num_leaves(); ++a) {
    while (load[a] > bound[a] + 1e-9 * (1.0 + bound[a]) && !on[a].empty()) {
      double best_delta = 0.0;
      VertexId best_v = -1;
      LeafId best_l = -1;
      for (VertexId v : on[a]) {
        const double x = graph.vertex_weight(v);
        const double here = cost_at(v, a);
        for (VertexId u : graph.neighbors(v)) {
          const LeafId b = (*mapping)[u];
          if (b == a || load[b] + x > bound[b] + 1e-9 * (1.0 + bound[b]))
            continue;
          const double delta = cost_at(v, b) - here;
          if (best_v < 0 || delta < best_delta) {
            best_delta = delta;
            best_v = v;
            best_l = b;
          }
        }
      }
      if (best_v < 0) {
        // Nearest leaf with room: widen the subtree around a until one appears.
        const VertexId v = on[a].front();
        const double x = graph.vertex_weight(v);
        for (NodeId up = tree.parent(a); up >= 0 && best_l < 0;
             up = tree.parent(up)) {
          for (LeafId b = tree.leaf_begin(up); b < tree.leaf_end(up); ++b) {
            if (b != a && tree.capacity(b) > 0 &&
                load[b] + x <= bound[b] + 1e-9 * (1.0 + bound[b])) {
              best_l = b;
              break;
            }
          }
        }
        if (best_l < 0)
          return;  // infeasible: reported by ValidatePartitionMapping
        best_v = v;
      }
      const double x = graph.vertex_weight(best_v);
      load[a] -= x;
      load[best_l] += x;
      (*mapping)[best_v] = best_l;
      on[a].erase(std::find(on[a].begin(), on[a].end(), best_v));
      on[best_l].push_back(best_v);
    }
  }
}

}  // namespace

std::vector<int32_t> ScaleToMetisWeights(const std::vector<double>& weights) {
  constexpr double kMaxWeight = 1 << 20;
  constexpr double kMaxSum = 1 << 30;
  double max_w = 0.0, sum = 0.0;
  for (double x : weights) {
    max_w = std::max(max_w, x);
    sum += x;
  }
  std::vector<int32_t> out(weights.size(), 0);
  if (max_w <= 0) return out;
  // Rounding up to 1 adds at most one unit per arc; reserve room for that in
  // the sum bound.
  const double room =
      std::max(1.0, kMaxSum - static_cast<double>(weights.size()));
  const double scale = std::min(kMaxWeight / max_w, room / sum);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] > 0) {
      out[i] = std::max<int32_t>(
          1, static_cast<int32_t>(std::llround(weights[i] * scale)));
    }
  }
  return out;
}

namespace {

// Sizes and leaf ids the n-to-1 refinements can index without checks.
bool PartitionInputsFit(const topology::Tree& tree,
                        const graphs::CommGraph& graph,
                        const std::vector<double>& max_load,
                        const Mapping& mapping) {
  if (mapping.size() != static_cast<size_t>(graph.num_vertices()) ||
      max_load.size() != static_cast<size_t>(tree.num_leaves())) {
    return false;
  }
  for (LeafId l : mapping) {
    if (l < 0 || l >= tree.num_leaves()) return false;
  }
  return true;
}

}  // namespace

double RefinePartition(const topology::Tree& tree,
                       const graphs::CommGraph& graph,
                       const std::vector<double>& max_load, int32_t rounds,
                       Mapping* mapping) {
  if (!PartitionInputsFit(tree, graph, max_load, *mapping)) return 0.0;
  const int32_t n = graph.num_vertices();
  std::vector<double> load(tree.num_leaves(), 0.0);
  for (VertexId v = 0; v < n; ++v)
    load[(*mapping)[v]] += graph.vertex_weight(v);
  std::vector<int32_t> stamp(tree.num_leaves(), -1);
  std::vector<LeafId> cand;
  double total_gain = 0.0;
  for (int32_t round = 0; round < rounds; ++round) {
    double round_gain = 0.0;
    for (VertexId v = 0; v < n; ++v) {
      const LeafId a = (*mapping)[v];
      auto nbrs = graph.neighbors(v);
      auto wgts = graph.weights(v);
      cand.clear();
      for (VertexId u : nbrs) {
        const LeafId b = (*mapping)[u];
        if (b != a && stamp[b] != v) {
          stamp[b] = v;
          cand.push_back(b);
        }
      }
      if (cand.empty()) continue;
      const double x = graph.vertex_weight(v);
      double here = 0.0;
      for (size_t e = 0; e < nbrs.size(); ++e)
        here += wgts[e] * tree.Distance(a, (*mapping)[nbrs[e]]);
      double best_gain = 1e-12 * (1.0 + here);
      LeafId best = -1;
      for (LeafId b : cand) {
        if (load[b] + x > max_load[b] + 1e-9 * (1.0 + max_load[b])) continue;
        double there = 0.0;
        for (size_t e = 0; e < nbrs.size(); ++e) {
          there += wgts[e] * tree.Distance(b, (*mapping)[nbrs[e]]);
        }
        if (here - there > best_gain) {
          best_gain = here - there;
          best = b;
        }
      }
      if (best < 0) continue;
      load[a] -= x;
      load[best] += x;
      (*mapping)[v] = best;
      round_gain += best_gain;
    }
    total_gain += round_gain;
    if (round_gain <= 0) break;
  }
  return total_gain;
}

namespace {

// FM passes on one level (see FmRefinePartition).
double FmPasses(const topology::Tree& tree, const graphs::CommGraph& graph,
                const std::vector<double>& max_load, int32_t passes,
                Mapping* mapping) {
  const int32_t n = graph.num_vertices();
  if (n < 2 || passes <= 0) return 0.0;
  std::vector<double> load(tree.num_leaves(), 0.0);
  for (VertexId v = 0; v < n; ++v)
    load[(*mapping)[v]] += graph.vertex_weight(v);
  auto fits = [&](LeafId b, double x) {
    return load[b] + x <= max_load[b] + 1e-9 * (1.0 + max_load[b]);
  };
  std::vector<int32_t> stamp(tree.num_leaves(), -1);
  int32_t stamp_id = 0;
  // Best move of v to a leaf holding one of its neighbours (with room when
  // `room`): (gain, leaf), leaf -1 when there is none. O(deg * candidates *
  // height).
  auto best_move = [&](VertexId v, bool room) -> std::pair<double, LeafId> {
    const LeafId a = (*mapping)[v];
    auto nbrs = graph.neighbors(v);
    auto wgts = graph.weights(v);
    const double x = graph.vertex_weight(v);
    ++stamp_id;
    double here = -1.0;
    std::pair<double, LeafId> best = {0.0, -1};
    for (VertexId u : nbrs) {
      const LeafId b = (*mapping)[u];
      if (b == a || stamp[b] == stamp_id) continue;
      stamp[b] = stamp_id;
      if (room && !fits(b, x)) continue;
      if (here < 0) {
        here = 0.0;
        for (size_t e = 0; e < nbrs.size(); ++e)
          here += wgts[e] * tree.Distance(a, (*mapping)[nbrs[e]]);
      }
      double there = 0.0;
      for (size_t e = 0; e < nbrs.size(); ++e)
        there += wgts[e] * tree.Distance(b, (*mapping)[nbrs[e]]);
      if (best.second < 0 || here - there > best.first ||
          (here - there == best.first && b < best.second)) {
        best = {here - there, b};
      }
    }
    return best;
  };
  // Max-heap on (gain, -vertex) of the best move ignoring room; stale entries
  // are skipped by version. A vertex whose moves are all blocked waits on the
  // leaf it wants until a vertex leaves that leaf.
  struct Entry {
    double gain;
    VertexId v;
    int32_t version;
    bool operator<(const Entry& o) const {
      return gain != o.gain ? gain < o.gain : v > o.v;
    }
  };
  std::vector<int32_t> version(n, 0);
  std::vector<char> locked(n, 0);
  std::vector<std::vector<VertexId>> waiting(tree.num_leaves());
  std::vector<VertexId> woken;
  double total_gain = 0.0;
  const int64_t stall_limit = std::max<int64_t>(64, n / 100);
  for (int32_t pass = 0; pass < passes; ++pass) {
    std::priority_queue<Entry> heap;
    auto push = [&](VertexId v) {
      ++version[v];
      auto [g, b] = best_move(v, /*room=*/false);
      if (b >= 0) heap.push({g, v, version[v]});
    };
    for (VertexId v = 0; v < n; ++v) push(v);
    std::fill(locked.begin(), locked.end(), 0);
    for (auto& w : waiting) w.clear();
    std::vector<std::pair<VertexId, LeafId>> log;  // (vertex, leaf it left)
    double gain = 0.0, best_gain = 0.0;
    size_t best_len = 0;
    while (!heap.empty() &&
           static_cast<int64_t>(log.size() - best_len) < stall_limit) {
      const Entry top = heap.top();
      heap.pop();
      const VertexId v = top.v;
      if (locked[v] || top.version != version[v]) continue;
      auto [g, b] = best_move(v, /*room=*/true);
      if (b < 0) {
        const LeafId want = best_move(v, /*room=*/false).second;
        if (want >= 0) waiting[want].push_back(v);
        ++version[v];
        continue;
      }
      if (g != top.gain) {  // blocked from its best leaf, or stale: requeue
        heap.push({g, v, ++version[v]});
        continue;
      }
      const LeafId a = (*mapping)[v];
      const double x = graph.vertex_weight(v);
      load[a] -= x;
      load[b] += x;
      (*mapping)[v] = b;
      locked[v] = 1;
      log.push_back({v, a});
      gain += g;
      if (gain > best_gain + 1e-12 * (1.0 + std::abs(best_gain))) {
        best_gain = gain;
        best_len = log.size();
      }
      woken.clear();
      woken.swap(waiting[a]);  // keeps both buffers: no allocation per move
      for (VertexId u : woken) {
        if (!locked[u]) push(u);
      }
      for (VertexId u : graph.neighbors(v)) {
        if (!locked[u]) push(u);
      }
    }
    // Roll back the moves after the best prefix.
    while (log.size() > best_len) {
      const auto [v, a] = log.back();
      log.pop_back();
      const double x = graph.vertex_weight(v);
      load[(*mapping)[v]] -= x;
      load[a] += x;
      (*mapping)[v] = a;
    }
    total_gain += best_gain;
    if (best_len == 0) break;
  }
  return total_gain;
}

}  // namespace

double FmRefinePartition(const topology::Tree& tree,
                         const graphs::CommGraph& graph,
                         const std::vector<double>& max_load, int32_t passes,
                         Mapping* mapping) {
  if (graph.num_vertices() < 2 || passes <= 0 ||
      !PartitionInputsFit(tree, graph, max_load, *mapping)) {
    return 0.0;
  }
  // Coarsen: pair each vertex with its heaviest unmatched neighbour on the
  // same leaf (so the mapping projects exactly), in vertex order, while the
  // graph shrinks by at least 10% and stays above 4 vertices per leaf. A pair
  // may weigh at most an eighth of the smallest positive leaf bound, so that
  // coarse moves still fit.
  double min_bound = 0.0;
  for (double b : max_load) {
    if (b > 0 && (min_bound == 0.0 || b < min_bound)) min_bound = b;
  }
  const double max_pair = min_bound / 8.0;
  struct Level {
    graphs::CommGraph graph;
    std::vector<VertexId> up;  // finer vertex -> vertex of this level
    Mapping mapping;
  };
  std::vector<Level> levels;
  levels.reserve(32);
  graphs::GraphContractor contractor;
  const graphs::CommGraph* cur = &graph;
  const Mapping* cur_map = mapping;
  const int64_t floor = 4 * static_cast<int64_t>(tree.num_leaves());
  while (cur->num_vertices() > floor && levels.size() < 32) {
    const VertexId n = cur->num_vertices();
    std::vector<VertexId> up(n, -1);
    VertexId groups = 0;
    for (VertexId u = 0; u < n; ++u) {
      if (up[u] >= 0) continue;
      up[u] = groups;
      auto nbrs = cur->neighbors(u);
      auto wgts = cur->weights(u);
      VertexId mate = -1;
      double best = 0.0;
      for (size_t e = 0; e < nbrs.size(); ++e) {
        const VertexId v = nbrs[e];
        if (up[v] >= 0 || (*cur_map)[v] != (*cur_map)[u] ||
            cur->vertex_weight(u) + cur->vertex_weight(v) > max_pair) {
          continue;
        }
        if (wgts[e] > best) {
          best = wgts[e];
          mate = v;
        }
      }
      if (mate >= 0) up[mate] = groups;
      ++groups;
    }
    if (groups > n - n / 10) break;
    absl::StatusOr<graphs::CommGraph> coarse =
        contractor.Contract(*cur, up, groups);
    if (!coarse.ok()) break;
    Mapping coarse_map(groups);
    for (VertexId u = 0; u < n; ++u) coarse_map[up[u]] = (*cur_map)[u];
    levels.push_back(
        {*std::move(coarse), std::move(up), std::move(coarse_map)});
    cur = &levels.back().graph;
    cur_map = &levels.back().mapping;
  }
  // Refine from the coarsest level down, projecting each result.
  double gain = 0.0;
  for (size_t i = levels.size(); i-- > 0;) {
    Level& l = levels[i];
    gain += FmPasses(tree, l.graph, max_load, passes, &l.mapping);
    Mapping& finer = i > 0 ? levels[i - 1].mapping : *mapping;
    for (size_t u = 0; u < l.up.size(); ++u) finer[u] = l.mapping[l.up[u]];
  }
  return gain + FmPasses(tree, graph, max_load, passes, mapping);
}

absl::StatusOr<Mapping> MultisectionMap(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MappingOptions& options) {
  if (graph.num_vertices() > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "multisection: ", graph.num_vertices(), " processes but only ",
        tree.Capacity(tree.root()), " slots (use PartitionMap for n-to-1)"));
  }
  Mapping mapping;
  Multisection ms(tree, graph, options, Mode::kOneToOne);
  if (absl::Status s = ms.Run(&mapping); !s.ok()) return s;
  if (options.refine) RefineMapping(tree, graph, options, &mapping);
  return mapping;
}

absl::StatusOr<Mapping> PartitionMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options) {
  if (!std::isfinite(options.imbalance) || options.imbalance < 0) {
    return absl::InvalidArgumentError(absl::StrCat("partition: imbalance ",
                                                   options.imbalance,
                                                   " must be finite and >= 0"));
  }
  if (tree.Capacity(tree.root()) <= 0) {
    return absl::InvalidArgumentError(
        "partition: the topology has no slot with capacity > 0");
  }
  // Two ways of spending the imbalance (all of it where needed, or a share per
  // level) win on different meshes; run both with two METIS seeds each, keep
  // the lower J (ties: first). Deterministic: the seeds derive from
  // options.seed. With threads >= 2 each attempt's refinement runs on a worker
  // while METIS splits the next one (METIS stays on one thread); the attempts
  // are independent, so the result does not depend on the thread count.
  const std::vector<double> bound =
      PartitionLoadBounds(tree, graph, options.imbalance);
  constexpr int kAttempts = 4;
  std::vector<Mapping> results(kAttempts);
  auto refine = [&](Mapping* m) {
    RepairLeafLoads(tree, graph, bound, m);
    if (options.refine) {
      RefinePartition(tree, graph, bound, options.refine_rounds, m);
      FmRefinePartition(tree, graph, bound, options.refine_rounds, m);
    }
  };
  std::thread worker;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const bool spread = attempt % 2 == 1;
    MappingOptions o = options;
    o.seed = options.seed + static_cast<uint64_t>(attempt / 2) * 7919;
    Multisection ms(tree, graph, o, Mode::kPartition, spread);
    absl::Status s = ms.Run(&results[attempt]);
    if (worker.joinable()) worker.join();
    if (!s.ok()) return s;
    if (options.threads >= 2) {
      worker = std::thread(refine, &results[attempt]);
    } else {
      refine(&results[attempt]);
    }
  }
  if (worker.joinable()) worker.join();
  Mapping mapping;
  double best_j = 0.0;
  for (Mapping& m : results) {
    const double j = ComputeJ(tree, graph, m);
    if (mapping.empty() || j < best_j) {
      best_j = j;
      mapping = std::move(m);
    }
  }
  if (absl::Status s =
          ValidatePartitionMapping(tree, graph, mapping, options.imbalance);
      !s.ok()) {
    return s;
  }
  return mapping;
}

}  // namespace rankmap::core
