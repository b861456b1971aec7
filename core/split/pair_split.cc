#include "core/split/pair_split.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <queue>
#include <utility>

#include "base/status_macros.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;

// The two-part targets of a bisection into the parts `left` and `right` of
// t: summed sizes (one-to-one) or summed weights and bounds (n-to-1).
PartTargets HalfTargets(const std::vector<int32_t>& left,
                        const std::vector<int32_t>& right,
                        const PartTargets& t) {
  PartTargets two;
  for (const std::vector<int32_t>* half : {&left, &right}) {
    if (t.exact()) {
      int64_t n = 0;
      for (int32_t p : *half) n += t.size[p];
      two.size.push_back(n);
    } else {
      double w = 0.0, b = 0.0;
      for (int32_t p : *half) {
        w += t.weight[p];
        b += t.bound[p];
      }
      two.weight.push_back(w);
      two.bound.push_back(b);
    }
  }
  two.ub = t.ub;
  return two;
}

PartTargets Reversed(PartTargets t) {
  std::reverse(t.size.begin(), t.size.end());
  std::reverse(t.weight.begin(), t.weight.end());
  std::reverse(t.bound.begin(), t.bound.end());
  return t;
}

// Greedy graph growing of one side of a bisection: starting from nothing,
// repeatedly take the vertex whose move into `side` gains most (outside edges
// priced by ext, edges across the cut by c_lr) until the side holds its aim;
// the rest is the other side. Empty when no vertex has an outside edge that
// prefers a side (then METIS alone is as good). O((n + m) log n).
std::vector<int32_t> GrowSide(const MetisGraph& m,
                              const std::vector<double> (&ext)[2], double c_lr,
                              int side, const PartTargets& two) {
  const int32_t n = m.num_vertices();
  bool any = false;
  for (int32_t i = 0; i < n && !any; ++i) any = ext[0][i] != ext[1][i];
  if (!any) return {};
  const int other = 1 - side;
  std::vector<int32_t> halves(n, other);
  // gain(v) = ext[other] - ext[side] + (to_side - to_other) * c_lr, where
  // to_other starts at v's whole volume inside the piece.
  std::vector<double> to_side(n, 0.0), to_other(n, 0.0);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t e = m.xadj[i]; e < m.xadj[i + 1]; ++e)
      to_other[i] += m.arc_weight[e];
  }
  auto gain = [&](int32_t i) {
    return ext[other][i] - ext[side][i] + (to_side[i] - to_other[i]) * c_lr;
  };
  using Entry = std::pair<double, int32_t>;  // (gain, -vertex)
  std::priority_queue<Entry> heap;
  for (int32_t i = 0; i < n; ++i) heap.push({gain(i), -i});
  const double aim = two.Aim(side);
  double load = 0.0;
  while (!heap.empty()) {
    const auto [g, neg] = heap.top();
    heap.pop();
    const int32_t i = -neg;
    if (halves[i] == side || g != gain(i)) continue;  // taken or stale
    const double x = two.Load(m, i);
    if (two.exact() ? load + x > aim : load + x / 2 > aim) break;
    halves[i] = side;
    load += x;
    for (int32_t e = m.xadj[i]; e < m.xadj[i + 1]; ++e) {
      const int32_t j = m.adjncy[e];
      to_side[j] += m.arc_weight[e];
      to_other[j] -= m.arc_weight[e];
      if (halves[j] != side) heap.push({gain(j), -j});
    }
  }
  return halves;
}

}  // namespace

double CrossCost(const MetisGraph& g, const std::vector<int32_t>& part,
                 std::span<const double> cost) {
  const int32_t k = static_cast<int32_t>(
      std::lround(std::sqrt(static_cast<double>(cost.size()))));
  double c = 0.0;
  for (int32_t i = 0; i < g.num_vertices(); ++i) {
    for (int32_t e = g.xadj[i]; e < g.xadj[i + 1]; ++e)
      c += g.arc_weight[e] * cost[part[i] * k + part[g.adjncy[e]]];
  }
  return c;
}

