#include "core/split/part_split.h"

#include <algorithm>

#include "core/model/mapping.h"

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

namespace {

// Subgraphs above this many vertices are repaired lazily
// (internal::RepairPartsLazily).
constexpr int32_t kLazyRepairAbove = 200000;

// One vertex's connection to each part (the weight of its arcs into it),
// gathered for one vertex at a time.
class PartConnections {
 public:
  explicit PartConnections(int32_t k) : conn_(k, 0.0) {}

  // Gathers i's connections (the previous vertex's are dropped).
  void Gather(const MetisGraph& g, const std::vector<int32_t>& part,
              int32_t i) {
    for (int32_t q : touched_) conn_[q] = 0.0;
    touched_.clear();
    for (int32_t e = g.xadj[i]; e < g.xadj[i + 1]; ++e) {
      const int32_t q = part[g.adjncy[e]];
      if (conn_[q] == 0.0) touched_.push_back(q);
      conn_[q] += g.arc_weight[e];
    }
  }
  double to(int32_t q) const { return conn_[q]; }
  // The connected part other than `from` where fits(q), of the largest
  // connection (the first reached on ties); -1 if none.
  template <typename Fits>
  int32_t BestNeighbour(int32_t from, Fits fits) const {
    int32_t best = -1;
    for (int32_t q : touched_) {
      if (q != from && fits(q) && (best < 0 || conn_[q] > conn_[best]))
        best = q;
    }
    return best;
  }

 private:
  std::vector<double> conn_;
  std::vector<int32_t> touched_;
};

}  // namespace

