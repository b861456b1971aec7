#include "models/cost_model_taulop.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace rankmap::models {

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

namespace {

// Relative tolerance under which two completions count as simultaneous.
constexpr double kSameTime = 1e-12;

// `count` equal transmissions (flat index `first`) sharing one link.
struct HeadClass {
  size_t first = 0;
  const TauLopTransmission* t = nullptr;
  int64_t count = 0;
  double done = 0.0;  // completed fraction
  double full = 0.0;  // T under the current load
};

absl::Status NotANumber() {
  return absl::InvalidArgumentError(
      "taulop: a transmission time is not a number (parameters overflow)");
}

// Time until every class of one link completes; NaN when a time is NaN.
double SimulateLink(std::vector<HeadClass>& classes,
                    std::span<const TauLopParams> channels) {
  int64_t load = 0;
  for (const HeadClass& c : classes) load += c.count * c.t->tau;
  double elapsed = 0.0;
  while (!classes.empty()) {
    double dt = std::numeric_limits<double>::infinity();
    for (HeadClass& c : classes) {
      c.full =
          TauLopTime(channels[c.t->channel], c.t->bytes, load, c.t->byte_scale);
      if (std::isnan(c.full)) return c.full;  // overflowing parameters
      dt = std::min(dt, (1.0 - c.done) * c.full);
    }
    elapsed += dt;
    const double limit = dt * (1.0 + kSameTime);
    for (HeadClass& c : classes) {
      if ((1.0 - c.done) * c.full <= limit) {
        load -= c.count * c.t->tau;
        c.count = 0;
      } else {
        c.done += dt / c.full;
      }
    }
    classes.erase(
        std::remove_if(classes.begin(), classes.end(),
                       [](const HeadClass& c) { return c.count == 0; }),
        classes.end());
  }
  return elapsed;
}

}  // namespace

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
  // T of each head under the current loads.
  std::vector<double> full(num_seq, 0.0);
  bool singletons = true;
  for (size_t s = 0; s < num_seq; ++s) {
    head[s] = s == 0 ? 0 : seq_end[s - 1];
    if (head[s] < seq_end[s]) load[group[head[s]]] += flat[head[s]]->tau;
    singletons &= seq_end[s] - head[s] <= 1;
  }
  // Independent links: when no sequence has a successor, sequences of
  // different links never interact, and equal transmissions of one link stay
  // in step; each link is simulated alone over its classes of equal
  // transmissions (O(sum over links of K^2) for K distinct messages).
  if (singletons) {
    std::vector<std::vector<size_t>> by_link(unique_keys.size());
    for (size_t s = 0; s < num_seq; ++s) {
      if (head[s] < seq_end[s]) by_link[group[head[s]]].push_back(head[s]);
    }
    auto key = [&flat](size_t i) {
      const TauLopTransmission& t = *flat[i];
      return std::make_tuple(t.channel, t.bytes, t.byte_scale, t.tau);
    };
    double total = 0.0;
    std::vector<HeadClass> classes;
    for (std::vector<size_t>& members : by_link) {
      std::sort(members.begin(), members.end(),
                [&](size_t x, size_t y) { return key(x) < key(y); });
      classes.clear();
      for (size_t i : members) {
        if (classes.empty() || key(i) != key(classes.back().first)) {
          classes.push_back({i, flat[i], 0});
        }
        ++classes.back().count;
      }
      const double t = SimulateLink(classes, channels);
      if (std::isnan(t)) return NotANumber();
      total = std::max(total, t);
    }
    return total;
  }
  std::vector<size_t> active(num_seq);
  for (size_t s = 0; s < num_seq; ++s) active[s] = s;
  double total = 0.0;
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
      if (std::isnan(full[s])) return NotANumber();
      dt = std::min(dt, (1.0 - done[s]) * full[s]);
    }
    total += dt;
    // Heads whose remaining time is within rounding of dt complete together.
    const double limit = dt * (1.0 + kSameTime);
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
  return total;
}

}  // namespace rankmap::models
