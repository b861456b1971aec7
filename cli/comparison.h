// The comparison table of `rankmap compare` and `rankmap demo`: every
// algorithm and baseline on one input, with J, the ratios to identity and to
// the best row, and the time each took.
#ifndef RANKMAP_CLI_COMPARISON_H_
#define RANKMAP_CLI_COMPARISON_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "cli/evaluation.h"
#include "cli/progress.h"
#include "core/mapping.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli {

// Maps with every algorithm of core::Algorithms() (`base` with its algorithm
// replaced) and prints one row each on `out`. `model` null: rows in the
// table's order, "vs best" by J.
// Otherwise each row also gets the predicted exchange time under that model
// (see PredictExchange), rows are ranked by it and
// "vs best" compares it. The wall time is always the last column, so golden
// tests can mask it. An algorithm that fails internally prints its error in
// its row; bad input (InvalidArgument) stops the table. `best_mapping`, when
// not null, receives the best row's mapping. `progress`, when not null, shows
// which algorithm runs and its phases.
absl::Status PrintComparison(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const core::MappingOptions& base,
                             std::ostream& out, core::Mapping* best_mapping,
                             const TimeModel* model = nullptr,
                             ProgressLine* progress = nullptr);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_COMPARISON_H_
