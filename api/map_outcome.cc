#include "api/map_outcome.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "core/map_budget.h"
#include "core/mapper.h"

namespace rankmap::api {

absl::StatusOr<MapOutcome> MapChecked(const topology::Tree& tree,
                                      const graphs::CommGraph& graph,
                                      const core::MappingOptions& options,
                                      const core::SlotClasses* classes) {
  MapOutcome out;
  core::MappingOptions o = options;
  o.report = &out.report;
  if (classes != nullptr) {
    ASSIGN_OR_RETURN(out.mapping, core::Map(tree, graph, o, *classes));
  } else {
    ASSIGN_OR_RETURN(out.mapping, core::Map(tree, graph, o));
  }
  absl::StatusOr<core::CostReport> cost =
      core::CheckedCost(tree, graph, out.mapping, options.imbalance);
  if (!cost.ok()) {
    return absl::InternalError(
        absl::StrCat("map: the engine's mapping fails its check: ",
                     cost.status().message()));
  }
  out.cost = *std::move(cost);
  return out;
}

std::function<int64_t(int64_t vertices, int64_t arcs)> MapBytesOf(
    const topology::Tree& tree, const core::MappingOptions& options) {
  return [&tree, options](int64_t vertices, int64_t arcs) {
    return core::EstimatedMapBytes(tree, vertices, arcs, options);
  };
}

PresentVerdict VerdictOf(const core::MapReport& report) {
  if (!report.weighed) return PresentVerdict::kNotWeighed;
  if (report.kept_present) return PresentVerdict::kKept;
  if (report.present_refined) return PresentVerdict::kReplacedByRefinement;
  return PresentVerdict::kReplaced;
}

std::string_view VerdictName(PresentVerdict verdict) {
  switch (verdict) {
    case PresentVerdict::kNotWeighed:
      return "not weighed";
    case PresentVerdict::kKept:
      return "kept";
    case PresentVerdict::kReplaced:
      return "replaced";
    case PresentVerdict::kReplacedByRefinement:
      return "replaced by its refinement";
  }
  return "not weighed";
}

}  // namespace rankmap::api
