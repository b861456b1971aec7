// Channel parameters of the communication-time models (seed 004): for every
// level of a topology::Tree, how long a message of m bytes takes between two
// processes whose leaves have their lowest common ancestor (LCA) there.
//
// A channel is chosen by the depth of the LCA of the two leaves; two processes
// on the same leaf (oversubscription) use the `self` channel. Where the LCA
// carries a child-pair cost matrix (per-cluster-pair bandwidths), the per-byte
// terms of the depth's channel are scaled by pair_cost(i, j) / (largest pair
// cost of that node): the file describes the slowest pair.
//
// Models and their per-channel parameters (seconds, bytes):
//   Hockney  T(m) = alpha + beta m
//   LMO      T(m) = L + Cs + ts m + Cr + tr m + m / rate   (eq. 8,
//            rate = beta_ij)
//   HLogGP   T(m) = L + os + or + (m - 1) G   (eq. 5); g = gap between two
//            sends of one process
//   tau-Lop  T(m, tau) = o(m) + transfers * L(m, tau), o(m) = o + o_per_byte m,
//            L(m, tau) a table of (latency, per_byte) for tau = 1..K
//            concurrent transfers; beyond K the per-byte time grows as tau / K
//            (the channel's bandwidth is shared).
//
// Parameter file (text, one rule per line, '#' starts a comment, later rules
// win):
//   level <selector> <model> key=value [key=value ...]
//   proc <processor> <model> key=value ...        (LMO, HLogGP only)
//   pair <processor> <processor> <model> key=value ...
// Selectors: a depth (0 = root); `self`; `*` (every channel); `internode` (the
// depths whose default group below is network: clusters, switches and
// anything above a node); `intranode` (the other depths and self); a level
// kind, case-insensitive, also one part of a merged kind (`Package` selects
// Machine+Package+NUMANode+L3Cache; aliases pack, socket, numa, node); or a
// class: core, socket, numa, node, cluster, network (models/level_classes.h).
// A selector selects every depth where some node matches it. Keys per model:
//   hockney  alpha beta
//   lmo      L Cs ts Cr tr rate  (C and t set both ends)
//   hloggp   L os or g G
//   taulop   o o_per_byte transfers L1=lat,per_byte L2=...  (Lk: tau = k)
// Per processor and per pair (seed 004 section 2; processor selectors and
// semantics in processor_params.h): `proc` takes lmo C t (C_i, t_i: used as Cs,
// ts when the processor sends and Cr, tr when it receives) and hloggp os or g;
// `pair` takes lmo L rate (L_ij, beta_ij) and hloggp L G, for both directions.
// Example:
//   level internode hockney alpha=1.5e-6 beta=8e-10
//   level Package taulop o=1e-7 transfers=2 L1=2e-7,1e-10 L2=2e-7,1.7e-10
//   proc node3 lmo C=4e-6 t=2e-10
//   pair node3 node7 lmo L=3e-5 rate=1.1e8
// Values are bounded: per-message times at most 1e6 s, per-byte times at
// most 1e3 s, rates at least 1 byte/s.
// Errors name file:line and the field:
//   p.txt:3: field 'alfa': unknown hockney key
//
// Usage:
//   ASSIGN_OR_RETURN(ModelParams p, ReadModelParams("machine.params", tree));
//   const ChannelParams& c = p.levels[tree.depth(tree.Lca(a, b))];
#ifndef RANKMAP_MODELS_CHANNEL_PARAMS_H_
#define RANKMAP_MODELS_CHANNEL_PARAMS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "models/processor_params.h"
#include "topology/tree.h"

