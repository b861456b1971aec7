#include "core/strategies/present_order.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/baselines/baselines.h"

namespace rankmap::core {
namespace {

// The measure that decides (the top of present_order.h).
std::string DecidingMeasure(const Objective& objective, const Score& present) {
  if (present.estimate > 0) return "predicted";
  return objective.is_time() ? "T" : "J";
}

// Whether `best` replaces the present order under that measure.
bool Replaces(const std::string& measure, const Score& best,
              const Score& present, double margin) {
  if (measure == "predicted")
    return best.estimate < (1.0 - margin) * present.estimate;
  if (measure == "T") return best.cost < (1.0 - margin) * present.cost;
  return best.cost < present.cost;
}

int64_t Moved(const Mapping& a, const Mapping& b) {
  int64_t moved = 0;
  for (size_t i = 0; i < a.size(); ++i) moved += a[i] != b[i];
  return moved;
}

}  // namespace

absl::StatusOr<Mapping> PresentOrder(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options) {
  const int32_t n = graph.num_vertices();
  if (options.present.empty()) return IdentityMap(tree, n);
  Mapping present(options.present.begin(), options.present.end());
  if (absl::Status s = ValidateMapping(tree, n, present); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("present order: ", std::string(s.message())));
  }
  return present;
}

Mapping KeepPresentUnlessBeaten(const Objective& objective,
                                const graphs::CommGraph& graph,
                                const MappingOptions& options,
                                const Mapping& present, Mapping found,
                                MapReport* report) {
  const Score present_score = objective.ScoreOf(graph, present);
  Mapping best = std::move(found);
  Score best_score = objective.ScoreOf(graph, best);
  bool refined = false;
  // Under time the present order refined is a candidate too: a few moves
  // from an order that is already good are where latency-bound applications
  // gain, and where the strategies' fresh mappings lose.
  if (objective.is_time() && options.refine.enabled) {
    Mapping tuned = present;
    objective.Refine(graph, options.refine.swap_rounds, &tuned, nullptr,
                     options.progress);
    const Score tuned_score = objective.ScoreOf(graph, tuned);
    if (Better(tuned_score, best_score)) {
      best = std::move(tuned);
      best_score = tuned_score;
      refined = true;
    }
  }
  const std::string measure = DecidingMeasure(objective, present_score);
  const bool keep =
      !Replaces(measure, best_score, present_score, options.keep_margin);
  if (report != nullptr) {
    *report = MapReport{};
    report->weighed = true;
    report->objective = std::string(objective.name());
    report->decided_by = measure;
    report->kept_present = keep;
    report->present_refined = !keep && refined;
    report->present_cost = present_score.cost;
    report->present_estimate = present_score.estimate;
    report->best_cost = best_score.cost;
    report->best_estimate = best_score.estimate;
    const Score& chosen = keep ? present_score : best_score;
    report->chosen_cost = chosen.cost;
    report->chosen_estimate = chosen.estimate;
    report->moved = keep ? 0 : Moved(best, present);
  }
  if (keep) return present;
  return best;
}

}  // namespace rankmap::core
