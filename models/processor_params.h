// Per-processor and per-pair parameters of the heterogeneous point-to-point
// models (seed 004 section 2): LMO's fixed and per-byte processing delays C_i,
// t_i and HLogGP's overheads o_Si, o_Ri and gap g_i belong to a processor; the
// network terms, LMO's L_ij and transmission rate beta_ij and HLogGP's L_ij and
// G_ij, to a pair. A processor is a leaf of the topology::Tree the parameters
// are resolved on. Values given here override, for the processors and pairs
// they name, the channel of the pair's level (channel_params.h); anything not
// given falls back to it.
//
// Pairs are symmetric: a round trip cannot tell the two directions apart, and
// eq. 8's beta_ij is a property of the channel between i and j.
//
// Processor selectors (in `proc` and `pair` lines of parameter files):
//   <leaf>          a logical leaf index, e.g. 17
//   <host>          every leaf of that host (network specs name hosts)
//   <host>:<os>     the leaf of that host with hwloc os index <os>
//
// Usage:
//   ASSIGN_OR_RETURN(std::vector<LeafId> l, ResolveProcessors("n3:5", tree));
//   PointParams pp;
//   pp.processor(l[0]).lmo_c = 2e-6;
//   pp.pair(0, 1).lmo_rate = 1.1e9;
//   if (const PairParams* q = pp.FindPair(1, 0)) ...
#ifndef RANKMAP_MODELS_PROCESSOR_PARAMS_H_
#define RANKMAP_MODELS_PROCESSOR_PARAMS_H_

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::models {

using topology::LeafId;

struct ProcessorParams {
  std::optional<double> lmo_c;      // C_i, s
  std::optional<double> lmo_t;      // t_i, s/byte
  std::optional<double> hloggp_os;  // o_Si, s
  std::optional<double> hloggp_or;  // o_Ri, s
  std::optional<double> hloggp_g;   // g_i, s
  friend bool operator==(const ProcessorParams&,
                         const ProcessorParams&) = default;
};

struct PairParams {
  std::optional<double> lmo_l;     // L_ij, s
  std::optional<double> lmo_rate;  // beta_ij, bytes/s
  std::optional<double> hloggp_l;  // L_ij, s
  std::optional<double> hloggp_G;  // G_ij, s/byte
  friend bool operator==(const PairParams&, const PairParams&) = default;
};

// Sparse per-leaf and per-pair values. Lookups allocate nothing: O(1) per
// processor, O(log pairs) per pair.
class PointParams {
 public:
  bool empty() const { return processors_.empty() && pairs_.empty(); }

  // Null when nothing was given for the leaf or pair.
  const ProcessorParams* FindProcessor(LeafId leaf) const;
  const PairParams* FindPair(LeafId a, LeafId b) const;

  // For writing; leaf >= 0, a != b.
  ProcessorParams& processor(LeafId leaf);
  PairParams& pair(LeafId a, LeafId b);

 private:
  std::vector<ProcessorParams> processors_;  // up to the largest leaf written
  std::vector<char> has_processor_;
  // Sorted by (min, max) leaf.
  std::vector<std::pair<std::pair<LeafId, LeafId>, PairParams>> pairs_;
};

// The leaves a selector names (see the top of this file), in increasing order.
// Errors (InvalidArgument, the message without file:line): a leaf index out of
// range, a host or host:os that no leaf has.
absl::StatusOr<std::vector<LeafId>> ResolveProcessors(
    std::string_view selector, const topology::Tree& tree);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_PROCESSOR_PARAMS_H_