absl::Status PairCostSplit(const CommGraph& sub, const PartTargets& t,
                           std::span<const double> cost, AttemptsFn attempts,
                           uint64_t seed, std::vector<int32_t>* part) {
  const int32_t k = t.num_parts();
  // The binary hierarchy: groups 0..k-1 are the parts, later ones merges.
  struct Group {
    std::vector<int32_t> parts;
    int32_t left = -1, right = -1;  // merged groups (-1: a single part)
  };
  std::vector<Group> groups;
  std::vector<int32_t> live;
  for (int32_t p = 0; p < k; ++p) {
    groups.push_back({{p}});
    live.push_back(p);
  }
  auto amount = [&](const Group& g) {
    double s = 0.0;
    for (int32_t p : g.parts) s += t.Aim(p);
    return s;
  };
  auto mean_cost = [&](const Group& x, const Group& y) {
    double c = 0.0;
    for (int32_t a : x.parts) {
      for (int32_t b : y.parts) c += t.Aim(a) * t.Aim(b) * cost[a * k + b];
    }
    const double norm = amount(x) * amount(y);
    return norm > 0 ? c / norm : 0.0;
  };
  while (live.size() > 1) {
    size_t bi = 0, bj = 1;
    double best = -1.0;
    for (size_t i = 0; i < live.size(); ++i) {
      for (size_t j = i + 1; j < live.size(); ++j) {
        const double c = mean_cost(groups[live[i]], groups[live[j]]);
        if (best < 0 || c < best) {
          best = c;
          bi = i;
          bj = j;
        }
      }
    }
    Group merged;
    merged.left = live[bi];
    merged.right = live[bj];
    merged.parts = groups[live[bi]].parts;
    merged.parts.insert(merged.parts.end(), groups[live[bj]].parts.begin(),
                        groups[live[bj]].parts.end());
    groups.push_back(std::move(merged));
    live.erase(live.begin() + bj);
    live[bi] = static_cast<int32_t>(groups.size()) - 1;
  }
  // group_of[v]: the group v is in now (its part once the group is one).
  std::vector<int32_t> group_of(sub.num_vertices(), live[0]);
  graphs::SubgraphExtractor extractor;
  // Groups still to split with their vertices of sub, in breadth-first order
  // so that the groups around a split are as fine as they get.
  std::deque<std::pair<int32_t, std::vector<VertexId>>> todo;
  std::vector<VertexId> all(sub.num_vertices());
  std::iota(all.begin(), all.end(), 0);
  todo.push_back({live[0], std::move(all)});
  while (!todo.empty()) {
    auto [gi, local] = std::move(todo.front());
    todo.pop_front();
    const Group& g = groups[gi];
    if (g.left < 0 || local.empty()) continue;
    absl::StatusOr<CommGraph> piece = extractor.Extract(sub, local);
    if (!piece.ok()) return piece.status();
    const MetisGraph m = ToMetisGraph(*piece, !t.exact());
    const double c_lr = mean_cost(groups[g.left], groups[g.right]);
    // What each vertex pays for its edges leaving the piece if it sits on
    // either side (priced at the mean pair cost of the two groups).
    std::vector<double> ext[2];
    for (int side = 0; side < 2; ++side) {
      const Group& mine = groups[side == 0 ? g.left : g.right];
      ext[side].assign(local.size(), 0.0);
      for (size_t i = 0; i < local.size(); ++i) {
        auto nbrs = sub.neighbors(local[i]);
        auto wgts = sub.weights(local[i]);
        for (size_t e = 0; e < nbrs.size(); ++e) {
          if (group_of[nbrs[e]] != gi) {
            ext[side][i] +=
                wgts[e] * mean_cost(mine, groups[group_of[nbrs[e]]]);
          }
        }
      }
    }
    auto cost_of = [&](const std::vector<int32_t>& halves) {
      double c = m.Cut(halves) / 2 * c_lr;
      for (size_t i = 0; i < halves.size(); ++i) c += ext[halves[i]][i];
      return c;
    };
    const PartTargets two =
        HalfTargets(groups[g.left].parts, groups[g.right].parts, t);
    // Candidates (0 = left, 1 = right): METIS with the halves' targets in
    // both orders (it cuts the piece in mirrored ways), and greedy growth of
    // either side from the vertices whose outside edges want it most.
    std::vector<std::vector<int32_t>> candidates;
    for (const bool reversed : {false, true}) {
      std::vector<int32_t> halves;
      RETURN_IF_ERROR(SplitParts(m, reversed ? Reversed(two) : two,
                                 attempts(m.num_vertices(), 2), seed, &halves));
      if (reversed) {
        for (int32_t& h : halves) h = 1 - h;
      }
      candidates.push_back(std::move(halves));
    }
    for (int side = 0; side < 2; ++side) {
      std::vector<int32_t> halves = GrowSide(m, ext, c_lr, side, two);
      if (!halves.empty()) {
        RepairParts(m, two, &halves);
        candidates.push_back(std::move(halves));
      }
    }
    std::vector<int32_t> best;
    double best_cost = 0.0;
    for (std::vector<int32_t>& halves : candidates) {
      const double c = cost_of(halves);
      if (best.empty() || c < best_cost) {
        best_cost = c;
        best = std::move(halves);
      }
    }
    std::vector<VertexId> sides[2];
    for (size_t i = 0; i < local.size(); ++i) {
      group_of[local[i]] = best[i] == 0 ? g.left : g.right;
      sides[best[i]].push_back(local[i]);
    }
    todo.push_back({g.left, std::move(sides[0])});
    todo.push_back({g.right, std::move(sides[1])});
  }
  part->assign(sub.num_vertices(), -1);
  for (VertexId v = 0; v < sub.num_vertices(); ++v)
    (*part)[v] = groups[group_of[v]].parts[0];
  return absl::OkStatus();
}

void AssignEqualParts(const MetisGraph& g, const std::vector<int32_t>& part,
                      const PartTargets& t,
                      std::span<const int64_t> child_capacity,
                      std::span<const double> cost,
                      std::vector<int32_t>* sigma) {
  const int32_t k = t.num_parts();
  std::vector<double> cut(static_cast<size_t>(k) * k, 0.0);
  for (int32_t i = 0; i < g.num_vertices(); ++i) {
    for (int32_t e = g.xadj[i]; e < g.xadj[i + 1]; ++e) {
      if (part[i] != part[g.adjncy[e]])
        cut[part[i] * k + part[g.adjncy[e]]] += g.arc_weight[e];
    }
  }
  // Part p goes to child (*sigma)[p].
  auto part_cost = [&](int32_t p) {
    double c = 0.0;
    for (int32_t q = 0; q < k; ++q) {
      if (q != p) c += cut[p * k + q] * cost[(*sigma)[p] * k + (*sigma)[q]];
    }
    return c;
  };
  for (int round = 0; round < 16; ++round) {
    bool improved = false;
    for (int32_t a = 0; a < k; ++a) {
      for (int32_t b = a + 1; b < k; ++b) {
        if (child_capacity[(*sigma)[a]] != child_capacity[(*sigma)[b]])
          continue;
        if (t.exact() && t.size[(*sigma)[a]] != t.size[(*sigma)[b]]) continue;
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

}  // namespace rankmap::core