namespace rankmap::models {

enum class Model { kHockney, kLmo, kHLogGP, kTauLop };

// "hockney", "lmo", "hloggp", "taulop" (case-insensitive); other names are
// errors.
absl::StatusOr<Model> ParseModel(std::string_view name);
const char* ModelName(Model model);

struct HockneyParams {
  double alpha = 0.0;  // latency, s
  double beta = 0.0;   // s per byte
};

struct LmoParams {
  double L = 0.0;      // fixed network delay L_ij, s
  double Cs = 0.0;     // fixed processing delay of the sender C_i, s
  double ts = 0.0;     // per-byte delay of the sender t_i, s/byte
  double Cr = 0.0;     // receiver C_j
  double tr = 0.0;     // receiver t_j
  double rate = 1e30;  // transmission rate beta_ij, bytes/s (> 0)
};

struct HLogGPParams {
  double L = 0.0;   // latency L_ij
  double os = 0.0;  // send overhead
  // Receive overhead: "or" in files (`or` is a C++ keyword).
  double orecv = 0.0;
  double g = 0.0;  // gap between consecutive sends of one process
  double G = 0.0;  // gap per byte
};

struct TauLopPoint {
  double latency = 0.0;   // s
  double per_byte = 0.0;  // s/byte
};

struct TauLopParams {
  // Overhead o(m) = o + o_per_byte m.
  double o = 0.0;
  double o_per_byte = 0.0;
  // L(m, tau) terms per transmission (2 for copy-in/copy-out shared memory).
  int32_t transfers = 1;
  // table[k - 1]: L for tau = k; never empty.
  std::vector<TauLopPoint> table = {TauLopPoint{}};
};

struct ChannelParams {
  HockneyParams hockney;
  LmoParams lmo;
  HLogGPParams hloggp;
  TauLopParams taulop;
};

// Parameters resolved for one tree.
struct ModelParams {
  // levels[d]: channel of two leaves whose LCA has depth d; size tree.height().
  std::vector<ChannelParams> levels;
  // Two processes on the same leaf.
  ChannelParams self;
  // Per-processor and per-pair LMO / HLogGP values (`proc`, `pair` rules).
  PointParams points;
};

// Defaults per level, by its group (models/level_classes.h): cache (Core,
// caches), socket (Package, NUMANode, Die, Group), node (Machine, System) and
// network (clusters, switches, anything above a node). Trees without hwloc
// kinds (tleaf) are classified from the bottom: the parents of the leaves are
// cache, then socket, node, network; a network spec's tleaf nodes are nodes.
// Every model of one group agrees on a single message (T(m) = alpha + beta m).
// Values are orders of magnitude of current hardware, not measurements:
// calibrate (examples/calibrate_mpi) for real predictions.
//   cache: 2e-7 s + 5e-11 s/B, socket: 3e-7 + 1e-10, node: 5e-7 + 2e-10,
//   network: 1.5e-6 + 8e-10.
// A tree with links (topology/link.h) gives them instead: the channel of
// depth d is the route of the first node at depth d (Tree::LcaRoute), alpha its
// latency and beta one over its bandwidth, for every model; `self` is the
// loopback of leaf 0's host. Depths without a link keep the class defaults.
ModelParams DefaultModelParams(const topology::Tree& tree);

// One parsed line of a parameter file, not yet applied to a tree.
struct ParamRule {
  std::string source;  // file name (for messages)
  int32_t line = 0;
  // "level" (selector), or "proc" / "pair" (one or two processor selectors).
  std::string keyword = "level";
  std::vector<std::string> processors;
  std::string selector;
  Model model = Model::kHockney;
  // key -> values: one value, or two for tau-Lop's "Lk=lat,per_byte".
  std::vector<std::pair<std::string, std::vector<double>>> values;
};

// Syntax check and parse; `source` names the text in messages. Errors:
// unknown keyword, model or key, missing '=', non-numeric, negative or
// non-finite value, rate <= 0, transfers not an integer in [1, 1024], table
// index outside [1, 1024]. O(text length).
absl::StatusOr<std::vector<ParamRule>> ParseModelParams(
    std::string_view text, std::string_view source);

// Defaults for the tree, then every rule in order. Errors (file:line): a depth,
// kind or class that selects nothing in this tree (the message lists the
// tree's levels), a tau-Lop table with a hole (L3
// without L2).
absl::StatusOr<ModelParams> ResolveModelParams(
    const std::vector<ParamRule>& rules, const topology::Tree& tree);

// Reads, parses and resolves the file at `path`. Errors: an unreadable file,
// and those of the two functions above.
absl::StatusOr<ModelParams> ReadModelParams(const std::string& path,
                                            const topology::Tree& tree);

// One file line for the given model's parameters of `channel` (round-trips
// through ParseModelParams with 17 significant digits).
std::string FormatParamRule(std::string_view selector, Model model,
                            const ChannelParams& channel);
// `proc` and `pair` lines with the values that are set for `model` (LMO or
// HLogGP), 17 significant digits.
std::string FormatProcessorRule(std::string_view processor, Model model,
                                const ProcessorParams& values);
std::string FormatPairRule(std::string_view a, std::string_view b, Model model,
                           const PairParams& values);

// The LMO / HLogGP parameters of a transmission from leaf a to leaf b over a
// channel with `level` parameters: the sender's C, t (os, g), the receiver's
// C, t (or) and the pair's L, rate (L, G) where `points` has them. When the
// pair's own rate (or G) is used, *byte_scale (the pair-cost scaling of the
// level's value) is reset to 1. O(log pairs).
LmoParams PointLmo(const LmoParams& level, const PointParams& points, LeafId a,
                   LeafId b, double* byte_scale);
HLogGPParams PointHLogGP(const HLogGPParams& level, const PointParams& points,
                         LeafId a, LeafId b, double* byte_scale);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_CHANNEL_PARAMS_H_
