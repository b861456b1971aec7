// MessagePlan: how the replay program (sim/replay.cc) turns a graph's traffic
// into messages, so that a latency-bound exchange (2,000 messages of 340 bytes
// per pair) is simulated as one and not as a single 680 kB message. MPI-free:
// the program, the Simulator's checks and the tests share it.
//
// Per pair {u, v} with w bytes and m messages (both directions summed, as
// graphs::CommGraph stores them), per iteration:
//   * without message counts: one message each way of round(w / 2) bytes (the
//     replay as it always was, zero-byte pairs included);
//   * with counts: M = round(m) messages in all, at least 1 when w > 0 (a pair
//     with bytes but no recorded message still sends); the lower rank sends
//     ceil(M / 2) of them, the higher floor(M / 2), so the recorded total is
//     kept; every message carries round(w / M) bytes. A pair with M = 0 and
//     w = 0 sends nothing.
// Rounds: an iteration is R exchange rounds, R the largest count of any
// direction. A direction that sends k messages sends its i-th (0-based) in
// round floor(i * R / k): evenly spread, the first in round 0. Both ends
// compute the same rounds from (k, R), so in every round each rank posts the
// receives and sends the rule gives it, waits for them, and moves on
// (RoundWalker). Without counts R = 1: every rank posts all its receives,
// then all its sends, and waits once.
//
// Bounds, checked before a run: at most kMaxMessagesPerIteration messages per
// iteration (memory does not grow with counts: a rank keeps one entry per
// neighbour), messages of at most 2^31 - 1 bytes, and at most a budget of
// messages over the whole run (CheckReplayWork; kMaxReplayMessages unless the
// caller bounds its time more tightly).
//
// The work, not only the count: the replay's time grows with the messages it
// simulates, so a caller with a budget divides the counts (ReplayDivisor):
// with divisor D an iteration replays a 1/D share of each pair's traffic,
// round(M / D) messages (at least one where the pair has traffic) of the
// pair's bytes / D in all, and the time of a whole iteration is D times the
// time of that share (a latency-bound exchange of M messages takes about D
// times as long as M / D of them; contention between pairs is kept in
// proportion).
//
//   ASSIGN_OR_RETURN(MessagePlan plan, PlanMessages(graph, "app.mat"));
//   RETURN_IF_ERROR(CheckReplayWork(plan.messages, iterations));
//   // arc a = (u, v): plan.total[a] messages of plan.size[a] bytes in all,
//   // DirectedCount(u, v, plan.total[a]) of them from u to v.
#ifndef RANKMAP_SIM_MESSAGE_PLAN_H_
#define RANKMAP_SIM_MESSAGE_PLAN_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::sim {

// SMPI simulates roughly 10^5 messages per CPU second when few flows share a
// link at once (230,400 messages of 340 bytes among 64 ranks in 2.6 s), about
// ten times fewer when thousands do (a 256-rank solver's replay: 3 million in
// 4 minutes). An iteration at the bound takes minutes, a whole run (the
// untimed iteration included) tens of minutes to a few hours.
inline constexpr int64_t kMaxMessagesPerIteration = 10'000'000;
inline constexpr int64_t kMaxReplayMessages = 100'000'000;
inline constexpr int64_t kMaxMessageBytes = 2147483647;

struct MessagePlan {
  bool from_counts = false;  // the graph carried message counts
  int64_t divisor = 1;       // counts divided by it (1 without counts)
  int32_t rounds = 1;        // R
  int64_t messages = 0;      // per iteration, every pair, both directions
  double bytes = 0;          // per iteration, as sent (sum of M x size)
  // Per arc, parallel to the graph's adjncy: the pair's messages M (both
  // directions) and the bytes of each.
  std::vector<int32_t> total;
  std::vector<int32_t> size;
};

// The messages u sends v per iteration out of the pair's `total`: the lower id
// sends the odd one.
inline int64_t DirectedCount(int64_t u, int64_t v, int64_t total) {
  return u < v ? (total + 1) / 2 : total / 2;
}

// The round (in [0, rounds)) of message i of a direction that sends `count`
// messages per iteration (0 <= i < count <= rounds).
inline int64_t RoundOf(int64_t i, int64_t count, int64_t rounds) {
  return i * rounds / count;
}

// The plan of `g` (counts used when g.has_messages()), each pair's counts and
// bytes divided by `divisor` as the header says. Errors, naming `source`: a
// divisor below 1, a message above 2^31 - 1 bytes, more than
// kMaxMessagesPerIteration messages per iteration. O(arcs).
absl::StatusOr<MessagePlan> PlanMessages(const graphs::CommGraph& g,
                                         std::string_view source,
                                         int64_t divisor = 1);

// The smallest divisor that brings `iterations` timed iterations and the
// untimed one of g's counts within `max_messages` (1 when they fit, when g
// carries no counts, or when no divisor can: its pairs alone are too many,
// which CheckReplayWork then refuses). O(arcs).
int64_t ReplayDivisor(const graphs::CommGraph& g, int64_t iterations,
                      int64_t max_messages);

// Error (InvalidArgument) when `iterations` timed iterations plus the untimed
// one of `messages` each exceed `max_messages`, naming the bound and saying
// how to shrink the run.
absl::Status CheckReplayWork(int64_t messages, int64_t iterations,
                             int64_t max_messages = kMaxReplayMessages);

// One rank's walk through the rounds of an iteration. Slot k is neighbour k,
// which this rank receives recv[k] messages from and sends send[k] messages
// to; Next() gives the next round in which the rank has messages and the
// neighbours it receives from and sends to in it, each in increasing k (the
// replay posts the receives first). O(log degree) per message, memory
// O(degree); Restart() begins the next iteration. `recv` and `send` must
// outlive the walker.
class RoundWalker {
 public:
  RoundWalker(std::span<const int32_t> recv, std::span<const int32_t> send,
              int32_t rounds);

  void Restart();
  // False once every message of the iteration was given.
  bool Next(int32_t* round, std::vector<int32_t>* receives,
            std::vector<int32_t>* sends);

 private:
  // (round, slot); slot 2k receives from neighbour k, 2k + 1 sends to it.
  using Entry = std::pair<int32_t, int32_t>;
  int32_t Count(int32_t slot) const;

  std::span<const int32_t> recv_, send_;
  int32_t rounds_;
  std::vector<int32_t> sent_;  // per slot: messages given this iteration
  std::vector<Entry> heap_;    // a min-heap by round, then slot
  std::vector<int32_t> due_;
};

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_MESSAGE_PLAN_H_
