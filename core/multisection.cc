#include "core/multisection.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/metis_split.h"
#include "core/tree_walk.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;
using topology::Tree;

enum class Mode { kOneToOne, kPartition };

// Parts are numbered in the order of the children that receive something.
struct Targets {
  std::vector<NodeId> kid;     // child node of each part
  std::vector<int64_t> size;   // one-to-one: exact number of processes per part
  std::vector<double> weight;  // n-to-1: target vertex weight per part
  std::vector<double> bound;   // n-to-1: largest vertex weight a part may carry
  double ub = 1.5;  // n-to-1: METIS tolerance (max bound / weight ratio)

  // What each part may carry: its size (one-to-one) or its bound (n-to-1).
  double Capacity(int32_t p) const {
    return size.empty() ? bound[p] : static_cast<double>(size[p]);
  }
  // What METIS aims at for each part.
  std::vector<double> Aims() const {
    if (size.empty()) return weight;
    return std::vector<double>(size.begin(), size.end());
  }
};

// Splits the processes of one tree node over its children (see the header).
class Splitter {
 public:
  Splitter(const Tree& tree, const CommGraph& graph,
           const MultisectionOptions& options, uint64_t seed, Mode mode,
           double imbalance, bool spread)
      : tree_(tree),
        graph_(graph),
        options_(options),
        seed_(seed),
        mode_(mode) {
    level_ub_ = spread ? std::pow(1.0 + imbalance,
                                  1.0 / std::max<int32_t>(1, tree.height()))
                       : 2.0;
    // n-to-1: only leaf loads are bounded, so a subtree may carry up to the sum
    // of its leaves' bounds (leaves of a subtree are contiguous: prefix sums).
    if (mode == Mode::kPartition) {
      const std::vector<double> b = PartitionLoadBounds(tree, graph, imbalance);
      bound_prefix_.assign(b.size() + 1, 0.0);
      for (size_t l = 0; l < b.size(); ++l) {
        bound_prefix_[l + 1] = bound_prefix_[l] + b[l];
      }
    }
  }

