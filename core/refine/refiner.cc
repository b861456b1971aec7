#include "core/refine/refiner.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace rankmap::core {

using graphs::ArcIndex;
using graphs::VertexId;
using topology::LeafId;
using topology::NodeId;

namespace {

// A vertex weighs at most this many of its neighbouring blocks as targets
// (those its current block pays most towards).
constexpr size_t kMaxCandidates = 16;
// A local FM search stops after this many moves without a new best.
constexpr size_t kLocalStall = 32;
// A repair weighs at most this many vertices of the overfilled block.
constexpr size_t kRepairScan = 64;

}  // namespace

Refiner::Refiner(const GainModel& model, const graphs::CommGraph& graph,
                 std::span<const double> bound, Mapping* blocks)
    : model_(model),
      tree_(model.tree()),
      graph_(graph),
      bound_(bound),
      block_(*blocks),
      load_(tree_.num_leaves(), 0.0),
      index_(tree_.num_leaves(), -1),
      locked_(graph.num_vertices(), -1),
      version_(graph.num_vertices(), 0) {
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    load_[block_[v]] += graph.vertex_weight(v);
}

Refiner::Refiner(const topology::Tree& tree, const graphs::CommGraph& graph,
                 std::span<const double> bound, Mapping* blocks)
    : own_model_(std::in_place, graph, tree),
      model_(*own_model_),
      tree_(tree),
      graph_(graph),
      bound_(bound),
      block_(*blocks),
      load_(tree.num_leaves(), 0.0),
      index_(tree.num_leaves(), -1),
      locked_(graph.num_vertices(), -1),
      version_(graph.num_vertices(), 0) {
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    load_[block_[v]] += graph.vertex_weight(v);
}

void Refiner::Collect(VertexId v) {
  auto xadj = graph_.xadj();
  auto adj = graph_.adjncy();
  for (ArcIndex e = xadj[v]; e < xadj[v + 1]; ++e) {
    const LeafId b = block_[adj[e]];
    int32_t& i = index_[b];
    if (i < 0) {
      i = static_cast<int32_t>(near_.blocks.size());
      near_.blocks.push_back(b);
      near_.volume.emplace_back();
    }
    near_.volume[i] += model_.Of(e);
  }
}

void Refiner::ClearCollected() {
  for (LeafId b : near_.blocks) index_[b] = -1;
  near_.blocks.clear();
  near_.volume.clear();
}

double Refiner::CostAt(LeafId x) const {
  double c = 0.0;
  for (size_t i = 0; i < near_.blocks.size(); ++i)
    c += model_.Price(near_.volume[i], x, near_.blocks[i]);
  return c;
}

bool Refiner::Fits(LeafId b, double w, double slack) const {
  return WithinBound(load_[b] + w, bound_[b] + slack);
}

bool Refiner::Over(LeafId b) const { return !WithinBound(load_[b], bound_[b]); }

void Refiner::Move(VertexId v, LeafId to) {
  const double w = graph_.vertex_weight(v);
  const LeafId from = block_[v];
  load_[from] -= w;
  load_[to] += w;
  block_[v] = to;
  if (!members_.empty()) {
    std::vector<VertexId>& out = members_[from];
    const int32_t i = position_[v];
    out[i] = out.back();
    position_[out[i]] = i;
    out.pop_back();
    position_[v] = static_cast<int32_t>(members_[to].size());
    members_[to].push_back(v);
  }
}

void Refiner::TrackMembers() {
  if (!members_.empty()) return;
  seen_.assign(graph_.num_vertices(), 0);
  members_.resize(tree_.num_leaves());
  position_.resize(graph_.num_vertices());
  for (VertexId v = 0; v < graph_.num_vertices(); ++v) {
    position_[v] = static_cast<int32_t>(members_[block_[v]].size());
    members_[block_[v]].push_back(v);
  }
}

double Refiner::GainTo(VertexId v, LeafId to) {
  Collect(v);
  const double g = CostAt(block_[v]) - CostAt(to);
  ClearCollected();
  return g;
}

