#include "cli/choice.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "api/partition.h"
#include "base/status_macros.h"
#include "cli/leaf_numbering.h"
#include "cli/mapping_reader.h"

namespace rankmap::cli {

absl::Status ApplyChoice(const Choice& choice, const Inputs& inputs,
                         const topology::Tree& tree,
                         core::MappingOptions* options) {
  absl::StatusOr<core::ObjectiveKind> objective =
      core::ParseObjective(choice.objective);
  if (!objective.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--objective: ", std::string(objective.status().message())));
  }
  options->objective = *objective;
  if (!(choice.keep_margin >= 0 && choice.keep_margin < 1)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--keep-margin %g: expected a fraction in [0, 1), e.g. 0.02",
        choice.keep_margin));
  }
  options->keep_margin = choice.keep_margin;
  if (!choice.present.empty()) {
    ASSIGN_OR_RETURN(const core::Mapping present,
                     ReadAnyMappingFile(choice.present, tree,
                                        LeafNumbering::For(inputs, tree)));
    options->present.assign(present.begin(), present.end());
  }
  return absl::OkStatus();
}

absl::Status ApplyExchange(const Choice& choice, const graphs::CommGraph& graph,
                           core::MappingOptions* options) {
  ASSIGN_OR_RETURN(
      options->exchange,
      api::ExchangeModelByName(choice.exchange, choice.exchange_profile, graph,
                               "--exchange", "--exchange-profile"));
  return absl::OkStatus();
}

std::string PartitionVerdict(const core::PartitionReport& r) {
  if (!r.weighed) return "";
  const bool time = r.objective == "time";
  auto figure = [&](const core::ExchangePrediction& p) {
    return time ? absl::StrFormat("%.4g s", p.seconds)
                : absl::StrFormat("J %.6g", p.cost);
  };
  auto ratio = [&](const core::ExchangePrediction& p) {
    const double sq = time ? r.status_quo.seconds : r.status_quo.cost;
    return sq > 0 ? (time ? p.seconds : p.cost) / sq : 1.0;
  };
  std::string line;
  if (r.winner == "status quo") {
    // The closest other candidate, by the figure shown.
    const core::PartitionReport::Candidate* best = nullptr;
    for (size_t i = 1; i < r.candidates.size(); ++i) {
      if (best == nullptr ||
          ratio(r.candidates[i].prediction) < ratio(best->prediction))
        best = &r.candidates[i];
    }
    line = absl::StrFormat(
        "partition: the status quo (as onto a complete graph) kept; one "
        "exchange predicted %s",
        figure(r.status_quo));
    if (best != nullptr) {
      absl::StrAppendFormat(&line,
                            ", %s's %.3fx (%d against %d neighbouring "
                            "pairs)",
                            best->name, ratio(best->prediction),
                            best->prediction.pairs, r.status_quo.pairs);
    }
  } else {
    line = absl::StrFormat(
        "partition: %s; one exchange predicted %s, %.3fx the status quo's "
        "(%d against %d neighbouring pairs)",
        r.winner, figure(r.chosen), ratio(r.chosen), r.chosen.pairs,
        r.status_quo.pairs);
  }
  absl::StrAppend(&line, "\nexchange model: ", r.model, "; by ", r.objective,
                  r.note.empty() ? "" : absl::StrCat(" (", r.note, ")"));
  return line;
}

std::string MessagesLine(const graphs::Traffic& traffic) {
  if (traffic.messages_path.empty()) return "";
  // Only the name: the output reads the same wherever the files lie.
  const std::string name =
      std::filesystem::path(traffic.messages_path).filename().string();
  return absl::StrFormat("messages from %s: %.6g over %d pairs", name,
                         traffic.graph.TotalMessages(),
                         traffic.graph.num_edges());
}

namespace {

// A figure of the deciding measure.
std::string Figure(const core::MapReport& r, double v) {
  return r.decided_by == "J" ? absl::StrFormat("%.6g", v)
                             : absl::StrFormat("%.4g s", v);
}

// "(predicted 0.0012 s against 0.0015 s per iteration)", "(T ... against
// ...)", "(J ... against ...)".
std::string Figures(const core::MapReport& r, double mine, double present) {
  if (r.decided_by == "predicted") {
    return absl::StrFormat("(predicted %s against %s per iteration)",
                           Figure(r, mine), Figure(r, present));
  }
  return absl::StrFormat("(%s %s against %s)", r.decided_by, Figure(r, mine),
                         Figure(r, present));
}

}  // namespace

std::string PresentVerdict(const core::MapReport& r, const Choice& choice) {
  // Under J the identity's J is on the summary line already.
  if (!r.weighed || (r.decided_by == "J" && choice.present.empty())) return "";
  const std::string name = choice.present.empty() ? "identity" : choice.present;
  const core::DecidingFigures f = core::Deciding(r);
  const char* better = r.decided_by == "J" ? "lower" : "faster";
  if (r.kept_present) {
    const double lead =
        f.present > 0 && f.best < f.present ? 1.0 - f.best / f.present : 0.0;
    return absl::StrFormat(
        "present order (%s): kept; the best mapping found %s %s", name,
        lead > 0 ? absl::StrFormat("is %.1f%% %s, within the margin of %.1f%%",
                                   100 * lead, better,
                                   100 * choice.keep_margin)
                 : absl::StrCat("is no ", better),
        Figures(r, f.best, f.present));
  }
  const double gain = f.present > 0 ? 1.0 - f.chosen / f.present : 0.0;
  return absl::StrFormat(
      "present order (%s): replaced%s; this mapping is %.1f%% %s %s, %d "
      "processes moved",
      name, r.present_refined ? " by its refinement" : "", 100 * gain, better,
      Figures(r, f.chosen, f.present), r.moved);
}

}  // namespace rankmap::cli
