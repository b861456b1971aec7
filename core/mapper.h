// The front door of the engine: map the processes of a CommGraph onto the
// leaves of a Tree.
//
//   MappingOptions opts = MappingOptions::Preset("default").value();
//   opts.seed = 7;
//   ASSIGN_OR_RETURN(Mapping m, Map(tree, graph, opts));
//   ASSIGN_OR_RETURN(CostReport r, Cost(tree, graph, m));
//
// Contract: the result is a valid mapping (ValidateMapping OK: one entry per
// process, capacities respected); the same inputs and options give the same
// mapping on any machine (no wall-clock cut-offs change answers). Errors: more
// processes than total leaf capacity (one-to-one modes), an algorithm not
// available in this build, invalid options.
#ifndef RANKMAP_CORE_MAPPER_H_
#define RANKMAP_CORE_MAPPER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/baselines.h"  // Slots, IdentityMap, ...
#include "core/mapping.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Maps graph vertices (processes) to tree leaves. See the contract at the top
// of this file.
absl::StatusOr<Mapping> Map(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MAPPER_H_
