#include "core/objective/link_load.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <tuple>
#include <vector>

namespace rankmap::core {
namespace {

using graphs::VertexId;
using topology::Link;
using topology::NodeId;

// SimGrid 3.32's defaults for smpi/bw-factor and smpi/lat-factor: from the
// first threshold a message's size reaches, its bandwidth and latency are
// multiplied by the factor.
struct SizeFactor {
  double bytes;
  double factor;
};
constexpr SizeFactor kSmpiBandwidthFactors[] = {
    {65472, 0.940694}, {15424, 0.697866}, {9376, 0.58729},
    {5776, 1.08739},   {3484, 0.77493},   {1426, 0.608902},
    {732, 0.341987},   {257, 0.338112},   {0, 0.812084}};
constexpr SizeFactor kSmpiLatencyFactors[] = {
    {65472, 11.6436}, {15424, 3.48845}, {9376, 2.59299},
    {5776, 2.18796},  {3484, 1.88101},  {1426, 1.61075},
    {732, 1.9503},    {257, 1.95341},   {0, 2.01467}};
// network/crosstraffic: a flow's acknowledgements load the reverse direction.
constexpr double kSmpiCrossTraffic = 0.05;
// smpi/send-is-detached-thresh: smaller sends complete when posted.
constexpr double kSmpiDetachedBelow = 65536;
// network/weight-S of SMPI's model: a flow's share of a link is inversely
// proportional to its route's latency plus this many bytes over each link's
// bandwidth (the round trip a TCP flow's window waits for).
constexpr double kSmpiWeightS = 8775;
// network/TCP-gamma: a flow's window bounds its rate by gamma / (2 latency).
constexpr double kSmpiTcpGamma = 4194304;
// The most classes of flows a round is shared among by FluidLinks (each
// event recomputes every class's rate); beyond, the cheap bound.
constexpr int64_t kMaxFluidClasses = 4096;

double FactorOf(std::span<const SizeFactor> table, double bytes) {
  for (const SizeFactor& f : table)
    if (bytes >= f.bytes) return f.factor;
  return 1.0;
}

// One direction of a pair: `count` messages of `size` bytes per iteration.
struct Direction {
  VertexId from, to;
  int64_t count;
  double size;
};

// The links of a tree as load slots: each uplink's two directions, each
// loopback, each pair link's two directions.
class LinkSlots {
 public:
  explicit LinkSlots(const topology::Tree& tree) : tree_(tree) {
    const NodeId nodes = tree.num_nodes();
    host_.assign(nodes, -1);
    pair_base_.assign(nodes, -1);
    int64_t next = 3 * static_cast<int64_t>(nodes);
    for (NodeId v = nodes - 1; v >= 0; --v) {
      const NodeId p = tree.parent(v);
      host_[v] = tree.is_host(v) ? v : (p >= 0 ? host_[p] : -1);
      if (tree.has_pair_links(v)) {
        pair_base_[v] = next;
        next += static_cast<int64_t>(tree.num_children(v)) * tree.num_children(v);
      }
    }
    size_ = next;
  }
  int64_t size() const { return size_; }

  // Where a leaf's routes begin: its host, or the leaf itself.
  NodeId Endpoint(NodeId leaf) const {
    return host_[leaf] >= 0 ? host_[leaf] : leaf;
  }

  // Every slot's bandwidth (0 for a link that is not given).
  std::vector<double> Capacities() const {
    std::vector<double> c(size_, 0.0);
    for (NodeId v = 0; v < tree_.num_nodes(); ++v) {
      c[2 * int64_t{v}] = c[2 * int64_t{v} + 1] = tree_.uplink(v).bandwidth;
      c[2 * int64_t{tree_.num_nodes()} + v] = tree_.loopback(v).bandwidth;
      if (pair_base_[v] < 0) continue;
      const int32_t k = tree_.num_children(v);
      for (int32_t i = 0; i < k; ++i)
        for (int32_t j = 0; j < k; ++j)
          if (i != j) c[pair_base_[v] + i * k + j] = tree_.pair_link(v, i, j).bandwidth;
    }
    return c;
  }