std::pair<double, VertexId> Refiner::BestRepair(LeafId x, LeafId vacated,
                                                VertexId moved, int32_t id,
                                                LeafId* target) {
  // Candidates: every vertex of a small block; of a large one, those within
  // two hops of the vertex that came in (its swap partner is near it).
  std::vector<VertexId>& cand = repair_candidates_;
  cand.clear();
  if (members_[x].size() <= kRepairScan) {
    cand = members_[x];
  } else {
    ++repair_stamp_;
    auto add = [&](VertexId u) {
      if (block_[u] != x || seen_[u] == repair_stamp_) return false;
      seen_[u] = repair_stamp_;
      cand.push_back(u);
      return true;
    };
    for (VertexId u : graph_.neighbors(moved)) add(u);
    for (size_t i = 0; i < cand.size() && cand.size() < kRepairScan; ++i) {
      for (VertexId z : graph_.neighbors(cand[i])) {
        if (add(z) && cand.size() >= kRepairScan) break;
      }
    }
  }
  std::pair<double, VertexId> best = {0.0, -1};
  for (VertexId u : cand) {
    if (locked_[u] == id || u == moved) continue;
    const double w = graph_.vertex_weight(u);
    // Back into the block the move came from, or anywhere near with room.
    if (Fits(vacated, w, 0.0)) {
      const double g = GainTo(u, vacated);
      if (best.second < 0 || g > best.first) {
        best = {g, u};
        *target = vacated;
      }
    }
    const auto [g, y] =
        BestMoveWhere(u, [&](LeafId c) { return Fits(c, w, 0.0); });
    if (y >= 0 && (best.second < 0 || g > best.first)) {
      best = {g, u};
      *target = y;
    }
  }
  return best;
}

bool Refiner::Boundary(VertexId v) const {
  const LeafId a = block_[v];
  for (VertexId u : graph_.neighbors(v)) {
    if (block_[u] != a) return true;
  }
  return false;
}

std::pair<double, LeafId> Refiner::BestMove(VertexId v, double slack) {
  const double w = graph_.vertex_weight(v);
  return BestMoveWhere(v, [&](LeafId c) { return Fits(c, w, slack); });
}

void Refiner::LimitCandidates(LeafId a) {
  std::vector<LeafId>& cand = candidates_;
  if (cand.size() <= kMaxCandidates) return;
  auto pull = [&](LeafId i) {
    return model_.Price(near_.volume[i], a, near_.blocks[i]);
  };
  std::partial_sort(cand.begin(), cand.begin() + kMaxCandidates, cand.end(),
                    [&](LeafId i, LeafId j) {
                      const double pi = pull(i), pj = pull(j);
                      return pi != pj ? pi > pj : i < j;
                    });
  cand.resize(kMaxCandidates);
}

LeafId Refiner::NearestWithRoom(LeafId from, double w) const {
  for (NodeId up = tree_.parent(from); up >= 0; up = tree_.parent(up)) {
    for (LeafId b = tree_.leaf_begin(up); b < tree_.leaf_end(up); ++b) {
      if (b != from && bound_[b] > 0 && Fits(b, w, 0.0)) return b;
    }
  }
  return -1;
}

