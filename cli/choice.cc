#include "cli/choice.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
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
  if (!choice.exchange.empty() && !choice.exchange_profile.empty()) {
    return absl::InvalidArgumentError(
        "--exchange and --exchange-profile: give one of them");
  }
  if (!choice.exchange.empty()) {
    const std::vector<std::string> f = absl::StrSplit(choice.exchange, ',');
    core::ExchangeModel m;
    m.source = core::ExchangeModel::Source::kGiven;
    if (f.size() != 2 || !absl::SimpleAtod(f[0], &m.bytes_per_unit) ||
        !absl::SimpleAtod(f[1], &m.messages_per_pair) ||
        !std::isfinite(m.bytes_per_unit) || m.bytes_per_unit < 0 ||
        !std::isfinite(m.messages_per_pair) || m.messages_per_pair < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--exchange '", choice.exchange,
          "': expected B,M (bytes per unit of edge weight, messages per "
          "neighbouring pair; numbers >= 0), e.g. 40,1"));
    }
    options->exchange = m;
  }
  if (!choice.exchange_profile.empty()) {
    const std::vector<std::string> f =
        absl::StrSplit(choice.exchange_profile, ',');
    int64_t k = 1;
    if (f.size() < 2 || f.size() > 3 ||
        (f.size() == 3 && (!absl::SimpleAtoi(f[2], &k) || k < 1))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--exchange-profile '", choice.exchange_profile,
          "': expected PROFILE.mat,PART or PROFILE.mat,PART,K (K >= 1)"));
    }
    ASSIGN_OR_RETURN(options->exchange,
                     api::FitExchangeModelFromFiles(graph, f[0], f[1], k));
  }
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

std::string Cost(const core::MapReport& r, double c) {
  return r.objective == "time" ? absl::StrFormat("%.4g s", c)
                               : absl::StrFormat("%.6g", c);
}

}  // namespace

std::string PresentVerdict(const core::MapReport& r, const Choice& choice) {
  // Under J the identity's J is on the summary line already.
  if (!r.weighed || (r.objective != "time" && choice.present.empty()))
    return "";
  const std::string name = choice.present.empty() ? "identity" : choice.present;
  const std::string what = r.objective == "time" ? "T" : "J";
  // The link-load estimate of one exchange, where the tree has links.
  auto estimate = [&](double mine, double present) {
    if (mine <= 0 || present <= 0) return std::string();
    return absl::StrFormat("; one exchange about %.4g s against %.4g s", mine,
                           present);
  };
  if (r.kept_present) {
    const double lead = r.present_cost > 0 && r.best_cost < r.present_cost
                            ? 1.0 - r.best_cost / r.present_cost
                            : 0.0;
    return absl::StrFormat(
        "present order (%s): kept; the best mapping found %s (%s %s "
        "against %s%s)",
        name,
        lead > 0 ? absl::StrFormat("is %.1f%% better, within the margin of "
                                   "%.1f%%",
                                   100 * lead, 100 * choice.keep_margin)
                 : std::string("is no better"),
        what, Cost(r, r.best_cost), Cost(r, r.present_cost),
        estimate(r.best_estimate, r.present_estimate));
  }
  const double gain =
      r.present_cost > 0 ? 1.0 - r.chosen_cost / r.present_cost : 0.0;
  return absl::StrFormat(
      "present order (%s): replaced%s; this mapping is %.1f%% %s (%s %s "
      "against %s%s), %d processes moved",
      name, r.present_refined ? " by its refinement" : "", 100 * gain,
      r.objective == "time" ? "faster" : "lower", what, Cost(r, r.chosen_cost),
      Cost(r, r.present_cost), estimate(r.chosen_estimate, r.present_estimate),
      r.moved);
}

}  // namespace rankmap::cli
