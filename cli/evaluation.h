// What several commands compute about a mapping: whether the input is n-to-1,
// J after validating the mapping, and the predicted time of one exchange under
// a communication model.
#ifndef RANKMAP_CLI_EVALUATION_H_
#define RANKMAP_CLI_EVALUATION_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli {

// More processes than slots: the mapping is a partition (several processes per
// leaf, within an imbalance bound) rather than one-to-one.
bool IsNToOne(const topology::Tree& tree, const graphs::CommGraph& graph);

// J of a mapping after checking it: one-to-one (capacities respected) or, with
// more processes than slots, n-to-1 (every leaf's load within `imbalance`).
// Errors: the validation's.
absl::StatusOr<double> CheckedJ(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const core::Mapping& mapping, double imbalance);

// Predicted seconds of one halo-style exchange (every edge both ways, one
// phase) under `model_name` (hockney, lmo, hloggp, taulop); parameters from
// the file `params_path`, or the per-level defaults when it is empty. Errors:
// an unknown model, an unreadable parameter file.
absl::StatusOr<double> PredictExchange(const std::string& model_name,
                                       const std::string& params_path,
                                       const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const core::Mapping& mapping);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_EVALUATION_H_
