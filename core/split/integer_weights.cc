#include "core/split/integer_weights.h"

#include <algorithm>
#include <cmath>

namespace rankmap::core {

std::vector<int32_t> ScaleToMetisWeights(std::span<const double> weights) {
  constexpr double kMaxWeight = 1 << 20;
  constexpr double kMaxSum = 1 << 30;
  double max_w = 0.0, sum = 0.0;
  for (double x : weights) {
    max_w = std::max(max_w, x);
    sum += x;
  }
  std::vector<int32_t> out(weights.size(), 0);
  if (max_w <= 0) return out;
  // Rounding up to 1 adds at most one unit per arc; reserve room for that in
  // the sum bound.
  const double room =
      std::max(1.0, kMaxSum - static_cast<double>(weights.size()));
  const double scale = std::min(kMaxWeight / max_w, room / sum);
  for (size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] > 0) {
      out[i] = std::max<int32_t>(
          1, static_cast<int32_t>(std::llround(weights[i] * scale)));
    }
  }
  return out;
}

std::vector<int32_t> IntegerVertexWeights(std::span<const double> weights,
                                          int32_t zero_as) {
  double total = 0.0;
  bool integral = true;
  for (double x : weights) {
    total += x;
    integral = integral && x == std::floor(x);
  }
  const double scale = (integral && total < (1 << 28))
                           ? 1.0
                           : (total > 0 ? (1 << 28) / total : 1.0);
  std::vector<int32_t> out(weights.size());
  for (size_t i = 0; i < weights.size(); ++i) {
    out[i] =
        weights[i] > 0
            ? std::max<int32_t>(
                  1, static_cast<int32_t>(std::llround(weights[i] * scale)))
            : zero_as;
  }
  return out;
}

}  // namespace rankmap::core
