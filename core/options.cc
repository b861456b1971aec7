#include "core/options.h"

#include "absl/strings/str_cat.h"

namespace rankmap::core {
namespace {

struct NamedAlgorithm {
  std::string_view name;
  Algorithm algorithm;
};
constexpr NamedAlgorithm kAlgorithms[] = {
    {"tm", Algorithm::kTreeMatch},
    {"multisection", Algorithm::kMultisection},
    {"portfolio", Algorithm::kPortfolio},
    {"identity", Algorithm::kIdentity},
    {"round-robin", Algorithm::kRoundRobin},
    {"random", Algorithm::kRandom},
    {"mpipp", Algorithm::kMpipp},
    {"scotch", Algorithm::kScotch},
};

}  // namespace

absl::StatusOr<Algorithm> ParseAlgorithm(std::string_view name) {
  for (const auto& a : kAlgorithms) {
    if (a.name == name) return a.algorithm;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown algorithm '", std::string(name),
                   "' (expected tm, multisection, portfolio, identity, "
                   "round-robin, random, mpipp, scotch)"));
}

std::string_view AlgorithmName(Algorithm algorithm) {
  for (const auto& a : kAlgorithms) {
    if (a.algorithm == algorithm) return a.name;
  }
  return "unknown";
}

absl::StatusOr<MappingOptions> MappingOptions::Preset(std::string_view name) {
  MappingOptions o;
  if (name == "default") return o;
  if (name == "fast") {
    o.algorithm = Algorithm::kTreeMatch;
    o.exact_pairing = false;
    o.refine_rounds = 2;
    return o;
  }
  if (name == "strong") {
    o.metis_effort = 2;
    o.refine_rounds = 32;
    o.mpipp_starts = 4;
    return o;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown preset '", std::string(name),
                   "' (expected fast, default, strong)"));
}

}  // namespace rankmap::core
