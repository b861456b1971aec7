#include "core/refine/kway_refine.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <queue>
#include <utility>

#include "core/model/mapping.h"

namespace rankmap::core {
namespace {

class PairPass {
 public:
  PairPass(const MetisGraph& g, std::span<const double> cost,
           std::span<const double> capacity, bool unit_loads,
           std::vector<int32_t>* part)
      : g_(g),
        cost_(cost),
        cap_(capacity),
        unit_(unit_loads),
        part_(*part),
        k_(static_cast<int32_t>(capacity.size())),
        load_(k_, 0.0),
        locked_(g.num_vertices(), 0),
        version_(g.num_vertices(), 0),
        members_of_(k_) {
    for (int32_t i = 0; i < g.num_vertices(); ++i) {
      load_[part_[i]] += Load(i);
      members_of_[part_[i]].push_back(i);
    }
  }

  // One FM pass between parts p and q. Returns its gain (>= 0).
  double Run(int32_t p, int32_t q) {
    const int32_t side[2] = {p, q};
    std::priority_queue<Entry> heap[2];  // heap[s]: moves out of side[s]
    // The vertices of both parts in increasing order (a merge of the two
    // lists, so a pass costs O(|p| + |q|), not O(n)).
    std::vector<int32_t> members;
    members.reserve(members_of_[p].size() + members_of_[q].size());
    std::merge(members_of_[p].begin(), members_of_[p].end(),
               members_of_[q].begin(), members_of_[q].end(),
               std::back_inserter(members));
    for (int32_t i : members) {
      locked_[i] = 0;
      ++version_[i];
      const int s = part_[i] == p ? 0 : 1;
      heap[s].push({Gain(i, side[1 - s]), i, version_[i]});
    }
    double max_load = 0.0;
    for (int32_t i : members) max_load = std::max(max_load, Load(i));
    std::vector<std::pair<int32_t, int32_t>> log;  // (vertex, part it left)
    double gain = 0.0, best_gain = 0.0;
    size_t best_len = 0;
    const size_t stall = std::max<size_t>(32, members.size() / 20);
    while (log.size() < members.size() && log.size() - best_len < stall) {
      // Prefer the move out of an overfull side; else the better top gain
      // among sides whose target has room within one vertex.
      int s = -1;
      for (int c = 0; c < 2 && s < 0; ++c) {
        if (!WithinBound(load_[side[c]], cap_[side[c]])) s = c;
      }
      if (s < 0) {
        double best = 0.0;
        for (int c = 0; c < 2; ++c) {
          Clean(&heap[c]);
          if (heap[c].empty()) continue;
          const int32_t i = heap[c].top().v;
          if (!WithinBound(load_[side[1 - c]] + Load(i),
                           cap_[side[1 - c]] + max_load)) {
            continue;
          }
          if (s < 0 || heap[c].top().gain > best) {
            s = c;
            best = heap[c].top().gain;
          }
        }
      }
      if (s < 0) break;
      Clean(&heap[s]);
      if (heap[s].empty()) break;
      const Entry top = heap[s].top();
      heap[s].pop();
      const int32_t i = top.v, from = side[s], to = side[1 - s];
      part_[i] = to;
      locked_[i] = 1;
      load_[from] -= Load(i);
      load_[to] += Load(i);
      log.push_back({i, from});
      gain += top.gain;
      if (gain > best_gain + 1e-12 * (1.0 + std::abs(best_gain)) &&
          WithinBound(load_[p], cap_[p]) && WithinBound(load_[q], cap_[q])) {
        best_gain = gain;
        best_len = log.size();
      }
      for (int32_t e = g_.xadj[i]; e < g_.xadj[i + 1]; ++e) {
        const int32_t j = g_.adjncy[e];
        if (locked_[j] || (part_[j] != p && part_[j] != q)) continue;
        ++version_[j];
        const int sj = part_[j] == p ? 0 : 1;
        heap[sj].push({Gain(j, side[1 - sj]), j, version_[j]});
      }
    }
    while (log.size() > best_len) {
      const auto [i, back] = log.back();
      log.pop_back();
      load_[part_[i]] -= Load(i);
      load_[back] += Load(i);
      part_[i] = back;
    }
    members_of_[p].clear();
    members_of_[q].clear();
    for (int32_t i : members) members_of_[part_[i]].push_back(i);
    return best_gain;
  }

 private:
  struct Entry {
    double gain;
    int32_t v;
    int32_t version;
    bool operator<(const Entry& o) const {
      return gain != o.gain ? gain < o.gain : v > o.v;
    }
  };

  double Load(int32_t i) const { return unit_ ? 1.0 : g_.vertex_weight[i]; }

  // Objective decrease when i moves to part `to`.
  double Gain(int32_t i, int32_t to) const {
    const int32_t from = part_[i];
    double d = 0.0;
    for (int32_t e = g_.xadj[i]; e < g_.xadj[i + 1]; ++e) {
      const int32_t r = part_[g_.adjncy[e]];
      d += g_.arc_weight[e] * (cost_[from * k_ + r] - cost_[to * k_ + r]);
    }
    return d;
  }

  void Clean(std::priority_queue<Entry>* heap) const {
    while (!heap->empty() && (locked_[heap->top().v] ||
                              heap->top().version != version_[heap->top().v])) {
      heap->pop();
    }
  }

  const MetisGraph& g_;
  std::span<const double> cost_;
  std::span<const double> cap_;
  const bool unit_;
  std::vector<int32_t>& part_;
  const int32_t k_;
  std::vector<double> load_;
  std::vector<char> locked_;
  std::vector<int32_t> version_;
  std::vector<std::vector<int32_t>> members_of_;  // per part, increasing
};

}  // namespace

double KwayRefine(const MetisGraph& g, std::span<const double> cost,
                  std::span<const double> capacity, bool unit_loads,
                  int32_t rounds, std::vector<int32_t>* part) {
  const int32_t k = static_cast<int32_t>(capacity.size());
  if (k < 2 || g.num_vertices() < 2) return 0.0;
  PairPass pass(g, cost, capacity, unit_loads, part);
  double total = 0.0;
  for (int32_t round = 0; round < rounds; ++round) {
    // Arcs between each pair of parts: pairs without any are skipped.
    std::vector<char> touch(static_cast<size_t>(k) * k, 0);
    for (int32_t i = 0; i < g.num_vertices(); ++i) {
      for (int32_t e = g.xadj[i]; e < g.xadj[i + 1]; ++e)
        touch[(*part)[i] * k + (*part)[g.adjncy[e]]] = 1;
    }
    double gained = 0.0;
    for (int32_t p = 0; p < k; ++p) {
      for (int32_t q = p + 1; q < k; ++q) {
        if (touch[p * k + q]) gained += pass.Run(p, q);
      }
    }
    total += gained;
    if (gained <= 0) break;
  }
  return total;
}

}  // namespace rankmap::core
