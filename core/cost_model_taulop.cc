#include "core/cost_model_taulop.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace rankmap::core {

double TauLopL(const TauLopParams& p, double bytes, int64_t tau,
               double byte_scale) {
  const int64_t k = static_cast<int64_t>(p.table.size());
  if (tau <= k) {
    const TauLopPoint& e = p.table[tau - 1];
    return e.latency + bytes * e.per_byte * byte_scale;
  }
  // Beyond the measured concurrency the bandwidth is shared: per-byte time
  // grows as tau / K.
  const TauLopPoint& e = p.table[k - 1];
  return e.latency +
         bytes * e.per_byte * byte_scale * (static_cast<double>(tau) / k);
}

double TauLopTime(const TauLopParams& p, double bytes, int64_t tau,
                  double byte_scale) {
  return p.o + p.o_per_byte * bytes +
         p.transfers * TauLopL(p, bytes, tau, byte_scale);
}

absl::StatusOr<double> EvaluateTauLop(const TauLopConcurrent& expr,
                                      std::span<const TauLopParams> channels) {
  // Flatten, validate, and give every sharing group a dense id.
  const size_t num_seq = expr.sequences.size();
  std::vector<const TauLopTransmission*> flat;
  std::vector<size_t> seq_end(num_seq);
  std::vector<int64_t> keys;
  for (size_t s = 0; s < num_seq; ++s) {
    for (const TauLopTransmission& t : expr.sequences[s]) {
      if (t.channel < 0 || static_cast<size_t>(t.channel) >= channels.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("taulop: sequence ", s, ": channel ", t.channel,
                         " outside [0, ", channels.size(), ")"));
      }
      if (channels[t.channel].table.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "taulop: channel ", t.channel, " has an empty L(m, tau) table"));
      }
      if (t.tau < 1 || !std::isfinite(t.bytes) || t.bytes < 0 ||
          !std::isfinite(t.byte_scale) || t.byte_scale < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "taulop: sequence ", s, ": transmission with tau ", t.tau,
            ", bytes ", t.bytes, ", byte_scale ", t.byte_scale,
            " (need tau >= 1, finite non-negative sizes)"));
      }
      flat.push_back(&t);
      keys.push_back(t.link >= 0 ? 2 * t.link
                                 : 2 * static_cast<int64_t>(t.channel) + 1);
    }
    seq_end[s] = flat.size();
  }
  std::vector<int64_t> unique_keys = keys;
  std::sort(unique_keys.begin(), unique_keys.end());
  unique_keys.erase(std::unique(unique_keys.begin(), unique_keys.end()),
                    unique_keys.end());
  std::vector<int32_t> group(flat.size());
  for (size_t i = 0; i < flat.size(); ++i) {
    group[i] = static_cast<int32_t>(
        std::lower_bound(unique_keys.begin(), unique_keys.end(), keys[i]) -
        unique_keys.begin());
  }

  // Simulation state: the head of every sequence and its completed fraction.
  std::vector<size_t> head(num_seq);
  std::vector<double> done(num_seq, 0.0);
  std::vector<int64_t> load(unique_keys.size(), 0);
  std::vector<double> full(num_seq,
                           0.0);  // T of the head under the current loads
  bool singletons = true;
  for (size_t s = 0; s < num_seq; ++s) {
    head[s] = s == 0 ? 0 : seq_end[s - 1];
    if (head[s] < seq_end[s]) load[group[head[s]]] += flat[head[s]]->tau;
    singletons &= seq_end[s] - head[s] <= 1;
  }
  // Independent runs: when no sequence has a successor, sequences of different
  // links never interact, so each link is simulated alone (O(sum of n_link^2)
  // instead of O(n^2)).
  std::vector<std::vector<size_t>> runs;
  if (singletons) {
    runs.resize(unique_keys.size());
    for (size_t s = 0; s < num_seq; ++s) {
      if (head[s] < seq_end[s]) runs[group[head[s]]].push_back(s);
    }
  } else {
    runs.emplace_back();
    for (size_t s = 0; s < num_seq; ++s) runs[0].push_back(s);
  }
  double total = 0.0;
  for (std::vector<size_t>& active : runs) {
    double elapsed = 0.0;
    while (true) {
      // Drop completed sequences, then find the next completion.
      active.erase(
          std::remove_if(active.begin(), active.end(),
                         [&](size_t s) { return head[s] == seq_end[s]; }),
          active.end());
      if (active.empty()) break;
      double dt = std::numeric_limits<double>::infinity();
      for (size_t s : active) {
        const TauLopTransmission& t = *flat[head[s]];
        full[s] = TauLopTime(channels[t.channel], t.bytes, load[group[head[s]]],
                             t.byte_scale);
        dt = std::min(dt, (1.0 - done[s]) * full[s]);
      }
      elapsed += dt;
      // Heads whose remaining time is within rounding of dt complete together
      // (equal messages).
      const double limit = dt * (1.0 + 1e-12);
      for (size_t s : active) {
        if ((1.0 - done[s]) * full[s] <= limit) {
          load[group[head[s]]] -= flat[head[s]]->tau;
          ++head[s];
          done[s] = 0.0;
          if (head[s] < seq_end[s]) load[group[head[s]]] += flat[head[s]]->tau;
        } else {
          done[s] += dt / full[s];
        }
      }
    }
    total = std::max(total, elapsed);
  }
  return total;
}

}  // namespace rankmap::core