void Refiner::RebalanceBlock(LeafId b,
                             std::vector<std::vector<VertexId>>& members,
                             std::vector<LeafId>* overfull, bool* stuck) {
  struct Candidate {
    bool room;  // the target has room (else it is only less loaded)
    double gain;
    VertexId v;
    LeafId to;
  };
  std::vector<Candidate> cand;
  std::vector<VertexId>& in_b = members[b];
  while (Over(b)) {
    // b's vertices that still sit in b, each with its best move to a
    // neighbouring block with room, else to one that stays less loaded than
    // b (the overload diffuses towards room): room first, least loss first.
    size_t kept = 0;
    for (VertexId v : in_b) {
      if (block_[v] == b) in_b[kept++] = v;
    }
    in_b.resize(kept);
    cand.clear();
    for (VertexId v : in_b) {
      const double w = graph_.vertex_weight(v);
      auto [g, x] = BestMoveWhere(v, [&](LeafId c) { return Fits(c, w, 0.0); });
      if (x >= 0) {
        cand.push_back({true, g, v, x});
        continue;
      }
      std::tie(g, x) = BestMoveWhere(v, [&](LeafId c) {
        return bound_[c] > 0 && load_[c] + w < load_[b] - w;
      });
      if (x >= 0) cand.push_back({false, g, v, x});
    }
    std::sort(cand.begin(), cand.end(),
              [](const Candidate& p, const Candidate& q) {
                if (p.room != q.room) return p.room;
                return p.gain != q.gain ? p.gain > q.gain : p.v < q.v;
              });
    bool moved = false;
    for (const Candidate& c : cand) {
      if (!Over(b)) break;
      const double w = graph_.vertex_weight(c.v);
      if (c.room ? !Fits(c.to, w, 0.0) : !(load_[c.to] + w < load_[b] - w))
        continue;
      Move(c.v, c.to);
      members[c.to].push_back(c.v);
      if (Over(c.to)) overfull->push_back(c.to);
      moved = true;
      if (!c.room) break;  // loads changed: look again
    }
    if (moved) continue;
    // Nowhere downhill: the lightest vertex to the nearest block with room.
    VertexId light = -1;
    for (VertexId v : in_b) {
      if (light < 0 || graph_.vertex_weight(v) < graph_.vertex_weight(light))
        light = v;
    }
    const LeafId to =
        light < 0 ? -1 : NearestWithRoom(b, graph_.vertex_weight(light));
    if (to < 0) {
      *stuck = true;
      return;
    }
    Move(light, to);
    members[to].push_back(light);
  }
}

bool Refiner::Rebalance() {
  const LeafId k = tree_.num_leaves();
  std::vector<LeafId> overfull;
  for (LeafId b = 0; b < k; ++b) {
    if (Over(b)) overfull.push_back(b);
  }
  if (overfull.empty()) return true;
  std::vector<std::vector<VertexId>> members(k);
  for (VertexId v = 0; v < graph_.num_vertices(); ++v)
    members[block_[v]].push_back(v);
  bool stuck = false;
  // Blocks the diffusion overfills join the list; each move lowers the sum
  // of squared loads, so this ends.
  for (size_t i = 0; i < overfull.size() && !stuck; ++i)
    RebalanceBlock(overfull[i], members, &overfull, &stuck);
  return !stuck;
}

double Refiner::LabelPropagation(int32_t rounds) {
  const VertexId n = graph_.num_vertices();
  std::vector<char> active(n), next(n, 0);
  for (VertexId v = 0; v < n; ++v) active[v] = Boundary(v);
  double total = 0.0;
  for (int32_t r = 0; r < rounds; ++r) {
    double gained = 0.0;
    for (VertexId v = 0; v < n; ++v) {
      if (!active[v]) continue;
      const auto [g, x] = BestMove(v, 0.0);
      // Gains below this are rounding noise, not improvements.
      if (x < 0 || g <= GainModel::kNoise * (1.0 + std::abs(g))) continue;
      Move(v, x);
      gained += g;
      next[v] = 1;
      for (VertexId u : graph_.neighbors(v)) next[u] = 1;
    }
    total += gained;
    if (gained <= 0) break;
    active.swap(next);
    std::fill(next.begin(), next.end(), 0);
  }
  return total;
}

double Refiner::Fm(const FmOptions& options) {
  const VertexId n = graph_.num_vertices();
  if (options.slack > 0) TrackMembers();
  if (waiting_.empty()) waiting_.resize(tree_.num_leaves());
  int64_t over = 0;
  for (LeafId b = 0; b < tree_.num_leaves(); ++b) over += Over(b);
  std::vector<VertexId> seeds;
  double total = 0.0;
  for (int32_t r = 0; r < options.rounds; ++r) {
    double round_gain = 0.0;
    if (options.localized) {
      const int32_t id = ++searches_run_;
      for (VertexId seed = 0; seed < n; ++seed) {
        if (locked_[seed] == id || !Boundary(seed)) continue;
        round_gain += Search({&seed, 1}, id, options, &over);
      }
    } else {
      seeds.clear();
      for (VertexId v = 0; v < n; ++v) {
        if (Boundary(v)) seeds.push_back(v);
      }
      round_gain = Search(seeds, ++searches_run_, options, &over);
    }
    total += round_gain;
    if (round_gain <= 0) break;
  }
  return total;
}

