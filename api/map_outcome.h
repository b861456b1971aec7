// MapOutcome: what one mapping request gives back to an interface: the
// mapping, its cost checked as the command checks it, and how the order the
// job has now compared (the present order's verdict).
//
// Every interface maps the same way: core::Map, then core::CheckedCost of the
// result (one-to-one or n-to-1 validation, then every metric), then the
// report of the present order (core/strategies/present_order.h). MapChecked
// does that once for all of them.
//
//   ASSIGN_OR_RETURN(core::MappingOptions o, ResolveOptions(names));
//   ASSIGN_OR_RETURN(MapOutcome out, MapChecked(tree, graph, o));
//   out.cost.j;                       // J of out.mapping
//   VerdictName(VerdictOf(out.report));   // "kept", "replaced", ...
#ifndef RANKMAP_API_MAP_OUTCOME_H_
#define RANKMAP_API_MAP_OUTCOME_H_

#include <cstdint>
#include <functional>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/model/map_report.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/model/slot_classes.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::api {

struct MapOutcome {
  core::Mapping mapping;   // mapping[process] = leaf index of the tree
  core::CostReport cost;   // core::CheckedCost of mapping
  core::MapReport report;  // how the present order compared
};

// core::Map (with slot classes when `classes` is not null), then
// core::CheckedCost with options.imbalance. options.report is ignored: the
// report is the outcome's. Errors: Map's and the check's (a check that fails
// is an engine fault: Internal).
absl::StatusOr<MapOutcome> MapChecked(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const core::MappingOptions& options,
    const core::SlotClasses* classes = nullptr);

// What MapChecked will need for a graph of these counts beyond the graph
// (core::EstimatedMapBytes), as a graph reader takes it
// (graphs::ReadOptions::consumer_bytes): a graph the mapping could not use is
// refused from its header's counts, before it is read. Keeps a reference to
// `tree`.
std::function<int64_t(int64_t vertices, int64_t arcs)> MapBytesOf(
    const topology::Tree& tree, const core::MappingOptions& options);

// What happened to the present order.
enum class PresentVerdict {
  kNotWeighed,  // not a candidate: an explicit algorithm, n-to-1, slot classes
  kKept,        // the result is the present order
  kReplaced,    // another mapping won by more than the margin
  kReplacedByRefinement,  // the present order with a few processes moved won
};

PresentVerdict VerdictOf(const core::MapReport& report);

// "not weighed", "kept", "replaced", "replaced by its refinement".
std::string_view VerdictName(PresentVerdict verdict);

}  // namespace rankmap::api

#endif  // RANKMAP_API_MAP_OUTCOME_H_
