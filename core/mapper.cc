#include "core/mapper.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "absl/strings/str_cat.h"

namespace rankmap::core {
namespace {

struct NamedAlgorithm {
  std::string_view name;
  Algorithm algorithm;
};
constexpr NamedAlgorithm kAlgorithms[] = {
    {"tm", Algorithm::kTreeMatch},         {"multisection", Algorithm::kMultisection},
    {"portfolio", Algorithm::kPortfolio},  {"identity", Algorithm::kIdentity},
    {"round-robin", Algorithm::kRoundRobin}, {"random", Algorithm::kRandom},
    {"mpipp", Algorithm::kMpipp},          {"scotch", Algorithm::kScotch},
};

absl::Status CheckFits(const topology::Tree& tree, const graphs::CommGraph& graph) {
  if (graph.num_vertices() > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "map: ", graph.num_vertices(), " processes but the topology has only ",
        tree.Capacity(tree.root()), " slots (oversubscribe or use n-to-1 mapping)"));
  }
  return absl::OkStatus();
}

Mapping RoundRobin(const topology::Tree& tree, int32_t n) {
  // Deal processes over the root's subtrees in turn, each subtree filled in its own slot order.
  std::vector<std::vector<LeafId>> per_child;
  for (NodeId c : tree.children(tree.root())) {
    std::vector<LeafId>& slots = per_child.emplace_back();
    for (LeafId l = tree.leaf_begin(c); l < tree.leaf_end(c); ++l) {
      for (int32_t k = 0; k < tree.capacity(l); ++k) slots.push_back(l);
    }
  }
  Mapping m;
  m.reserve(n);
  std::vector<size_t> next(per_child.size(), 0);
  for (size_t c = 0; static_cast<int32_t>(m.size()) < n; c = (c + 1) % per_child.size()) {
    if (next[c] < per_child[c].size()) m.push_back(per_child[c][next[c]++]);
  }
  return m;
}

}  // namespace

absl::StatusOr<Algorithm> ParseAlgorithm(std::string_view name) {
  for (const auto& a : kAlgorithms) {
    if (a.name == name) return a.algorithm;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown algorithm '", std::string(name),
      "' (expected tm, multisection, portfolio, identity, round-robin, random, mpipp, scotch)"));
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
    o.exhaustive_limit = 4;
    o.refine_rounds = 32;
    return o;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown preset '", std::string(name), "' (expected fast, default, strong)"));
}

std::vector<LeafId> Slots(const topology::Tree& tree) {
  std::vector<LeafId> slots;
  slots.reserve(tree.Capacity(tree.root()));
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    for (int32_t k = 0; k < tree.capacity(l); ++k) slots.push_back(l);
  }
  return slots;
}

absl::StatusOr<Mapping> Map(const topology::Tree& tree, const graphs::CommGraph& graph,
                            const MappingOptions& options) {
  if (absl::Status s = CheckFits(tree, graph); !s.ok()) return s;
  const int32_t n = graph.num_vertices();
  switch (options.algorithm) {
    case Algorithm::kIdentity: {
      std::vector<LeafId> slots = Slots(tree);
      return Mapping(slots.begin(), slots.begin() + n);
    }
    case Algorithm::kRoundRobin:
      return RoundRobin(tree, n);
    case Algorithm::kRandom: {
      std::vector<LeafId> slots = Slots(tree);
      std::mt19937_64 rng(options.seed);
      std::shuffle(slots.begin(), slots.end(), rng);
      return Mapping(slots.begin(), slots.begin() + n);
    }
    default:
      return absl::UnimplementedError(absl::StrCat(
          "map: algorithm '", std::string(AlgorithmName(options.algorithm)),
          "' is not built yet"));
  }
}

}  // namespace rankmap::core
