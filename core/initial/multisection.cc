#include "core/initial/multisection.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "core/refine/kway_refine.h"
#include "core/split/metis_rand.h"
#include "core/split/metis_split.h"
#include "core/split/pair_split.h"
#include "core/split/part_split.h"
#include "core/split/tree_walk.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;
using topology::Tree;

enum class Mode { kOneToOne, kPartition };

// Sweeps of pairwise FM between children.
constexpr int32_t kKwayRounds = 4;
// Nodes with more equidistant children than this skip the FM sweeps.
constexpr int32_t kFmChildren = 8;

// The children that receive processes (part p goes to kid[p]) and what each
// receives.
struct Targets {
  std::vector<NodeId> kid;
  PartTargets parts;
};

// Splits the processes of one tree node over its children (see the header).
class Splitter {
 public:
  Splitter(const Tree& tree, const CommGraph& graph,
           const MultisectionOptions& options, uint64_t seed, Mode mode,
           double imbalance, bool spread, int32_t workers)
      : tree_(tree),
        graph_(graph),
        options_(options),
        seed_(seed),
        mode_(mode),
        extractors_(std::max(workers, 1)) {
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

  // Worker w (of WalkTopDown's threads) extracts subgraphs with its own
  // scratch space.
  absl::Status operator()(int32_t worker, NodeId node,
                          std::vector<VertexId> verts,
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
    // The root's processes are the whole graph, in order: no copy.
    const CommGraph* sub = &graph_;
    absl::StatusOr<CommGraph> extracted;
    if (!IsWholeGraph(verts)) {
      extracted = extractors_[worker].Extract(graph_, verts);
      if (!extracted.ok()) return extracted.status();
      sub = &*extracted;
    }
    std::vector<int32_t> part;
    if (absl::Status s = Split(node, *sub, t, &part); !s.ok()) {
      return absl::InternalError(
          absl::StrCat("multisection: ", s.message(), " at tree node ", node));
    }
    const size_t first = shares->size();
    for (int32_t p = 0; p < k; ++p) shares->push_back({t.kid[p], {}});
    for (size_t i = 0; i < verts.size(); ++i)
      (*shares)[first + part[i]].verts.push_back(verts[i]);
    return absl::OkStatus();
  }

 private:
  bool IsWholeGraph(const std::vector<VertexId>& verts) const {
    if (static_cast<int64_t>(verts.size()) != graph_.num_vertices())
      return false;
    for (size_t i = 0; i < verts.size(); ++i) {
      if (verts[i] != static_cast<VertexId>(i)) return false;
    }
    return true;
  }

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
      PartTargets& p = t.parts;
      for (NodeId c : kids) {
        t.kid.push_back(c);
        p.weight.push_back(w * tree_.Capacity(c) / cap);
        p.bound.push_back(std::min(bound_prefix_[tree_.leaf_end(c)] -
                                       bound_prefix_[tree_.leaf_begin(c)],
                                   p.weight.back() * level_ub_));
        // METIS takes one tolerance for all parts: the tightest room.
        if (p.weight.back() > 0) {
          p.ub = std::min(p.ub, p.bound.back() / p.weight.back());
        }
      }
      p.ub = std::clamp(p.ub, 1.001, 1.5);
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
      t.parts.size.push_back(size[i]);
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

  // The attempt policy for a piece of this node's processes. Children of a
  // pair-cost node (the clusters of a heterogeneous network) get the root's
  // attempts: their cut is the second most expensive one there.
  MetisAttempts Attempts(NodeId node, int32_t size, int32_t parts) const {
    const NodeId up = tree_.parent(node);
    const bool important =
        node == tree_.root() || (up >= 0 && tree_.has_pair_costs(up));
    return SplitAttempts(mode_ == Mode::kPartition, important, size,
                         graph_.num_vertices(), parts, options_.metis_effort);
  }

  uint64_t Seed(NodeId node) const {
    return (seed_ * 1000003ull + static_cast<uint64_t>(node)) % 2147483647ull;
  }

  // part[i]: the part of t (the child t.kid[part[i]]) local vertex i goes to.
  absl::Status Split(NodeId node, const CommGraph& sub, const Targets& t,
                     std::vector<int32_t>* part) const {
    const int32_t k = static_cast<int32_t>(t.kid.size());
    const MetisGraph g = ToMetisGraph(sub, mode_ == Mode::kPartition);
    RETURN_IF_ERROR(SplitParts(g, t.parts, Attempts(node, g.num_vertices(), k),
                               Seed(node), part));
    if (!tree_.has_pair_costs(node)) {
      // Equidistant children: pairwise FM on the cut (METIS's own refinement
      // works before the repair to exact sizes; this one after it). Nodes of
      // more than kFmChildren children skip it: k^2 pairs.
      // (n-to-1 at the least METIS effort skips it: the fast setting.)
      if (k <= kFmChildren &&
          (mode_ == Mode::kOneToOne || options_.metis_effort > 0)) {
        std::vector<double> cost(static_cast<size_t>(k) * k, 1.0), cap(k);
        for (int32_t a = 0; a < k; ++a) {
          cost[a * k + a] = 0.0;
          cap[a] = t.parts.Capacity(a);
        }
        KwayRefine(g, cost, cap, mode_ == Mode::kOneToOne, kKwayRounds, part);
      }
      return absl::OkStatus();
    }
    std::vector<double> cost(static_cast<size_t>(k) * k, 0.0);
    std::vector<int64_t> capacity(k);
    for (int32_t a = 0; a < k; ++a) {
      capacity[a] = tree_.Capacity(t.kid[a]);
      for (int32_t b = 0; b < k; ++b) {
        if (a != b) {
          cost[a * k + b] = tree_.pair_cost(node, tree_.child_rank(t.kid[a]),
                                            tree_.child_rank(t.kid[b]));
        }
      }
    }
    std::vector<int32_t> sigma(k);
    std::iota(sigma.begin(), sigma.end(), 0);
    AssignEqualParts(g, *part, t.parts, capacity, cost, &sigma);
    for (int32_t& p : *part) p = sigma[p];
    // With three children or more, the split along the pair costs competes;
    // the lower cross-child cost wins.
    if (k >= 3) {
      std::vector<int32_t> by_costs;
      RETURN_IF_ERROR(PairCostSplit(
          sub, t.parts, cost,
          [&](int32_t size, int32_t parts) {
            return Attempts(node, size, parts);
          },
          Seed(node), &by_costs));
      if (CrossCost(g, by_costs, cost) < CrossCost(g, *part, cost))
        *part = std::move(by_costs);
    }
    std::vector<double> cap(k);
    for (int32_t a = 0; a < k; ++a) cap[a] = t.parts.Capacity(a);
    KwayRefine(g, cost, cap, mode_ == Mode::kOneToOne, kKwayRounds, part);
    return absl::OkStatus();
  }

  const Tree& tree_;
  const CommGraph& graph_;
  const MultisectionOptions& options_;
  const uint64_t seed_;
  const Mode mode_;
  std::vector<double> bound_prefix_;  // n-to-1: prefix sums of leaf bounds
  double level_ub_ = 2.0;             // n-to-1: per-level cap (spread mode)
  std::vector<graphs::SubgraphExtractor> extractors_;  // one per worker
};

// Workers for the walk: METIS may run on several threads only when its rand()
// keeps one state per thread (core/split/metis_rand.h).
int32_t Workers(int32_t threads) {
  return threads >= 2 && MetisRunsInParallel() ? threads : 1;
}

// All of graph's processes from the root down, split by `split`.
absl::StatusOr<Mapping> Walk(const Tree& tree, const CommGraph& graph,
                             int32_t workers, Splitter& split,
                             const ProgressPhase& progress) {
  return WalkTopDown(
      tree, graph.num_vertices(), workers,
      [&](int32_t worker, NodeId node, std::vector<VertexId> verts,
          std::vector<ChildShare>* shares) {
        return split(worker, node, std::move(verts), shares);
      },
      progress);
}

// The child of `node` on the path to its descendant `below`.
NodeId ChildToward(const Tree& tree, NodeId node, NodeId below) {
  while (tree.parent(below) != node) below = tree.parent(below);
  return below;
}

// OK when every start is in range, none lies below another, and (exact mode)
// none receives more vertices than its capacity.
absl::Status CheckStarts(const Tree& tree, std::span<const NodeId> start,
                         bool exact) {
  std::vector<int64_t> count(tree.num_nodes(), 0);
  for (NodeId s : start) {
    if (s < 0 || s >= tree.num_nodes()) {
      return absl::InvalidArgumentError(
          absl::StrCat("multisection: start node ", s, " out of range"));
    }
    ++count[s];
  }
  for (NodeId x = 0; x < tree.num_nodes(); ++x) {
    if (count[x] == 0) continue;
    if (exact && count[x] > tree.Capacity(x)) {
      return absl::InvalidArgumentError(
          absl::StrCat("multisection: ", count[x], " processes start at node ",
                       x, " of capacity ", tree.Capacity(x)));
    }
    for (NodeId up = tree.parent(x); up >= 0; up = tree.parent(up)) {
      if (count[up] > 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "multisection: start node ", x, " lies below start node ", up));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Mapping> MultisectionFrom(const topology::Tree& tree,
                                         const graphs::CommGraph& graph,
                                         const MultisectionOptions& options,
                                         uint64_t seed, double imbalance,
                                         std::span<const NodeId> start,
                                         int32_t threads,
                                         const ProgressPhase& progress) {
  const bool exact = imbalance < 0;
  if (static_cast<int64_t>(start.size()) != graph.num_vertices()) {
    return absl::InvalidArgumentError(
        absl::StrCat("multisection: ", start.size(), " start nodes for ",
                     graph.num_vertices(), " vertices"));
  }
  RETURN_IF_ERROR(CheckStarts(tree, start, exact));
  const int32_t workers = Workers(threads);
  Splitter split(tree, graph, options, seed,
                 exact ? Mode::kOneToOne : Mode::kPartition,
                 exact ? 0.0 : imbalance, false, workers);
  return WalkTopDown(
      tree, graph.num_vertices(), workers,
      [&](int32_t worker, NodeId node, std::vector<VertexId> verts,
          std::vector<ChildShare>* shares) -> absl::Status {
        // At or below the starts: split.
        if (tree.depth(start[verts[0]]) <= tree.depth(node))
          return split(worker, node, std::move(verts), shares);
        // Above the starts: towards them.
        std::vector<int32_t> slot(tree.num_children(node), -1);
        for (VertexId v : verts) {
          const NodeId c = ChildToward(tree, node, start[v]);
          int32_t& i = slot[tree.child_rank(c)];
          if (i < 0) {
            i = static_cast<int32_t>(shares->size());
            shares->push_back({c, {}});
          }
          (*shares)[i].verts.push_back(v);
        }
        return absl::OkStatus();
      },
      progress);
}

absl::StatusOr<Mapping> MultisectionMap(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MultisectionOptions& options,
                                        uint64_t seed, int32_t threads,
                                        const ProgressPhase& progress) {
  assert(graph.num_vertices() <= tree.Capacity(tree.root()));
  const int32_t workers = Workers(threads);
  Splitter split(tree, graph, options, seed, Mode::kOneToOne, 0.0, false,
                 workers);
  return Walk(tree, graph, workers, split, progress);
}

absl::StatusOr<Mapping> MultisectionPartition(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const MultisectionOptions& options, uint64_t seed, double imbalance,
    bool spread, int32_t threads, const ProgressPhase& progress) {
  assert(tree.Capacity(tree.root()) > 0);
  const int32_t workers = Workers(threads);
  Splitter split(tree, graph, options, seed, Mode::kPartition, imbalance,
                 spread, workers);
  return Walk(tree, graph, workers, split, progress);
}

}  // namespace rankmap::core
