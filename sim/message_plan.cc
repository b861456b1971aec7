#include "sim/message_plan.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace rankmap::sim {
namespace {

// The pair's messages M (both directions) from its recorded count, and the
// bytes of each; false when the count is above the bound.
bool PairMessages(const graphs::CommGraph& g, graphs::ArcIndex a,
                  int64_t divisor, int64_t* total, double* size) {
  const double w = g.adjwgt()[a];
  if (!g.has_messages()) {
    *total = 2;
    *size = std::round(w / 2);
    return true;
  }
  // A 1/divisor share of the pair's traffic: its messages (at least one
  // when it has any) and a 1/divisor share of its bytes.
  const double d = static_cast<double>(divisor);
  const double m = g.adjmsg()[a] / d;
  if (!(m < static_cast<double>(kMaxMessagesPerIteration) + 0.5)) return false;
  *total = std::llround(m);
  if (*total == 0 && (w > 0 || g.adjmsg()[a] > 0)) *total = 1;
  *size = *total > 0 ? std::round(w / d / static_cast<double>(*total)) : 0.0;
  return true;
}

std::string PairName(std::string_view source, graphs::VertexId u,
                     graphs::VertexId v) {
  return absl::StrCat(std::string(source), ": processes ", u, " and ", v);
}

}  // namespace

absl::StatusOr<MessagePlan> PlanMessages(const graphs::CommGraph& g,
                                         std::string_view source,
                                         int64_t divisor) {
  if (divisor < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source), ": a message divisor of ", divisor));
  }
  MessagePlan plan;
  plan.divisor = g.has_messages() ? divisor : 1;
  plan.from_counts = g.has_messages();
  plan.total.resize(g.num_arcs());
  plan.size.resize(g.num_arcs());
  int64_t rounds = g.num_arcs() > 0 ? 1 : 0;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    for (graphs::ArcIndex a = g.xadj()[u]; a < g.xadj()[u + 1]; ++a) {
      const graphs::VertexId v = g.adjncy()[a];
      int64_t total = 0;
      double size = 0;
      if (!PairMessages(g, a, plan.divisor, &total, &size)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s: %.6g messages per iteration, above the replay's bound of %d",
            PairName(source, u, v), g.adjmsg()[a], kMaxMessagesPerIteration));
      }
      if (size > static_cast<double>(kMaxMessageBytes)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s: messages of %.0f bytes (above 2^31 - 1; %.6g bytes in %d "
            "messages)",
            PairName(source, u, v), size, g.adjwgt()[a], total));
      }
      plan.total[a] = static_cast<int32_t>(total);
      plan.size[a] = static_cast<int32_t>(size);
      rounds = std::max(rounds, DirectedCount(u, v, total));
      if (u > v) continue;  // each pair once
      plan.messages += total;
      plan.bytes += static_cast<double>(total) * size;
      if (plan.messages > kMaxMessagesPerIteration) {
        return absl::InvalidArgumentError(absl::StrCat(
            std::string(source), ": more than ", kMaxMessagesPerIteration,
            " messages per iteration, the replay's bound (SimGrid simulates "
            "about 10^5 messages a second)"));
      }
    }
  }
  plan.rounds = static_cast<int32_t>(rounds);
  return plan;
}

int64_t ReplayDivisor(const graphs::CommGraph& g, int64_t iterations,
                      int64_t max_messages) {
  if (!g.has_messages() || g.num_arcs() == 0) return 1;
  // Each pair with traffic keeps at least one message per iteration.
  double counted = 0, pairs = 0;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    for (graphs::ArcIndex a = g.xadj()[u]; a < g.xadj()[u + 1]; ++a) {
      if (g.adjncy()[a] < u) continue;
      counted += std::round(g.adjmsg()[a]);
      pairs += g.adjwgt()[a] > 0 || g.adjmsg()[a] > 0 ? 1 : 0;
    }
  }
  const double runs = static_cast<double>(iterations + 1);
  const double room = static_cast<double>(max_messages) - pairs * runs;
  if (counted * runs <= static_cast<double>(max_messages) || room <= 0)
    return 1;
  // Rounding to whole messages adds at most a pair's worth per pair.
  const double d = std::ceil(counted * runs / (room - pairs * runs / 2));
  return d > 0 && d < 1e15 ? static_cast<int64_t>(d) : 1;
}

absl::Status CheckReplayWork(int64_t messages, int64_t iterations,
                             int64_t max_messages) {
  // Both factors are bounded (10^7 and 10^6): the product fits in int64.
  const int64_t all = messages * (iterations + 1);
  if (all <= max_messages) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "--iterations: ", iterations, " iterations (and the untimed one) of ",
      messages, " messages are ", all,
      " simulated messages, above the replay's bound of ", max_messages,
      " (its time grows with them); at most ",
      std::max<int64_t>(max_messages / std::max<int64_t>(messages, 1) - 1, 0),
      " iterations"));
}

RoundWalker::RoundWalker(std::span<const int32_t> recv,
                         std::span<const int32_t> send, int32_t rounds)
    : recv_(recv), send_(send), rounds_(rounds), sent_(2 * recv.size(), 0) {
  heap_.reserve(sent_.size());
  Restart();
}

int32_t RoundWalker::Count(int32_t slot) const {
  return slot % 2 == 0 ? recv_[slot / 2] : send_[slot / 2];
}

void RoundWalker::Restart() {
  heap_.clear();
  std::fill(sent_.begin(), sent_.end(), 0);
  for (int32_t slot = 0; slot < static_cast<int32_t>(sent_.size()); ++slot) {
    if (Count(slot) > 0) heap_.push_back({0, slot});
  }
  // Every entry is in round 0 and the slots increase: already a min-heap.
}

bool RoundWalker::Next(int32_t* round, std::vector<int32_t>* receives,
                       std::vector<int32_t>* sends) {
  receives->clear();
  sends->clear();
  if (heap_.empty()) return false;
  const auto later = std::greater<Entry>();
  *round = heap_.front().first;
  due_.clear();
  while (!heap_.empty() && heap_.front().first == *round) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    due_.push_back(heap_.back().second);
    heap_.pop_back();
  }
  // Popped by increasing slot: receives and sends each in neighbour order.
  for (int32_t slot : due_) {
    (slot % 2 == 0 ? receives : sends)->push_back(slot / 2);
    const int64_t i = ++sent_[slot];
    if (i < Count(slot)) {
      heap_.push_back(
          {static_cast<int32_t>(RoundOf(i, Count(slot), rounds_)), slot});
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  return true;
}

}  // namespace rankmap::sim