double Refiner::Search(std::span<const VertexId> seeds, int32_t id,
                       const FmOptions& options, int64_t* over) {
  struct Entry {
    double gain;
    VertexId v;
    int32_t version;
    bool operator<(const Entry& o) const {
      return gain != o.gain ? gain < o.gain : v > o.v;
    }
  };
  const double slack = options.slack;
  std::vector<Entry> heap;
  // v's best move into room (or within the slack) enters the heap; without
  // one, v waits on the block it would go to.
  auto push = [&](VertexId v) {
    ++version_[v];
    const auto [g, x] = BestMove(v, slack);
    if (x >= 0) {
      heap.push_back({g, v, version_[v]});
      std::push_heap(heap.begin(), heap.end());
      return;
    }
    const LeafId want = BestMoveWhere(v, [](LeafId) { return true; }).second;
    if (want < 0) return;
    if (waiting_[want].empty()) waited_on_.push_back(want);
    waiting_[want].push_back(v);
  };
  // A vertex left block a: whoever waits on it may now move.
  auto moved_out_of = [&](LeafId a) {
    woken_.clear();
    woken_.swap(waiting_[a]);  // keeps both buffers: no allocation per move
    for (VertexId u : woken_) {
      if (locked_[u] != id) push(u);
    }
  };
  for (VertexId s : seeds) push(s);
  log_.clear();
  const int64_t over_start = *over;
  const size_t stall =
      options.localized
          ? kLocalStall
          : std::max<size_t>(64,
                             static_cast<size_t>(graph_.num_vertices()) / 100);
  double gain = 0.0, best_gain = 0.0;
  size_t best_len = 0;
  while (!heap.empty() && log_.size() - best_len < stall) {
    std::pop_heap(heap.begin(), heap.end());
    const Entry top = heap.back();
    heap.pop_back();
    const VertexId v = top.v;
    if (locked_[v] == id || top.version != version_[v]) continue;
    const auto [g, x] = BestMove(v, slack);
    if (x < 0 || g < top.gain) {  // stale: requeue (or wait)
      push(v);
      continue;
    }
    const LeafId a = block_[v];
    *over -= Over(a) + Over(x);
    Move(v, x);
    *over += Over(a) + Over(x);
    locked_[v] = id;
    log_.push_back({v, a});
    gain += g;
    if (slack > 0 && Over(x)) {
      // The move filled x past its bound: the best vertex of x leaves (a
      // swap when it goes where v came from).
      LeafId y = -1;
      const auto [gr, u] = BestRepair(x, a, v, id, &y);
      if (u >= 0) {
        *over -= Over(x) + Over(y);
        Move(u, y);
        *over += Over(x) + Over(y);
        locked_[u] = id;
        log_.push_back({u, x});
        gain += gr;
        for (VertexId z : graph_.neighbors(u)) {
          if (locked_[z] != id) push(z);
        }
        moved_out_of(x);
      }
    }
    if (*over <= over_start &&
        gain > best_gain + GainModel::kNoise * (1.0 + std::abs(best_gain))) {
      best_gain = gain;
      best_len = log_.size();
    }
    moved_out_of(a);
    for (VertexId u : graph_.neighbors(v)) {
      if (locked_[u] != id) push(u);
    }
  }
  while (log_.size() > best_len) {
    const auto [v, a] = log_.back();
    log_.pop_back();
    const LeafId x = block_[v];
    *over -= Over(a) + Over(x);
    Move(v, a);
    *over += Over(a) + Over(x);
  }
  for (LeafId b : waited_on_) waiting_[b].clear();
  waited_on_.clear();
  return best_gain;
}

}  // namespace rankmap::core
