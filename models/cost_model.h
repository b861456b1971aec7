// Model-based communication time (seed 004): how many seconds a communication
// Flow takes when its processes are placed by a Mapping on a topology::Tree
// whose levels have the channel parameters of channel_params.h.
//
// The channel of a transmission src -> dst is the level of the lowest common
// ancestor of mapping[src] and mapping[dst] (`self` when they share a leaf).
//
// Per model:
// * Hockney, LMO, HLogGP (point-to-point models without contention): a
//   transmission costs alpha + beta m (Hockney), eq. 8 (LMO) or eq. 5 (HLogGP,
//   (m - 1) clamped at 0, and at least the gap g), with the sender's,
//   receiver's and pair's own values where the parameters have them
//   (processor_params.h). As in eqs. 6-7, process i's
//   cost in a phase is the sum over the transmissions it sends, and the phase
//   costs the max over processes.
// * tau-Lop: every transmission of a phase is a one-element sequence of a
//   concurrent expression (eqs. 3-4, Code 9) evaluated by cost_model_taulop.h.
//   Transfers compete when they share a link (TauLopSharing): by default the
//   LCA node (two machines' memory systems are separate links; a switch is
//   one shared network); kPerLevel: all transfers of one level (the tau-Lop
//   library's one shared-memory and one network channel); kPerSenderUplink:
//   the uplink of the sender's subtree into the LCA (a node's NIC).
// A flow costs the sum over phases of repetitions * phase cost.
//
// Monotonicity: with parameters no larger at deeper levels, moving a pair that
// talks only to itself from two machines into an otherwise idle socket never
// increases the time, under every model (tau-Lop with per-LCA or uplink
// sharing; with per-level sharing the pair joins the other sockets' transfers
// and may slow them down).
//
// Usage:
//   ASSIGN_OR_RETURN(Model model, ParseModel("taulop"));
//   ASSIGN_OR_RETURN(ModelParams params, ReadModelParams(path, tree));
//   // or: ModelParams params = DefaultModelParams(tree);
//   Flow flow = HaloFlow(graph);
//   ASSIGN_OR_RETURN(double s, PredictTime(model, params, tree, flow, m));
#ifndef RANKMAP_MODELS_COST_MODEL_H_
#define RANKMAP_MODELS_COST_MODEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "models/channel_params.h"
#include "models/cost_model_taulop.h"
#include "models/flow.h"
#include "topology/tree.h"

namespace rankmap::models {

using core::Mapping;
using topology::LeafId;
using topology::NodeId;

// Single-message times; byte_scale multiplies the per-byte (network) terms.
double HockneyTime(const HockneyParams& p, double bytes,
                   double byte_scale = 1.0);
// Eq. 8: L + Cs + ts m + Cr + tr m + byte_scale * m / rate.
double LmoTime(const LmoParams& p, double bytes, double byte_scale = 1.0);
// Eq. 5: L + os + or + max(m - 1, 0) * G * byte_scale.
double HLogGPTime(const HLogGPParams& p, double bytes, double byte_scale = 1.0);

// Which tau-Lop transfers compete for one link (see the top of this file).
enum class TauLopSharing {
  // One link per LCA node: a machine's memory system; a switch (one shared
  // network).
  kPerLcaNode,
  // One link per level: the tau-Lop library's two channels (shared memory and
  // network).
  kPerLevel,
  // One link per sender-side child of the LCA: the uplink the message leaves
  // by (a node's network interface behind a full-bisection switch, a socket's
  // inter-socket link).
  kPerSenderUplink,
};

struct PredictOptions {
  TauLopSharing sharing = TauLopSharing::kPerLcaNode;
  // n-to-1 mappings: a leaf may hold more processes than its capacity (the
  // caller checks the balance, e.g. core::ValidatePartitionMapping); only
  // the length and the leaf ids are checked. Processes sharing a leaf talk
  // over the self channel.
  bool shared_leaves = false;
};

// Seconds for one execution of each phase (repetitions not applied), in phase
// order. Errors: invalid flow (ValidateFlow) or mapping (ValidateMapping for
// flow.num_processes, or only leaf ids with options.shared_leaves), params not
// made for this tree (levels.size() != tree.height()). Complexity per phase of
// T transmissions: O(T * depth) for the point-to-point models; for tau-Lop O(T
// * (depth + log T)) plus, per link, K^2 for its K distinct message sizes (a
// 16^3 stencil, 23k transmissions of random sizes on one switch: about 4 s;
// equal sizes: 0.1 s).
absl::StatusOr<std::vector<double>> PredictPhaseTimes(
    Model model, const ModelParams& params, const topology::Tree& tree,
    const Flow& flow, const Mapping& mapping,
    const PredictOptions& options = {});

// Sum over phases of repetitions * phase time (seconds). Errors as
// PredictPhaseTimes.
absl::StatusOr<double> PredictTime(Model model, const ModelParams& params,
                                   const topology::Tree& tree, const Flow& flow,
                                   const Mapping& mapping,
                                   const PredictOptions& options = {});

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_COST_MODEL_H_
