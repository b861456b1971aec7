// tau-Lop cost expressions (seed 004, section 3): a cost is a set of sequences
// of transmissions progressing concurrently, e.g.
//   (T1(ma) + T0(mb) + T1(mb)) || (T0(mb) + T1(ma)) || (T1(ma) + T0(mb))
// (Fig. 3, Code 6).
//
// Semantics. A transmission tau || T^c(m) costs
//   T^c(m, tau) = o_c(m) + transfers_c * L_c(m, tau)
// when tau transfers share its link for its whole life. Inside a concurrent
// expression the heads of all sequences progress at once; a head's tau is the
// number of heads (counting each transmission's own multiplicity) on its link
// right now, and it advances at the rate 1 / T^c(m, tau), measured as the
// completed fraction of its message. When a head completes, the next
// transmission of its sequence starts and the link counts change. The cost is
// the time at which the last sequence completes. Consequences: sequences with
// no concurrency add; k equal messages started together on one link cost
// T^c(m, k); disjoint links do not interact (the cost is the max).
//
// Channels and links: `channel` picks the parameters (an index into the params
// array); `link` is the physical resource the transfer competes for (default
// -1: the channel itself). Separate links with the same parameters model,
// e.g., the memory systems of two machines.
//
// Usage (Code 6):
//   TauLopConcurrent conc;
//   conc.Add({{1, ma}, {0, mb}, {1, mb}})
//       .Add({{0, mb}, {1, ma}})
//       .Add({{1, ma}, {0, mb}});
//   ASSIGN_OR_RETURN(double t, EvaluateTauLop(conc, channels));
#ifndef RANKMAP_MODELS_COST_MODEL_TAULOP_H_
#define RANKMAP_MODELS_COST_MODEL_TAULOP_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "models/channel_params.h"

namespace rankmap::models {

// L(m, tau) of the channel's table (linear extrapolation of the per-byte time
// beyond the last entry, see channel_params.h); per-byte terms multiplied by
// byte_scale. tau >= 1.
double TauLopL(const TauLopParams& p, double bytes, int64_t tau,
               double byte_scale = 1.0);
// T^c(m, tau) = o(m) + transfers * L(m, tau).
double TauLopTime(const TauLopParams& p, double bytes, int64_t tau,
                  double byte_scale = 1.0);

struct TauLopTransmission {
  int32_t channel = 0;  // index into the params array
  double bytes = 0.0;
  // tau || T^c(m): this many identical transfers at once (>= 1).
  int32_t tau = 1;
  int64_t link = -1;  // sharing group; -1 = the channel
  // Multiplies the per-byte terms (heterogeneous pairs).
  double byte_scale = 1.0;
};

using TauLopSequence = std::vector<TauLopTransmission>;

struct TauLopConcurrent {
  std::vector<TauLopSequence> sequences;
  TauLopConcurrent& Add(TauLopSequence s) {
    sequences.push_back(std::move(s));
    return *this;
  }
};

// Time of the expression. Errors: channel outside params or with an empty
// table, tau < 1, negative or non-finite bytes or byte_scale. Complexity
// O(E * S) for E completion events (at most the number of transmissions;
// equal messages finishing together count once) and S sequences. When every
// sequence holds at most one transmission, links are independent and equal
// transmissions stay in step: each link costs O(K^2) for K distinct messages.
absl::StatusOr<double> EvaluateTauLop(const TauLopConcurrent& expr,
                                      std::span<const TauLopParams> channels);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_COST_MODEL_TAULOP_H_
