#include "core/coarsen/clustering.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "core/parallel/parallel_for.h"

namespace rankmap::core::multilevel {
namespace {

using graphs::ArcIndex;
using graphs::CommGraph;
using graphs::VertexId;

// Vertices per sub-round: small enough that choices see recent moves, large
// enough to be worth a thread.
constexpr int64_t kSubRound = 1 << 14;
// A worker takes at least this many vertices of a sub-round.
constexpr int64_t kPerWorker = 4096;

// A seeded hash: ties between equally rated clusters fall to the lower hash,
// so no side of a grid is preferred.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The state label propagation moves vertices through. A cluster's id is the
// vertex that founded it; a founder with other members never leaves, so a
// cluster id stays valid while the cluster is non-empty.
struct State {
  std::vector<VertexId> cluster;
  std::vector<double> weight;  // per cluster id
  std::vector<int32_t> size;   // per cluster id
};

// Per-worker rating scratch: the connection of one vertex to each cluster.
class Rater {
 public:
  explicit Rater(VertexId n) : rating_(n, 0.0) {}

  // The cluster v would join (-1: stay) against `s` as it is.
  VertexId Choose(const CommGraph& g, const State& s, VertexId v,
                  double max_weight, uint64_t seed) {
    const VertexId own = s.cluster[v];
    if (own == v && s.size[v] > 1) return -1;  // a founder with members
    Collect(g, s, v);
    const double wv = g.vertex_weight(v);
    // Another cluster must beat staying; among those, the higher rating,
    // then the lower hash.
    VertexId best = -1;
    double best_r = rating_[own];
    uint64_t best_h = 0;
    for (VertexId c : touched_) {
      const double r = rating_[c];
      if (c == own || r < best_r || s.size[c] == 0 ||
          s.weight[c] + wv > max_weight) {
        continue;
      }
      const uint64_t h = Mix(seed ^ static_cast<uint64_t>(c));
      if (r > best_r || (best >= 0 && h < best_h)) {
        best = c;
        best_r = r;
        best_h = h;
      }
    }
    Clear();
    return best;
  }

  // The neighbouring cluster v is most heavily connected to, whatever its
  // weight (-1 when v has no arc of positive weight).
  VertexId Favourite(const CommGraph& g, const State& s, VertexId v) {
    Collect(g, s, v);
    VertexId best = -1;
    double best_r = 0;
    for (VertexId c : touched_) {
      if (c != s.cluster[v] && rating_[c] > best_r) {
        best = c;
        best_r = rating_[c];
      }
    }
    Clear();
    return best;
  }

 private:
  void Collect(const CommGraph& g, const State& s, VertexId v) {
    auto nbrs = g.neighbors(v);
    auto wgts = g.weights(v);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (wgts[e] <= 0) continue;  // carries no affinity
      const VertexId c = s.cluster[nbrs[e]];
      if (rating_[c] == 0) touched_.push_back(c);
      rating_[c] += wgts[e];
    }
  }
  void Clear() {
    for (VertexId c : touched_) rating_[c] = 0;
    touched_.clear();
  }

  std::vector<double> rating_;
  std::vector<VertexId> touched_;
};

void Join(const CommGraph& g, State* s, VertexId v, VertexId c) {
  const VertexId own = s->cluster[v];
  const double wv = g.vertex_weight(v);
  s->weight[own] -= wv;
  --s->size[own];
  s->weight[c] += wv;
  ++s->size[c];
  s->cluster[v] = c;
}

// One round of label propagation over `order`; returns the vertices moved.
int64_t Round(const CommGraph& g, const ClusteringOptions& o, uint64_t seed,
              const std::vector<VertexId>& order, std::vector<Rater>& raters,
              std::vector<VertexId>& choice, State* s) {
  int64_t moved = 0;
  const int64_t n = static_cast<int64_t>(order.size());
  for (int64_t lo = 0; lo < n; lo += kSubRound) {
    const int64_t hi = std::min(n, lo + kSubRound);
    ParallelFor(o.threads, lo, hi, kPerWorker,
                [&](int32_t w, int64_t a, int64_t b) {
                  for (int64_t i = a; i < b; ++i) {
                    choice[i - lo] =
                        raters[w].Choose(g, *s, order[i], o.max_weight, seed);
                  }
                });
    for (int64_t i = lo; i < hi; ++i) {
      const VertexId v = order[i], c = choice[i - lo];
      if (c < 0 || s->size[c] == 0) continue;
      if (s->cluster[v] == v && s->size[v] > 1) continue;  // became a founder
      if (s->weight[c] + g.vertex_weight(v) > o.max_weight) continue;
      Join(g, s, v, c);
      ++moved;
    }
  }
  return moved;
}

// Lone vertices that favour the same cluster are paired (two-hop), and
// isolated vertices grouped, within max_weight.
void JoinLoneVertices(const CommGraph& g, const ClusteringOptions& o,
                      Rater& rater, State* s) {
  const VertexId n = g.num_vertices();
  std::vector<VertexId> favourite(n, -1);
  for (VertexId v = 0; v < n; ++v) {
    if (s->size[s->cluster[v]] == 1) favourite[v] = rater.Favourite(g, *s, v);
  }
  // waiting[c]: a lone vertex that favours c, not yet paired;
  // waiting_isolated: the last isolated vertex seen.
  std::vector<VertexId> waiting(n, -1);
  VertexId waiting_isolated = -1;
  for (VertexId v = 0; v < n; ++v) {
    if (s->size[s->cluster[v]] != 1) continue;
    const bool isolated = g.degree(v) == 0;
    if (favourite[v] < 0 && !isolated) continue;
    VertexId& slot = isolated ? waiting_isolated : waiting[favourite[v]];
    const VertexId w = slot;
    if (w >= 0 &&
        s->weight[s->cluster[w]] + g.vertex_weight(v) <= o.max_weight) {
      Join(g, s, v, s->cluster[w]);
      // Isolated vertices keep filling one cluster; pairs are pairs.
      if (!isolated) slot = -1;
    } else {
      slot = v;
    }
  }
}

}  // namespace

Clustering ClusterVertices(const graphs::CommGraph& graph,
                           const ClusteringOptions& options) {
  const VertexId n = graph.num_vertices();
  State s;
  s.cluster.resize(n);
  std::iota(s.cluster.begin(), s.cluster.end(), 0);
  s.size.assign(n, 1);
  s.weight.resize(n);
  for (VertexId v = 0; v < n; ++v) s.weight[v] = graph.vertex_weight(v);
  std::vector<VertexId> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(options.seed);
  std::shuffle(order.begin(), order.end(), rng);
  const int32_t threads = std::max(1, options.threads);
  std::vector<Rater> raters;
  raters.reserve(threads);
  for (int32_t t = 0; t < threads; ++t) raters.emplace_back(n);
  std::vector<VertexId> choice(std::min<int64_t>(n, kSubRound));
  for (int32_t r = 0; r < options.rounds; ++r) {
    const int64_t moved =
        Round(graph, options, options.seed + r, order, raters, choice, &s);
    if (moved * 100 < n) break;
  }
  JoinLoneVertices(graph, options, raters[0], &s);
  // Number clusters in the order of their lowest vertex.
  Clustering out;
  out.cluster.resize(n);
  std::vector<VertexId> id(n, -1);
  for (VertexId v = 0; v < n; ++v) {
    VertexId& c = id[s.cluster[v]];
    if (c < 0) c = out.num_clusters++;
    out.cluster[v] = c;
  }
  return out;
}

}  // namespace rankmap::core::multilevel