  // Calls f(slot, reverse slot, link) for every given link on the route of
  // a message from leaf a to leaf b.
  template <typename F>
  void ForRoute(NodeId a, NodeId b, F&& f) const {
    NodeId x = a, y = b, cx = a, cy = b;
    while (x != y) {
      if (x < y) {
        Visit(2 * int64_t{x}, 2 * int64_t{x} + 1, tree_.uplink(x), f);
        cx = x;
        x = tree_.parent(x);
      } else {
        Visit(2 * int64_t{y} + 1, 2 * int64_t{y}, tree_.uplink(y), f);
        cy = y;
        y = tree_.parent(y);
      }
    }
    const int64_t nodes = tree_.num_nodes();
    if (host_[x] >= 0) {
      const int64_t s = 2 * nodes + host_[x];
      Visit(s, s, tree_.loopback(host_[x]), f);
    } else if (cx != x && cy != y && pair_base_[x] >= 0) {
      const int64_t k = tree_.num_children(x);
      const int32_t i = tree_.child_rank(cx), j = tree_.child_rank(cy);
      Visit(pair_base_[x] + i * k + j, pair_base_[x] + j * k + i,
            tree_.pair_link(x, i, j), f);
    }
  }

 private:
  template <typename F>
  static void Visit(int64_t slot, int64_t reverse, const Link& link, F& f) {
    if (link.given()) f(slot, reverse, link);
  }

  const topology::Tree& tree_;
  std::vector<NodeId> host_;
  std::vector<int64_t> pair_base_;
  int64_t size_ = 0;
};

// The directions of every pair, with counts scaled by 1 / scale when the
// iteration has more than kMaxPredictedMessages messages.
std::vector<Direction> Directions(const graphs::CommGraph& graph, bool counted,
                                  double* scale) {
  double all = 0;
  for (VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (nbrs[e] > u) {
        all += PairMessages(graph.weights(u)[e],
                            counted ? graph.messages(u)[e] : 0, counted)
                   .first;
      }
    }
  }
  *scale = std::max(1.0, all / static_cast<double>(kMaxPredictedMessages));
  std::vector<Direction> out;
  for (VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      const VertexId v = nbrs[e];
      if (v < u) continue;
      auto [total, size] = PairMessages(
          graph.weights(u)[e], counted ? graph.messages(u)[e] : 0, counted);
      if (*scale > 1 && total > 0) {
        total = std::max<int64_t>(
            1, std::llround(static_cast<double>(total) / *scale));
      }
      if ((total + 1) / 2 > 0) out.push_back({u, v, (total + 1) / 2, size});
      if (total / 2 > 0) out.push_back({v, u, total / 2, size});
    }
  }
  return out;
}

}  // namespace

namespace internal {

// When each class's flows end.
std::vector<double> FluidLinks::Run() {
  const size_t k = classes_.size();
  std::vector<double> end(k, 0.0), remains(k), rate(k, 0.0);
  std::vector<int32_t> order(k);
  for (size_t c = 0; c < k; ++c) {
    remains[c] = classes_[c].bytes;
    order[c] = static_cast<int32_t>(c);
  }
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return classes_[a].start < classes_[b].start;
  });
  std::vector<int32_t> active;
  size_t next = 0;
  double now = k > 0 ? classes_[order[0]].start : 0.0;
  while (next < k || !active.empty()) {
    while (next < k && classes_[order[next]].start <= now) {
      const int32_t c = order[next++];
      if (remains[c] <= 0) {
        end[c] = now;
      } else {
        active.push_back(c);
      }
    }
    if (active.empty()) {
      if (next == k) break;
      now = classes_[order[next]].start;
      continue;
    }
    Share(active, &rate);
    double step = next < k ? classes_[order[next]].start - now
                           : std::numeric_limits<double>::infinity();
    for (int32_t c : active) step = std::min(step, remains[c] / rate[c]);
    now += step;
    size_t kept = 0;
    for (int32_t c : active) {
      remains[c] -= rate[c] * step;
      if (remains[c] <= 1e-9 * classes_[c].bytes) {
        end[c] = now;
      } else {
        active[kept++] = c;
      }
    }
    active.resize(kept);
  }
  return end;
}