  absl::Status operator()(NodeId node, std::vector<VertexId> verts,
                          std::vector<ChildShare>* shares) {
    const Targets t = MakeTargets(node, verts);
    const int32_t k = static_cast<int32_t>(t.kid.size());
    if (k == 1) {
      shares->push_back({t.kid[0], std::move(verts)});
      return absl::OkStatus();
    }
    if (AllUnitLeaves(node, t)) {
      for (size_t i = 0; i < verts.size(); ++i)
        shares->push_back({t.kid[i], {verts[i]}});
      return absl::OkStatus();
    }
    absl::StatusOr<CommGraph> sub = extractor_.Extract(graph_, verts);
    if (!sub.ok()) return sub.status();
    const MetisGraph g = ToMetisGraph(*sub, mode_ == Mode::kPartition);
    std::vector<int32_t> part;
    if (absl::Status s = Partition(node, g, t, &part); !s.ok()) {
      return absl::InternalError(absl::StrCat("multisection: ", s.message(),
                                              " at tree node ", node));
    }
    std::vector<int32_t> sigma(k);
    std::iota(sigma.begin(), sigma.end(), 0);
    if (tree_.has_pair_costs(node)) AssignParts(node, g, part, t, &sigma);
    const size_t first = shares->size();
    for (int32_t p = 0; p < k; ++p) shares->push_back({t.kid[p], {}});
    for (size_t i = 0; i < verts.size(); ++i)
      (*shares)[first + sigma[part[i]]].verts.push_back(verts[i]);
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

  // METIS's split of g by the targets, repaired to the sizes or bounds; the
  // smaller cut of the methods the attempt policy runs (ties: recursive
  // bisection). Without arcs any split is as good: parts are filled in order.
  absl::Status Partition(NodeId node, const MetisGraph& g, const Targets& t,
                         std::vector<int32_t>* part) const {
    const int32_t n = g.num_vertices();
    const int32_t k = static_cast<int32_t>(t.kid.size());
    const bool n_to_1 = mode_ == Mode::kPartition;
    part->assign(n, 0);
    if (g.adjncy.empty()) {
      int32_t p = 0;
      double load = 0.0;
      for (int32_t i = 0; i < n; ++i) {
        while (p + 1 < k &&
               (!n_to_1 ? load >= static_cast<double>(t.size[p])
                        : load + g.vertex_weight[i] > t.weight[p] + 1e-9)) {
          ++p;
          load = 0.0;
        }
        (*part)[i] = p;
        load += n_to_1 ? g.vertex_weight[i] : 1.0;
      }
      Repair(g, t, part);
      return absl::OkStatus();
    }
    const MetisAttempts a =
        SplitAttempts(n_to_1, node == tree_.root(), n, graph_.num_vertices(),
                      k, options_.metis_effort);
    const uint64_t seed =
        (seed_ * 1000003ull + static_cast<uint64_t>(node)) % 2147483647ull;
    const double ub = n_to_1 ? t.ub : 1.001;
    const std::vector<double> aims = t.Aims();
    double best_cut = -1.0;
    std::vector<int32_t> trial;
    for (int32_t method = a.first_method; method < a.last_method; ++method) {
      if (absl::Status s = MetisPartition(
              g, aims, ub,
              method == 0 ? MetisMethod::kRecursive : MetisMethod::kKway,
              a.ncuts, seed, &trial);
          !s.ok()) {
        return s;
      }
      Repair(g, t, &trial);
      const double cut = g.Cut(trial);
      if (best_cut < 0 || cut < best_cut) {
        best_cut = cut;
        *part = trial;
      }
    }
    Repair(g, t, part);
    return absl::OkStatus();
  }

  // Moves vertices out of parts above their size (one-to-one) or bound (n-to-1)
  // into parts with room, always taking the move that loses the least cut
  // weight first.
  void Repair(const MetisGraph& g, const Targets& t,
              std::vector<int32_t>* part) const {
    const int32_t n = g.num_vertices();
    const int32_t k = static_cast<int32_t>(t.kid.size());
    const bool exact = mode_ == Mode::kOneToOne;
    std::vector<double> load(k, 0.0), cap(k);
    for (int32_t i = 0; i < n; ++i)
      load[(*part)[i]] += exact ? 1.0 : g.vertex_weight[i];
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
        const double x = exact ? 1.0 : g.vertex_weight[i];
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
        const double x = exact ? 1.0 : g.vertex_weight[m.v];
        if (!over(from) || !fits(m.to, x)) continue;
        load[from] -= x;
        load[m.to] += x;
        (*part)[m.v] = m.to;
      }
    }
  }

  // Permutes parts over children of equal capacity to lower sum cut(i, j) *
  // pair_cost.
  void AssignParts(NodeId node, const MetisGraph& g,
                   const std::vector<int32_t>& part, const Targets& t,
                   std::vector<int32_t>* sigma) const {
    const int32_t k = static_cast<int32_t>(t.kid.size());
    std::vector<double> cut(static_cast<size_t>(k) * k, 0.0);
    for (int32_t i = 0; i < g.num_vertices(); ++i) {
      for (int32_t e = g.xadj[i]; e < g.xadj[i + 1]; ++e) {
        if (part[i] != part[g.adjncy[e]])
          cut[part[i] * k + part[g.adjncy[e]]] += g.arc_weight[e];
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
  const MultisectionOptions& options_;
  const uint64_t seed_;
  const Mode mode_;
  std::vector<double> bound_prefix_;  // n-to-1: prefix sums of leaf bounds
  double level_ub_ = 2.0;             // n-to-1: per-level cap (spread mode)
  graphs::SubgraphExtractor extractor_;
};

}  // namespace

absl::StatusOr<Mapping> MultisectionMap(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MultisectionOptions& options,
                                        uint64_t seed) {
  assert(graph.num_vertices() <= tree.Capacity(tree.root()));
  Splitter split(tree, graph, options, seed, Mode::kOneToOne, 0.0, false);
  return WalkTopDown(tree, graph.num_vertices(),
                     [&](NodeId node, std::vector<VertexId> verts,
                         std::vector<ChildShare>* shares) {
                       return split(node, std::move(verts), shares);
                     });
}

absl::StatusOr<Mapping> MultisectionPartition(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const MultisectionOptions& options, uint64_t seed, double imbalance,
    bool spread) {
  assert(tree.Capacity(tree.root()) > 0);
  Splitter split(tree, graph, options, seed, Mode::kPartition, imbalance,
                 spread);
  return WalkTopDown(tree, graph.num_vertices(),
                     [&](NodeId node, std::vector<VertexId> verts,
                         std::vector<ChildShare>* shares) {
                       return split(node, std::move(verts), shares);
                     });
}

}  // namespace rankmap::core
