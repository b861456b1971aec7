// The front door of the engine: map the processes of a CommGraph onto the leaves of a Tree.
//
//   MappingOptions opts = MappingOptions::Preset("default").value();
//   opts.seed = 7;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, opts));
//   ASSIGN_OR_RETURN(CostReport r, Cost(tree, graph, m));
//
// Contract: the result is a valid mapping (ValidateMapping OK: one entry per process, capacities
// respected); the same inputs and options give the same mapping on any machine (no wall-clock
// cut-offs change answers). Errors: more processes than total leaf capacity (one-to-one modes),
// an algorithm not available in this build, invalid options.
#ifndef RANKMAP_CORE_MAPPER_H_
#define RANKMAP_CORE_MAPPER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

enum class Algorithm {
  kTreeMatch,     // bottom-up grouping (TreeMatch) with the extensions switched below
  kMultisection,  // top-down recursive multisection with METIS, then grouping inside nodes
  kPortfolio,     // run the engine's strategies and keep the lowest J
  kIdentity,      // process i on the i-th slot in leaf order (packed)
  kRoundRobin,    // processes dealt over the root's subtrees in turn
  kRandom,        // a random one-to-one placement (seeded)
  kMpipp,         // MPIPP-style pairwise swap search from random starts
  kScotch,        // SCOTCH_graphMap on the equivalent target, strict balance
};

// Parses "tm", "multisection", "portfolio", "identity", "round-robin", "random", "mpipp",
// "scotch".
absl::StatusOr<Algorithm> ParseAlgorithm(std::string_view name);
std::string_view AlgorithmName(Algorithm a);

struct MappingOptions {
  Algorithm algorithm = Algorithm::kPortfolio;
  uint64_t seed = 1;
  // Worker threads; results do not depend on this value.
  int32_t threads = 1;

  // TreeMatch extensions (each measured by bench/).
  bool exact_pairing = true;     // arity 2 as maximum-weight perfect matching
  int32_t exhaustive_limit = 0;  // bounded exhaustive grouping for groups up to this size
  bool split_arities = true;     // 12 -> 3*2*2, 16 -> 2*2*2*2 where it helps
  bool refine = true;            // gain-driven swap refinement after mapping
  int32_t refine_rounds = 8;

  // n-to-1 mapping (more vertices than slots): allowed imbalance of vertex weight per leaf
  // relative to its capacity share.
  double imbalance = 0.03;

  // Named presets: "fast", "default", "strong".
  static absl::StatusOr<MappingOptions> Preset(std::string_view name);
};

// Maps graph vertices (processes) to tree leaves. See the contract at the top of this file.
absl::StatusOr<Mapping> Map(const topology::Tree& tree, const graphs::CommGraph& graph,
                            const MappingOptions& options);

// The slots of a tree in leaf order: leaf l appears capacity(l) times. Identity placement puts
// process i on slots[i].
std::vector<LeafId> Slots(const topology::Tree& tree);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MAPPER_H_