// Weighted max-min rates of the active classes (progressive filling).
void FluidLinks::Share(const std::vector<int32_t>& active,
                       std::vector<double>* rate) {
  touched_.clear();
  auto use = [&](int32_t c, auto&& f) {
    const Class& k = classes_[c];
    for (int64_t i = 0; i < k.size; ++i) f(route_[k.first + i], k.coef);
    for (int64_t i = 0; i < k.back_size; ++i)
      f(route_[k.back_first + i], k.coef_back);
  };
  for (int32_t c : active) {
    use(c, [&](int64_t s, double coef) {
      if (flows_on_[s].empty()) {
        touched_.push_back(s);
        left_[s] = capacity_[s];
        demand_[s] = 0;
      }
      flows_on_[s].push_back(c);
      demand_[s] += classes_[c].count * coef / classes_[c].penalty;
    });
    (*rate)[c] = -1;  // not fixed yet
  }
  size_t unfixed = active.size();
  while (unfixed > 0) {
    // The tightest link (share = what is left / weighted demand), or a
    // class at its bound.
    double share = std::numeric_limits<double>::infinity();
    int64_t link = -1;
    for (int64_t s : touched_) {
      if (demand_[s] > 1e-300 && left_[s] / demand_[s] < share) {
        share = std::max(0.0, left_[s]) / demand_[s];
        link = s;
      }
    }
    int32_t bounded = -1;
    for (int32_t c : active) {
      if ((*rate)[c] < 0 && classes_[c].bound * classes_[c].penalty < share) {
        share = classes_[c].bound * classes_[c].penalty;
        bounded = c;
      }
    }
    auto fix = [&](int32_t c) {
      (*rate)[c] = share / classes_[c].penalty;
      --unfixed;
      use(c, [&](int64_t s, double coef) {
        left_[s] -= classes_[c].count * coef * (*rate)[c];
        demand_[s] -= classes_[c].count * coef / classes_[c].penalty;
      });
    };
    if (bounded >= 0) {
      fix(bounded);
    } else if (link >= 0) {
      for (int32_t c : flows_on_[link])
        if ((*rate)[c] < 0) fix(c);
      demand_[link] = 0;
    } else {
      for (int32_t c : active)  // no link on the route: unbounded
        if ((*rate)[c] < 0) fix(c);
    }
  }
  for (int64_t s : touched_) flows_on_[s].clear();
}

}  // namespace internal

namespace {

using internal::FluidLinks;

// The message rounds of one iteration (the top of link_load.h), played in
// order: `ready` is when each process has finished its previous rounds.
class RoundPlayer {
 public:
  RoundPlayer(const topology::Tree& tree, const Mapping& mapping,
              LinkModel model, int32_t processes)
      : slots_(tree),
        mapping_(mapping),
        smpi_(model == LinkModel::kSmpi),
        load_(slots_.size(), 0.0),
        first_(slots_.size(), kNever),
        ready_(processes, 0.0),
        next_(processes, 0.0) {}

  // Plays one round of the directions listed in `active`: the links shared
  // as SimGrid shares them (FluidLinks) when `fluid`, else each message
  // waiting for the busiest link on its route.
  void Play(const std::vector<Direction>& all,
            const std::vector<int32_t>& active, bool fluid) {
    ends_.assign(active.size(), 0.0);
    if (fluid && FluidEnds(all, active)) {
      // ends_ set.
    } else {
      begin_.resize(active.size());
      for (size_t k = 0; k < active.size(); ++k)
        begin_[k] = Load(all[active[k]]);
      for (size_t k = 0; k < active.size(); ++k)
        ends_[k] = Deliver(all[active[k]], begin_[k]);
      for (int64_t s : touched_) {
        load_[s] = 0.0;
        first_[s] = kNever;
      }
      touched_.clear();
    }
    for (size_t k = 0; k < active.size(); ++k) Finish(all[active[k]], ends_[k]);
    for (int32_t d : active) {
      const Direction& m = all[d];
      ready_[m.from] = next_[m.from];
      ready_[m.to] = next_[m.to];
    }
  }

