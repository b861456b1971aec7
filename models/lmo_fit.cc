#include "models/lmo_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"

namespace rankmap::models {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

absl::Status Invalid(const std::string& msg) {
  return absl::InvalidArgumentError(absl::StrCat("lmo fit: ", msg));
}

}  // namespace

LmoExperiments::LmoExperiments(int32_t p, double message_bytes)
    : p_(std::max(p, 0)),
      m_(message_bytes),
      roundtrip_(2 * static_cast<size_t>(p_) * p_, kNaN),
      one_to_two_(2 * static_cast<size_t>(p_) * p_ * p_, kNaN) {}

double& LmoExperiments::roundtrip(int32_t i, int32_t j, int size) {
  return roundtrip_[(static_cast<size_t>(size) * p_ + i) * p_ + j];
}

double LmoExperiments::roundtrip(int32_t i, int32_t j, int size) const {
  return roundtrip_[(static_cast<size_t>(size) * p_ + i) * p_ + j];
}

double& LmoExperiments::one_to_two(int32_t i, int32_t j, int32_t k, int size) {
  return one_to_two_[((static_cast<size_t>(size) * p_ + i) * p_ + j) * p_ + k];
}

double LmoExperiments::one_to_two(int32_t i, int32_t j, int32_t k,
                                  int size) const {
  return one_to_two_[((static_cast<size_t>(size) * p_ + i) * p_ + j) * p_ + k];
}

absl::StatusOr<LmoEstimate> EstimateLmo(const LmoExperiments& e) {
  const int32_t p = e.num_processors();
  const double m = e.message_bytes();
  if (p < 3) {
    return Invalid(absl::StrCat("needs at least 3 processors, got ", p));
  }
  if (!std::isfinite(m) || m <= 0) {
    return Invalid(absl::StrCat("message size ", m, " must be > 0"));
  }
  auto bad = [](double x) { return !std::isnan(x) && !(x >= 0 && x < 1e30); };
  // Round trips, both directions averaged: r[size][i * p + j].
  std::vector<double> r[2];
  for (int size = 0; size < 2; ++size) {
    r[size].assign(static_cast<size_t>(p) * p, 0.0);
    for (int32_t i = 0; i < p; ++i) {
      for (int32_t j = i + 1; j < p; ++j) {
        const double a = e.roundtrip(i, j, size), b = e.roundtrip(j, i, size);
        if (bad(a) || bad(b)) {
          return Invalid(absl::StrCat("round trip ", i, " <-> ", j,
                                      " has a negative or non-finite time"));
        }
        if (std::isnan(a) && std::isnan(b)) {
          return Invalid(absl::StrCat("round trip ", i, " <-> ", j, " (",
                                      size == 0 ? "empty" : "full",
                                      " message) not measured"));
        }
        const double v = std::isnan(a) ? b : std::isnan(b) ? a : 0.5 * (a + b);
        r[size][static_cast<size_t>(i) * p + j] = v;
        r[size][static_cast<size_t>(j) * p + i] = v;
      }
    }
  }
  LmoEstimate est;
  est.C.assign(p, 0.0);
  est.t.assign(p, 0.0);
  for (int32_t i = 0; i < p; ++i) {
    double sum_c = 0, sum_t = 0;
    int n = 0;
    for (int32_t j = 0; j < p; ++j) {
      for (int32_t k = j + 1; k < p; ++k) {
        if (j == i || k == i) continue;
        const double o0 = e.one_to_two(i, j, k, 0);
        const double o1 = e.one_to_two(i, j, k, 1);
        if (bad(o0) || bad(o1)) {
          return Invalid(absl::StrCat("one-to-two ", i, " -> {", j, ", ", k,
                                      "} has a negative or non-finite time"));
        }
        if (std::isnan(o0) || std::isnan(o1)) continue;
        // 2 C_i + t_i m at m = 0 and m = M.
        const double d0 = o0 - std::max(r[0][static_cast<size_t>(i) * p + j],
                                        r[0][static_cast<size_t>(i) * p + k]);
        const double d1 = o1 - std::max(r[1][static_cast<size_t>(i) * p + j],
                                        r[1][static_cast<size_t>(i) * p + k]);
        sum_c += d0 / 2;
        sum_t += (d1 - d0) / m;
        ++n;
      }
    }
    if (n == 0) {
      return Invalid(absl::StrCat("processor ", i,
                                  " is the root of no measured one-to-two"));
    }
    est.C[i] = sum_c / n;
    est.t[i] = sum_t / n;
    if (est.C[i] < 0) {
      est.C[i] = 0;
      ++est.clamped;
    }
    if (est.t[i] < 0) {
      est.t[i] = 0;
      ++est.clamped;
    }
  }
  est.L.assign(static_cast<size_t>(p) * p, 0.0);
  est.rate.assign(static_cast<size_t>(p) * p, 1e30);
  for (int32_t i = 0; i < p; ++i) {
    for (int32_t j = 0; j < p; ++j) {
      if (i == j) continue;
      const size_t k = static_cast<size_t>(i) * p + j;
      double l = r[0][k] / 2 - est.C[i] - est.C[j];
      double inv = (r[1][k] - r[0][k]) / m - est.t[i] - est.t[j];
      if (l < 0) {
        l = 0;
        est.clamped += i < j;
      }
      if (inv <= 0) {
        est.clamped += i < j;
      } else {
        est.rate[k] = 1.0 / inv;
      }
      est.L[k] = l;
    }
  }
  return est;
}

}  // namespace rankmap::models
