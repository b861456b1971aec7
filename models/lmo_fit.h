// Estimating LMO's per-processor and per-pair parameters from communication
// experiments between pairs and triplets of processors (seed 004 section 2.2:
// point-to-point experiments cannot separate the 2P + P^2 parameters, so
// "collective experiments between triplets of processors" are added and a
// linear system is solved).
//
// The experiments, with eq. 8's T_ij(m) = C_i + t_i m + L_ij + m / beta_ij +
// C_j + t_j m and every reply empty:
//   round trip   i -> j -> i:          R_ij(m) = T_ij(m) + T_ji(0)
//                = 2 (C_i + L_ij + C_j) + m (t_i + 1 / beta_ij + t_j);
//   one-to-two   i -> {j, k} -> i:     i processes its two sends and, later,
//                two receives one after the other, the transfers overlap:
//                O_i(jk)(m) = 4 C_i + 2 t_i m + max over x in {j, k} of
//                             (2 L_ix + 2 C_x + t_x m + m / beta_ix).
// Then O_i(jk)(m) - max(R_ij(m), R_ik(m)) = 2 C_i + t_i m exactly: with m = 0
// and m = M > 0 each triplet gives C_i and t_i for each of its three roots.
// The estimate of C_i and t_i is the mean over the triplets containing i (the
// least-squares solution of those equations); L_ij and 1 / beta_ij follow
// from the pair's round trips:
//   L_ij = R_ij(0) / 2 - C_i - C_j,
//   1 / beta_ij = (R_ij(M) - R_ij(0)) / M - t_i - t_j.
// Measurement noise can make an estimate negative: it is clamped to 0 (rate
// 1e30 for a per-byte network time <= 0) and counted in `clamped`.
//
// Usage:
//   LmoExperiments e(p, 65536);
//   e.roundtrip(i, j, 0) = ...;  e.roundtrip(i, j, 1) = ...;
//   e.one_to_two(i, j, k, 0) = ...;  ...
//   ASSIGN_OR_RETURN(LmoEstimate est, EstimateLmo(e));
#ifndef RANKMAP_MODELS_LMO_FIT_H_
#define RANKMAP_MODELS_LMO_FIT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::models {

// Measured times (seconds) of the experiments above among p processors; size
// index 0 is m = 0, index 1 is m = message_bytes. Unmeasured entries are NaN.
class LmoExperiments {
 public:
  LmoExperiments(int32_t p, double message_bytes);

  int32_t num_processors() const { return p_; }
  double message_bytes() const { return m_; }
  // R_ij; i != j (the matrix need not be symmetric: both directions may be
  // measured and are averaged).
  double& roundtrip(int32_t i, int32_t j, int size);
  double roundtrip(int32_t i, int32_t j, int size) const;
  // O_i(jk) with j < k, both != i.
  double& one_to_two(int32_t i, int32_t j, int32_t k, int size);
  double one_to_two(int32_t i, int32_t j, int32_t k, int size) const;

 private:
  int32_t p_;
  double m_;
  std::vector<double> roundtrip_;   // [size][i][j]
  std::vector<double> one_to_two_;  // [size][i][j][k]
};

struct LmoEstimate {
  std::vector<double> C;     // per processor, s
  std::vector<double> t;     // per processor, s/byte
  std::vector<double> L;     // p x p, symmetric, s (0 on the diagonal)
  std::vector<double> rate;  // p x p, symmetric, bytes/s
  int32_t clamped = 0;       // negative estimates set to 0
};

// Errors: fewer than 3 processors, message size not > 0, a round trip of a
// pair or a one-to-two of a triplet not measured (in neither direction / for
// no root), a negative or non-finite time. O(p^3).
absl::StatusOr<LmoEstimate> EstimateLmo(const LmoExperiments& e);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_LMO_FIT_H_