  double Last() const {
    return ready_.empty() ? 0.0
                          : *std::max_element(ready_.begin(), ready_.end());
  }

 private:
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  bool Synchronous(const Direction& m) const {
    return !smpi_ || m.size >= kSmpiDetachedBelow;
  }
  // When the message starts: its sender is there (and its receiver, when it
  // is sent synchronously).
  double Start(const Direction& m) const {
    return Synchronous(m) ? std::max(ready_[m.from], ready_[m.to])
                          : ready_[m.from];
  }

  // Adds the message's bytes to its links, in bytes at the links' full
  // bandwidth (SMPI's bandwidth factor slows a link for every flow on it, and
  // the acknowledgements take a share of the reverse direction), and returns
  // when its bytes start to flow: its start plus its latency. A link drains
  // from the first moment a message on it flows.
  double Load(const Direction& m) {
    const double bytes =
        smpi_ ? m.size / FactorOf(kSmpiBandwidthFactors, m.size) : m.size;
    double latency = 0;
    slots_.ForRoute(mapping_[m.from], mapping_[m.to],
                    [&](int64_t, int64_t, const Link& link) {
                      latency += link.latency;
                    });
    const double flows =
        Start(m) + latency * (smpi_ ? FactorOf(kSmpiLatencyFactors, m.size) : 1);
    slots_.ForRoute(mapping_[m.from], mapping_[m.to],
                    [&](int64_t s, int64_t reverse, const Link&) {
                      Add(s, bytes, flows);
                      if (smpi_) Add(reverse, kSmpiCrossTraffic * bytes, flows);
                    });
    return flows;
  }
  void Add(int64_t s, double bytes, double flows) {
    if (first_[s] == kNever) touched_.push_back(s);
    load_[s] += bytes;
    first_[s] = std::min(first_[s], flows);
  }

  // When the message that starts flowing at `flows` arrives: after its own
  // bytes at its route's bandwidth, and not before each link on its route
  // has drained the round's bytes (-1: no link on its route).
  double Deliver(const Direction& m, double flows) const {
    double bandwidth = 0, drained = flows;
    slots_.ForRoute(mapping_[m.from], mapping_[m.to],
                    [&](int64_t s, int64_t, const Link& link) {
                      bandwidth = bandwidth == 0
                                      ? link.bandwidth
                                      : std::min(bandwidth, link.bandwidth);
                      drained = std::max(drained,
                                         first_[s] + load_[s] / link.bandwidth);
                    });
    if (bandwidth == 0) return -1;
    const double bw_factor = smpi_ ? FactorOf(kSmpiBandwidthFactors, m.size) : 1;
    return std::max(flows + m.size / (bandwidth * bw_factor), drained);
  }

  // The processes of a message that arrives at `end` (-1: no link) are done
  // with this round no earlier than that: its receiver, and its sender when
  // it is sent synchronously.
  void Finish(const Direction& m, double end) {
    next_[m.to] = std::max(next_[m.to], ready_[m.to]);
    next_[m.from] = std::max(next_[m.from], ready_[m.from]);
    if (end < 0) return;
    next_[m.to] = std::max(next_[m.to], end);
    if (Synchronous(m)) next_[m.from] = std::max(next_[m.from], end);
  }