namespace internal {

void RepairPartsInPasses(const MetisGraph& g, const PartTargets& t,
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
  PartConnections conn(k);
  struct Move {
    double gain;
    int32_t v, to;
  };
  for (int pass = 0; pass < 4 * n + 8; ++pass) {
    bool any_over = false;
    for (int32_t p = 0; p < k; ++p) any_over = any_over || over(p);
    if (!any_over) return;
    // The part of most room (the first one on ties), and the next one when
    // that is the vertex's own part: the fallback below without its scan of
    // all k parts whenever it fits (with k = 512 at the root of a Fugaku-class
    // tree that scan was a fifth of an 8M-process mapping).
    int32_t roomiest = -1, runner_up = -1;
    for (int32_t q = 0; q < k; ++q) {
      const double room = cap[q] - load[q];
      if (roomiest < 0 || room > cap[roomiest] - load[roomiest]) {
        runner_up = roomiest;
        roomiest = q;
      } else if (runner_up < 0 || room > cap[runner_up] - load[runner_up]) {
        runner_up = q;
      }
    }
    std::vector<Move> moves;
    for (int32_t i = 0; i < n; ++i) {
      const int32_t from = (*part)[i];
      if (!over(from)) continue;
      const double x = t.Load(g, i);
      conn.Gather(g, *part, i);
      int32_t best =
          conn.BestNeighbour(from, [&](int32_t q) { return fits(q, x); });
      if (best < 0) {
        // No neighbouring part has room: the part of most room (parts before
        // it have less, so when it fits it is what the scan would find).
        const int32_t q = roomiest != from ? roomiest : runner_up;
        if (q >= 0 && fits(q, x) && cap[q] - load[q] > 0.0) {
          best = q;
        } else {
          double room = 0.0;
          for (int32_t r = 0; r < k; ++r) {
            if (r != from && fits(r, x) && cap[r] - load[r] > room) {
              room = cap[r] - load[r];
              best = r;
            }
          }
        }
      }
      if (best >= 0) moves.push_back({conn.to(best) - conn.to(from), i, best});
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

namespace {

// The parts' room (capacity - load), for "the part of most room, the first on
// ties, other than p" in O(log k) as loads change.
class RoomTree {
 public:
  explicit RoomTree(const std::vector<double>& room) : k_(room.size()) {
    size_ = 1;
    while (size_ < k_) size_ *= 2;
    best_.assign(2 * size_, -1);
    room_ = room;
    for (size_t p = 0; p < k_; ++p) best_[size_ + p] = static_cast<int32_t>(p);
    for (size_t i = size_; i-- > 1;)
      best_[i] = Pick(best_[2 * i], best_[2 * i + 1]);
  }
  void Set(int32_t p, double room) {
    room_[p] = room;
    for (size_t i = (size_ + p) / 2; i >= 1; i /= 2)
      best_[i] = Pick(best_[2 * i], best_[2 * i + 1]);
  }
  double room(int32_t p) const { return room_[p]; }
  // The part of most room other than `except` (the first on ties); -1 if none.
  int32_t BestExcept(int32_t except) const {
    return Pick(Best(0, except), Best(except + 1, static_cast<int32_t>(k_)));
  }

 private:
  int32_t Pick(int32_t a, int32_t b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    if (room_[b] > room_[a] || (room_[b] == room_[a] && b < a)) return b;
    return a;
  }
  // Best over parts [lo, hi).
  int32_t Best(int32_t lo, int32_t hi) const {
    int32_t left = -1, right = -1;
    for (size_t l = lo + size_, r = hi + size_; l < r; l /= 2, r /= 2) {
      if (l & 1) left = Pick(left, best_[l++]);
      if (r & 1) right = Pick(best_[--r], right);
    }
    return Pick(left, right);
  }

  size_t k_, size_;
  std::vector<double> room_;
  std::vector<int32_t> best_;  // per tree node: its best part
};

}  // namespace

void RepairPartsLazily(const MetisGraph& g, const PartTargets& t,
                       std::vector<int32_t>* part) {
  const int32_t n = g.num_vertices();
  const int32_t k = t.num_parts();
  std::vector<double> load(k, 0.0), cap(k), room(k);
  for (int32_t i = 0; i < n; ++i) load[(*part)[i]] += t.Load(g, i);
  for (int32_t p = 0; p < k; ++p) {
    cap[p] = t.Capacity(p);
    room[p] = cap[p] - load[p];
  }
  RoomTree rooms(room);
  auto over = [&](int32_t p) { return !WithinBound(load[p], cap[p]); };
  auto fits = [&](int32_t p, double x) {
    return WithinBound(load[p] + x, cap[p]);
  };
  int32_t num_over = 0;
  for (int32_t p = 0; p < k; ++p) num_over += over(p) ? 1 : 0;
  if (num_over == 0) return;
  struct Move {
    double gain;
    int32_t v, to;
    bool operator<(const Move& o) const {  // max-heap: best gain, lower v
      return gain != o.gain ? gain < o.gain : v > o.v;
    }
  };
  PartConnections conn(k);
  // i's best move now (as a pass of RepairPartsInPasses would choose it).
  auto best_move = [&](int32_t i, Move* m) {
    const int32_t from = (*part)[i];
    const double x = t.Load(g, i);
    conn.Gather(g, *part, i);
    int32_t best =
        conn.BestNeighbour(from, [&](int32_t q) { return fits(q, x); });
    if (best < 0) {
      const int32_t q = rooms.BestExcept(from);
      if (q >= 0 && fits(q, x) && rooms.room(q) > 0.0) best = q;
    }
    if (best >= 0) *m = {conn.to(best) - conn.to(from), i, best};
    return best >= 0;
  };
  std::vector<Move> heap;
  for (int32_t i = 0; i < n; ++i) {
    Move m;
    if (over((*part)[i]) && best_move(i, &m)) heap.push_back(m);
  }
  std::make_heap(heap.begin(), heap.end());
  while (!heap.empty() && num_over > 0) {
    std::pop_heap(heap.begin(), heap.end());
    const Move m = heap.back();
    heap.pop_back();
    const int32_t from = (*part)[m.v];
    if (!over(from)) continue;
    const double x = t.Load(g, m.v);
    if (!fits(m.to, x)) {
      Move again;
      if (best_move(m.v, &again)) {
        heap.push_back(again);
        std::push_heap(heap.begin(), heap.end());
      }
      continue;
    }
    load[from] -= x;
    load[m.to] += x;
    rooms.Set(from, cap[from] - load[from]);
    rooms.Set(m.to, cap[m.to] - load[m.to]);
    (*part)[m.v] = m.to;
    if (!over(from)) --num_over;
  }
}

}  // namespace internal

void RepairParts(const MetisGraph& g, const PartTargets& t,
                 std::vector<int32_t>* part) {
  if (g.num_vertices() > kLazyRepairAbove) {
    internal::RepairPartsLazily(g, t, part);
  } else {
    internal::RepairPartsInPasses(g, t, part);
  }
}

}  // namespace rankmap::core
