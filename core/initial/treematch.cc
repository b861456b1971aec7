#include "core/initial/treematch.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/initial/greedy_split.h"
#include "core/initial/grouping.h"

namespace rankmap::core {
namespace {

using graphs::VertexId;
using internal::Contract;
using internal::Csr;
using internal::FromGraph;
using internal::GroupDirect;
using internal::Pad;

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
std::vector<Step> GroupLevel(const Csr& c, int32_t k, const TreeMatchOptions& o,
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
                 int32_t cap, const TreeMatchOptions& o,
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
    if (cur.n <= k) {
      // Every unit fits under one node of this level, whose children are
      // equidistant: one group in any order, without padding a wide node (or a
      // large capacity) to its arity with units of nothing.
      Step all{k, std::vector<int32_t>(cur.n)};
      std::iota(all.members.begin(), all.members.end(), 0);
      scratch.assign(1, -1);
      Csr next = Contract(cur, all.members, cur.n, &scratch);
      if (trace != nullptr) {
        trace->push_back({k, cur.n, all.members, ToCommGraph(next)});
      }
      steps.push_back(std::move(all));
      cur = std::move(next);
      continue;
    }
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

}  // namespace

absl::StatusOr<std::vector<int32_t>> GroupUnits(
    const graphs::CommGraph& g, int32_t arity,
    const TreeMatchOptions& options) {
  if (arity < 1 || g.num_vertices() % arity != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "treematch: cannot group ", g.num_vertices(), " units by ", arity));
  }
  return GroupDirect(FromGraph(g), arity, options);
}

Mapping TreeMatchMap(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const TreeMatchOptions& options,
                     std::vector<GroupingStep>* trace) {
  const VertexId n = graph.num_vertices();
  assert(n <= tree.Capacity(tree.root()));
  if (n == 0) return Mapping();
  bool uniform = tree.Balanced();
  const int32_t cap = tree.capacity(0);
  for (LeafId l = 0; l < tree.num_leaves() && uniform; ++l)
    uniform = tree.capacity(l) == cap;
  return uniform && cap >= 1 ? BottomUp(tree, graph, cap, options, trace)
                             : GreedySplitMap(tree, graph);
}

}  // namespace rankmap::core