  // ends_ by FluidLinks: the round's messages grouped into classes of
  // identical flows (same route ends, size and start). False, ends_ unset,
  // when the round has more than kMaxFluidClasses classes (processes that
  // start it at many different times): the fluid's events grow with them.
  bool FluidEnds(const std::vector<Direction>& all,
                 const std::vector<int32_t>& active) {
    struct Flow {
      NodeId a, b;
      double size, start;
      int32_t k;  // index in active
    };
    std::vector<Flow> flows;
    flows.reserve(active.size());
    for (size_t k = 0; k < active.size(); ++k) {
      const Direction& m = all[active[k]];
      const NodeId a = mapping_[m.from], b = mapping_[m.to];
      double latency = 0;
      slots_.ForRoute(a, b, [&](int64_t, int64_t, const Link& link) {
        latency += link.latency;
      });
      flows.push_back({slots_.Endpoint(a), slots_.Endpoint(b), m.size,
                       Start(m) + latency * LatencyFactor(m.size),
                       static_cast<int32_t>(k)});
    }
    auto key = [](const Flow& f) { return std::tie(f.a, f.b, f.size, f.start); };
    std::sort(flows.begin(), flows.end(),
              [&](const Flow& x, const Flow& y) { return key(x) < key(y); });
    int64_t classes = flows.empty() ? 0 : 1;
    for (size_t i = 1; i < flows.size(); ++i)
      classes += key(flows[i]) != key(flows[i - 1]);
    if (classes > kMaxFluidClasses) return false;
    FluidLinks fluid(slots_.Capacities());
    std::vector<int32_t> class_of(flows.size());
    for (size_t i = 0; i < flows.size(); ++i) {
      if (i > 0 && key(flows[i]) == key(flows[i - 1])) {
        fluid.classes().back().count += 1;
      } else {
        AddClass(all[active[flows[i].k]], flows[i].start, &fluid);
      }
      class_of[i] = static_cast<int32_t>(fluid.classes().size()) - 1;
    }
    const std::vector<double> end = fluid.Run();
    for (size_t i = 0; i < flows.size(); ++i)
      ends_[flows[i].k] = fluid.classes()[class_of[i]].size > 0
                              ? end[class_of[i]]
                              : -1;
    return true;
  }

  void AddClass(const Direction& m, double start, FluidLinks* fluid) const {
    FluidLinks::Class c;
    c.start = start;
    c.bytes = m.size;
    const double bw_factor = smpi_ ? FactorOf(kSmpiBandwidthFactors, m.size) : 1;
    c.coef = 1 / bw_factor;
    c.coef_back = smpi_ ? kSmpiCrossTraffic / bw_factor : 0;
    std::vector<int64_t>& route = fluid->route();
    c.first = static_cast<int64_t>(route.size());
    double latency = 0, weight = 0;
    slots_.ForRoute(mapping_[m.from], mapping_[m.to],
                    [&](int64_t s, int64_t, const Link& link) {
                      route.push_back(s);
                      latency += link.latency;
                      weight += kSmpiWeightS / link.bandwidth;
                    });
    c.size = static_cast<int64_t>(route.size()) - c.first;
    c.back_first = static_cast<int64_t>(route.size());
    if (smpi_) {
      slots_.ForRoute(mapping_[m.from], mapping_[m.to],
                      [&](int64_t, int64_t reverse, const Link&) {
                        route.push_back(reverse);
                      });
    }
    c.back_size = static_cast<int64_t>(route.size()) - c.back_first;
    c.penalty = latency + (smpi_ ? weight : 0.0);
    if (c.penalty <= 0) c.penalty = 1;
    if (smpi_ && latency > 0) c.bound = kSmpiTcpGamma / (2 * latency);
    fluid->classes().push_back(c);
  }

  double LatencyFactor(double size) const {
    return smpi_ ? FactorOf(kSmpiLatencyFactors, size) : 1.0;
  }

