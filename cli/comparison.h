// The comparison table of `rankmap compare` and `rankmap demo`: every
// algorithm and baseline on one input, with J, the ratios to identity and to
// the best row, and the time each took.
#ifndef RANKMAP_CLI_COMPARISON_H_
#define RANKMAP_CLI_COMPARISON_H_

#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cli/evaluation.h"
#include "cli/progress_line.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::cli {

// A column computed from each row's mapping (the simulated time of `compare
// --simulate`), printed before the wall time. With `ranks`, the column is a
// time that decides: rows are ranked by it, "vs best" compares it, and a line
// after the table says how the present order (identity) compares with the
// fastest row.
struct ExtraColumn {
  std::string header;
  std::function<absl::StatusOr<double>(const core::Mapping&)> value;
  bool ranks = false;
};

// Maps with every algorithm of core::Algorithms() (`base` with its algorithm
// replaced) and prints one row each on `out`. `model` null: rows in the
// table's order, "vs best" by J.
// Otherwise each row also gets the predicted exchange time under that model
// (see PredictExchange), rows are ranked by it and
// "vs best" compares it. The wall time is always the last column, so golden
// tests can mask it. An algorithm that fails internally prints its error in
// its row; bad input (InvalidArgument, or a first row refused for size)
// stops the table. `best_mapping`, when not null, receives the best row's
// mapping. `progress`, when not null, shows which algorithm runs and its
// phases.
//
// `selected` empty runs every algorithm, except that a baseline above its
// size limit (SkipReason) gets a one-line note in its row instead of a run
// that could take many minutes; otherwise only the selected algorithms run,
// in the table's order, whatever their size ("vs identity" then uses the
// identity placement's J even when identity is not selected).
// `extra`, when not null, adds its column (an error computing it stops the
// table); when it `ranks`, it takes the model's place in the ranking and
// "vs best", and identity's value is computed even when identity is not
// selected, for the closing line (PresentOrderLine).
absl::Status PrintComparison(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const core::MappingOptions& base,
                             std::ostream& out, core::Mapping* best_mapping,
                             const TimeModel* model = nullptr,
                             ProgressLine* progress = nullptr,
                             const ExtraColumn* extra = nullptr,
                             std::span<const core::Algorithm> selected = {});

// "the present order (identity) is within 0.4% of the fastest
// (multisection)", "... is 12.3% slower than the fastest (tm)", "... is the
// fastest", "... is as fast as the fastest (tm)": identity's time against the
// fastest row's, `fastest` naming that row. Within 1% says "within".
std::string PresentOrderLine(double identity, double fastest,
                             std::string_view fastest_name);

// Why the full comparison skips `algorithm` on these inputs (empty: it runs):
// MPIPP above 16,384 processes (its swap search takes about 20 s at 65,536),
// Scotch when strict balance pads to more than 65,536 slots (77 s at 262,144).
std::string SkipReason(core::Algorithm algorithm, const topology::Tree& tree,
                       const graphs::CommGraph& graph);

// "tm,scotch" as algorithms, in the table's order, duplicates merged. Errors:
// an unknown name (listing the known ones), an empty list.
absl::StatusOr<std::vector<core::Algorithm>> ParseAlgorithmList(
    std::string_view list);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_COMPARISON_H_
