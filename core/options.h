// MappingOptions: how the engine maps (algorithm, seed, extensions), as a plain
// value.
//
// Kept apart from core/mapper.h so that every strategy (treematch,
// multisection, refine, baselines) can take the options without depending on
// the dispatcher that calls them.
//
//   ASSIGN_OR_RETURN(MappingOptions o, MappingOptions::Preset("fast"));
//   o.seed = 42;
//
// Invariants: options are values; no global state; the same options and inputs
// give the same mapping on any machine (threads never change results).
#ifndef RANKMAP_CORE_OPTIONS_H_
#define RANKMAP_CORE_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::core {

enum class Algorithm {
  kTreeMatch,     // bottom-up grouping (TreeMatch) with the extensions switched
                  // below
  kMultisection,  // top-down recursive multisection with METIS, then grouping
                  // inside nodes
  kPortfolio,     // run the engine's strategies and keep the lowest J
  kIdentity,      // process i on the i-th slot in leaf order (packed)
  kRoundRobin,    // processes dealt over the root's subtrees in turn
  kRandom,        // a random one-to-one placement (seeded)
  kMpipp,         // MPIPP-style pairwise swap search from random starts
  kScotch,        // SCOTCH_graphMap on the equivalent target, strict balance
};

// Parses "tm", "multisection", "portfolio", "identity", "round-robin",
// "random", "mpipp", "scotch".
absl::StatusOr<Algorithm> ParseAlgorithm(std::string_view name);
std::string_view AlgorithmName(Algorithm a);

struct MappingOptions {
  Algorithm algorithm = Algorithm::kPortfolio;
  uint64_t seed = 1;
  // Worker threads; results do not depend on this value. With 2 or more the
  // portfolio runs TreeMatch beside the multisection (METIS itself stays on
  // one thread).
  int32_t threads = 1;

  // TreeMatch extensions (each measured by bench/). With exact_pairing = false,
  // split_arities = false, refine = false and exhaustive_limit = 0, kTreeMatch
  // is the paper's algorithm (candidate groups + the three greedy
  // independent-set orders; greedy growth on levels too large to enumerate).
  // Arity 2 as maximum-weight perfect matching: branch and bound on levels of
  // at most 20 units (optimal unless its node budget runs out), heavy-edge
  // matching + 2-opt re-pairing above.
  // Boost's maximum_weighted_matching is not used: the Debian 1.74 version can
  // loop forever, crash or return non-optimal matchings (boostorg/graph #199,
  // #223, #399), and bad input must never hang.
  bool exact_pairing = true;
  int32_t exhaustive_limit =
      0;  // bounded exhaustive grouping for groups up to this size
  bool split_arities = true;  // 12 -> 3*2*2, 16 -> 2*2*2*2 where it helps
  bool refine = true;         // gain-driven swap refinement after mapping
  int32_t refine_rounds = 8;
  // Multisection effort: METIS attempts per split are multiplied by this; 2
  // or more also runs k-way beside recursive bisection in one-to-one mode and
  // keeps the smaller cut.
  int32_t metis_effort = 1;
  // MPIPP baseline: number of random starts (each followed by swap search).
  int32_t mpipp_starts = 1;

  // n-to-1 mapping (more vertices than slots): allowed imbalance of vertex
  // weight per leaf relative to its capacity share.
  double imbalance = 0.03;

  // Named presets: "default" (the values above: portfolio of TreeMatch and
  // multisection, TreeMatch refined only when it is within 2% of the refined
  // multisection); "fast" (TreeMatch alone, heavy-edge pairing,
  // 2 refinement rounds; a small fraction of default's time); "strong"
  // (metis_effort 2, 32 refinement rounds, 4 MPIPP starts; about 5x default's
  // time). Exhaustive grouping is in no preset: on the bench it did not pay.
  static absl::StatusOr<MappingOptions> Preset(std::string_view name);
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_OPTIONS_H_
