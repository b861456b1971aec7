#include "core/options.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace rankmap::core {
namespace {

constexpr AlgorithmInfo kAlgorithms[] = {
    {"portfolio", Algorithm::kPortfolio, false,
     "TreeMatch and the METIS multisection, the lower J kept (default)"},
    {"tm", Algorithm::kTreeMatch, false,
     "TreeMatch bottom-up grouping with exact pairing and arity splitting"},
    {"multisection", Algorithm::kMultisection, false,
     "top-down recursive multisection with METIS"},
    {"multilevel", Algorithm::kMultilevel, false,
     "the graph coarsened once, the mapping refined in J on every level"},
    {"scotch", Algorithm::kScotch, true,
     "SCOTCH_graphMap on the equivalent target, strict balance"},
    {"mpipp", Algorithm::kMpipp, true,
     "MPIPP-style pairwise swap search from random starts"},
    {"identity", Algorithm::kIdentity, true,
     "process i on the i-th slot in leaf order (packed)"},
    {"round-robin", Algorithm::kRoundRobin, true,
     "processes dealt over the root's subtrees in turn"},
    {"random", Algorithm::kRandom, true, "a seeded random placement"},
};

}  // namespace

std::span<const AlgorithmInfo> Algorithms() { return kAlgorithms; }

std::string AlgorithmNameList(std::string_view separator) {
  std::string out;
  for (const AlgorithmInfo& a : kAlgorithms) {
    if (!out.empty()) out += separator;
    out += a.name;
  }
  return out;
}

absl::StatusOr<Algorithm> ParseAlgorithm(std::string_view name) {
  for (const AlgorithmInfo& a : kAlgorithms) {
    if (a.name == name) return a.algorithm;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown algorithm '", std::string(name), "' (expected ",
                   AlgorithmNameList(", "), ")"));
}

absl::StatusOr<ObjectiveKind> ParseObjective(std::string_view name) {
  if (name == "auto") return ObjectiveKind::kAuto;
  if (name == "j" || name == "J") return ObjectiveKind::kJ;
  if (name == "time") return ObjectiveKind::kTime;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown objective '", std::string(name), "' (expected auto, j, time)"));
}

std::string_view AlgorithmName(Algorithm algorithm) {
  for (const AlgorithmInfo& a : kAlgorithms) {
    if (a.algorithm == algorithm) return a.name;
  }
  return "unknown";
}

absl::StatusOr<MappingOptions> MappingOptions::Preset(std::string_view name) {
  MappingOptions o;
  if (name == "default") return o;
  if (name == "fast") {
    o.algorithm = Algorithm::kTreeMatch;
    o.multisection.metis_effort = 0;
    o.multisection.partition_attempts = 1;
    o.refine.swap_rounds = 2;
    o.refine.greedy_sweeps = 2;
    o.refine.fm_passes = 2;
    return o;
  }
  if (name == "strong") {
    o.multisection.metis_effort = 2;
    o.portfolio_multilevel = true;
    o.refine.swap_rounds = 32;
    o.refine.greedy_sweeps = 32;
    o.refine.fm_passes = 32;
    o.mpipp.starts = 4;
    o.mpipp.rounds = 32;
    return o;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown preset '", std::string(name), "' (expected ",
                   PresetNameList(), ")"));
}

std::span<const std::string_view> PresetNames() {
  static constexpr std::string_view kPresets[] = {"fast", "default", "strong"};
  return kPresets;
}

std::string PresetNameList(std::string_view separator) {
  std::string out;
  for (std::string_view p : PresetNames()) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

absl::Status ValidateOptions(const MappingOptions& o) {
  const std::pair<const char*, int64_t> counts[] = {
      {"threads", o.threads},
      {"treematch.exhaustive_limit", o.treematch.exhaustive_limit},
      {"multisection.metis_effort", o.multisection.metis_effort},
      {"multisection.partition_attempts", o.multisection.partition_attempts},
      {"refine.swap_rounds", o.refine.swap_rounds},
      {"refine.greedy_sweeps", o.refine.greedy_sweeps},
      {"refine.fm_passes", o.refine.fm_passes},
      {"mpipp.starts", o.mpipp.starts},
      {"mpipp.rounds", o.mpipp.rounds},
  };
  for (const auto& [field, value] : counts) {
    if (value < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "map: option ", field, " is ", value, " (must be >= 0)"));
    }
  }
  if (!std::isfinite(o.congestion_weight) || o.congestion_weight < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("map: option congestion_weight is ", o.congestion_weight,
                     " (must be finite and >= 0)"));
  }
  if (!std::isfinite(o.imbalance) || o.imbalance < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("map: option imbalance is ", o.imbalance,
                     " (must be finite and >= 0)"));
  }
  if (!(o.keep_margin >= 0 && o.keep_margin < 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "map: option keep_margin is ", o.keep_margin, " (must be in [0, 1))"));
  }
  const std::pair<const char*, double> model[] = {
      {"exchange.bytes_per_unit", o.exchange.bytes_per_unit},
      {"exchange.messages_per_pair", o.exchange.messages_per_pair},
  };
  for (const auto& [field, value] : model) {
    if (!std::isfinite(value) || value < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "map: option ", field, " is ", value, " (must be finite and >= 0)"));
    }
  }
  return absl::OkStatus();
}

std::string_view ExchangeSourceName(ExchangeModel::Source source) {
  switch (source) {
    case ExchangeModel::Source::kGiven:
      return "given";
    case ExchangeModel::Source::kFitted:
      return "fitted";
    case ExchangeModel::Source::kDefault:
      break;
  }
  return "default";
}

}  // namespace rankmap::core
