// Fitting model parameters from measured message times (calibration; the MPI
// benchmark that measures them is examples/calibrate_mpi.cc).
//
// A sample is (bytes, seconds). Hockney's alpha and beta are the intercept and
// slope of the least-squares line through ping-pong samples (one-way times).
// tau-Lop's L(m, tau) is fitted the same way per tau from samples of tau
// concurrent transfers of m bytes each on one channel, each sample being the
// time until all tau complete; with point-to-point measurements o and L cannot
// be told apart, so the fitted channel has o = 0 and one transfer.
//
// Usage:
//   ASSIGN_OR_RETURN(LinearFit f, FitLine(samples));  // intercept, slope
//   ASSIGN_OR_RETURN(HockneyParams h, FitHockney(samples));
//   ASSIGN_OR_RETURN(TauLopParams t, FitTauLop({samples_tau1, samples_tau2}));
#ifndef RANKMAP_MODELS_COST_MODEL_FIT_H_
#define RANKMAP_MODELS_COST_MODEL_FIT_H_

#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "models/channel_params.h"

namespace rankmap::models {

struct Sample {
  double bytes = 0.0;
  double seconds = 0.0;
};

struct LinearFit {
  double intercept = 0.0;
  double slope = 0.0;
  double rms_residual = 0.0;  // sqrt(mean squared residual)
};

// Ordinary least squares seconds = intercept + slope * bytes. Errors: fewer
// than two distinct sizes, negative or non-finite values. O(n).
absl::StatusOr<LinearFit> FitLine(std::span<const Sample> samples);

// FitLine, with negative intercept or slope (measurement noise) clamped to 0.
absl::StatusOr<HockneyParams> FitHockney(std::span<const Sample> samples);

// per_tau[k - 1]: samples for tau = k. The per-byte times are made
// non-decreasing in tau (more sharing is never faster; noise is clamped).
// Errors: no tau, FitLine errors (naming tau).
absl::StatusOr<TauLopParams> FitTauLop(
    const std::vector<std::vector<Sample>>& per_tau);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_COST_MODEL_FIT_H_