  LinkSlots slots_;
  const Mapping& mapping_;
  bool smpi_;
  std::vector<double> load_, first_;
  std::vector<int64_t> touched_;
  std::vector<double> ready_, next_;
  std::vector<double> begin_;  // per active message: when its bytes flow
  std::vector<double> ends_;   // per active message: when it arrives
};

// The predicted seconds of one iteration (the top of link_load.h).
double PlayIteration(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const Mapping& mapping, bool counted, LinkModel model) {
  double scale = 1;
  const std::vector<Direction> all = Directions(graph, counted, &scale);
  int64_t rounds = 0;
  for (const Direction& d : all) rounds = std::max(rounds, d.count);
  // Directions grouped by count: a group sends in the same rounds.
  std::vector<int32_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return all[a].count != all[b].count ? all[a].count > all[b].count : a < b;
  });
  std::vector<std::pair<int64_t, size_t>> groups;  // (count, first in order)
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || all[order[i]].count != all[order[i - 1]].count)
      groups.emplace_back(all[order[i]].count, i);
  }
  RoundPlayer player(tree, mapping, model, graph.num_vertices());
  std::vector<int32_t> active;
  for (int64_t r = 0; r < rounds; ++r) {
    active.clear();
    for (size_t g = 0; g < groups.size(); ++g) {
      if (!SendsInRound(r, groups[g].first, rounds)) continue;
      const size_t end = g + 1 < groups.size() ? groups[g + 1].second
                                               : order.size();
      active.insert(active.end(), order.begin() + groups[g].second,
                    order.begin() + end);
    }
    player.Play(all, active, rounds <= kFluidRounds);
  }
  return player.Last() * scale;
}

}  // namespace

double RoundsLatency(std::vector<std::pair<double, double>> pairs) {
  // Most messages first; ties by latency so the order is total.
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second > b.second;
  });
  double total = 0.0, slowest = 0.0;
  for (size_t k = 0; k < pairs.size(); ++k) {
    slowest = std::max(slowest, pairs[k].second);
    const double next = k + 1 < pairs.size() ? pairs[k + 1].first : 0.0;
    total += (pairs[k].first - next) * slowest;
  }
  return total;
}

double SmpiLatencyFactor(double bytes) {
  return FactorOf(kSmpiLatencyFactors, bytes);
}
double SmpiBandwidthFactor(double bytes) {
  return FactorOf(kSmpiBandwidthFactors, bytes);
}

std::pair<int64_t, double> PairMessages(double w, double m, bool counted) {
  if (!counted) return {2, std::round(w / 2)};
  int64_t total = std::llround(m);
  if (total == 0 && w > 0) total = 1;
  return {total, total > 0 ? std::round(w / static_cast<double>(total)) : 0.0};
}

LinkLoad EstimateLinkLoad(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const Mapping& mapping, bool count_messages,
                          LinkModel model) {
  LinkLoad r;
  const bool rounds_of_messages = count_messages && graph.has_messages();
  if (!tree.has_links()) return r;
  // The parts: the whole iteration's bytes on each link, and the rounds'
  // latency.
  const LinkSlots slots(tree);
  std::vector<double> volume(slots.size(), 0.0), bandwidth(slots.size(), 0.0);
  std::vector<std::pair<double, double>> rounds;
  for (VertexId u = 0; u < graph.num_vertices(); ++u) {
    auto nbrs = graph.neighbors(u);
    auto wgts = graph.weights(u);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (nbrs[e] < u) continue;
      double latency = 0;
      // Half the pair's bytes each way (a loopback's slot gets both halves).
      slots.ForRoute(mapping[u], mapping[nbrs[e]],
                     [&](int64_t s, int64_t reverse, const Link& link) {
                       latency += link.latency;
                       volume[s] += wgts[e] / 2;
                       volume[reverse] += wgts[e] / 2;
                       bandwidth[s] = bandwidth[reverse] = link.bandwidth;
                     });
      if (rounds_of_messages) {
        rounds.emplace_back(graph.messages(u)[e] / 2, latency);
      } else {
        r.latency = std::max(r.latency, latency);
      }
    }
  }
  if (rounds_of_messages) r.latency = RoundsLatency(std::move(rounds));
  for (int64_t s = 0; s < slots.size(); ++s) {
    if (volume[s] > 0) r.busiest = std::max(r.busiest, volume[s] / bandwidth[s]);
  }
  r.seconds = PlayIteration(tree, graph, mapping, rounds_of_messages, model);
  return r;
}

}  // namespace rankmap::core
