// How `map` and `compare` choose against what the job has now: the objective
// (--objective), the present order (--present, the identity by default) and
// the margin a remap must win by (--keep-margin); and the one line that says
// how the present order compared (core/strategies/present_order.h).
//
//   RETURN_IF_ERROR(ApplyChoice(cmd.choice, cmd.inputs, tree, n, &opts));
//   core::MapReport report;
//   opts.report = &report;
//   ... core::Map(tree, graph, opts) ...
//   out << PresentVerdict(report, cmd.choice) << "\n";
#ifndef RANKMAP_CLI_CHOICE_H_
#define RANKMAP_CLI_CHOICE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "cli/inputs.h"
#include "core/model/map_report.h"
#include "core/model/options.h"
#include "graphs/traffic.h"
#include "topology/tree.h"

namespace rankmap::cli {

struct Choice {
  std::string objective = "auto";  // auto | j | time
  std::string present;             // mapping file; empty: the identity
  double keep_margin = 0.02;
  // n-to-1: the exchange model as "B,M" (core::ExchangeModel), or a profile
  // to fit it from as "PROFILE.mat,PART[,K]" (api::FitExchangeModel); empty:
  // the default.
  std::string exchange;
  std::string exchange_profile;
};

// Sets options.objective, keep_margin and present (the file read in any
// format `map` writes, leaf numbers as the inputs give them). Errors: an
// unknown objective, a margin outside [0, 1), an unreadable present order.
absl::Status ApplyChoice(const Choice& choice, const Inputs& inputs,
                         const topology::Tree& tree,
                         core::MappingOptions* options);

// Sets options.exchange from --exchange or --exchange-profile (fitted on
// `graph`). Errors: both given, a malformed value, the fit's (file:line).
absl::Status ApplyExchange(const Choice& choice, const graphs::CommGraph& graph,
                           core::MappingOptions* options);

// What an n-to-1 map chose, one line, or "" when nothing was weighed:
//   partition: machine-aware; one exchange predicted 2.002e-03 s against the
//   status quo's 8.002e-03 s (0.250x) [time; 40 B per unit ... (given)]
std::string PartitionVerdict(const core::PartitionReport& report);

// "messages: app.msgs.mat (123456 messages of 64 pairs)" when the traffic
// came with counts, else "".
std::string MessagesLine(const graphs::Traffic& traffic);

// How the present order compared, one line, or "" when it was not weighed
// (explicit algorithms, n-to-1, slot classes) or when J weighed the identity
// (the summary line gives its J). The figures are the measure that decided
// (core/strategies/present_order.h): on a tree with links the predicted time per
// iteration (core/objective/link_load.h), else T (seconds, core/objective/time_objective.h) or J:
//   present order (identity): kept; the best mapping found is 0.4% faster,
//   within the margin of 2.0% (predicted 0.001229 s against 0.001234 s per
//   iteration)
//   present order (identity): replaced; this mapping is 10.6% faster
//   (predicted ... against ... per iteration), 37 processes moved
// A replaced order's gain is always above the margin.
std::string PresentVerdict(const core::MapReport& report, const Choice& choice);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_CHOICE_H_
