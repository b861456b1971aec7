#include "core/mapper.h"

#include <optional>
#include <thread>
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
      o.metis_effort < 0 ||
      o.threads < 0 || !(o.imbalance >= 0.0)) {
    return absl::InvalidArgumentError(
        "map: negative refine_rounds, exhaustive_limit, mpipp_starts, "
        "metis_effort, threads or imbalance");
  }
  return absl::OkStatus();
}

// TreeMatch's result is refined only when, unrefined, it is within this factor
// of the refined multisection's J. Measured on the bench families (N = 64 to
// 8192): the refined TreeMatch beat the refined multisection only on clustered
// patterns, by at most 0.01%, and elsewhere trailed it by 2-90%; skipping the
// hopeless refinements is what brings the default preset under Scotch's time
// at N = 4096 and 8192. On the 1,048,576-process 3D stencil the refined
// TreeMatch wins (J 1.63e8 against 1.97e8) for 3 s more.
constexpr double kRefineTreeMatchWithin = 1.02;

// Runs TreeMatch and the METIS multisection and keeps the lower J (TreeMatch
// on ties). With threads >= 2 TreeMatch (and its speculative refinement) runs
// beside the multisection; METIS stays on one thread because its random state
// is process-wide. The choice does not depend on the thread count.
absl::StatusOr<Mapping> Portfolio(const topology::Tree& tree,
                                  const graphs::CommGraph& graph,
                                  const MappingOptions& options) {
  MappingOptions ms = options;
  ms.algorithm = Algorithm::kMultisection;
  MappingOptions tm = options;
  tm.algorithm = Algorithm::kTreeMatch;
  tm.refine = false;
  absl::StatusOr<Mapping> by_tm = absl::UnknownError("not run");
  absl::StatusOr<Mapping> by_ms = absl::UnknownError("not run");
  double j_tm = 0.0;
  std::optional<Mapping> tm_refined;
  if (options.threads >= 2) {
    std::thread worker([&] {
      by_tm = TreeMatchMap(tree, graph, tm);
      if (!by_tm.ok()) return;
      j_tm = ComputeJ(tree, graph, *by_tm);
      if (options.refine) {
        tm_refined = *by_tm;
        RefineMapping(tree, graph, options, &*tm_refined);
      }
    });
    by_ms = MultisectionMap(tree, graph, ms);
    worker.join();
    if (!by_tm.ok()) return by_tm;
  } else {
    by_tm = TreeMatchMap(tree, graph, tm);
    if (!by_tm.ok()) return by_tm;
    j_tm = ComputeJ(tree, graph, *by_tm);
    by_ms = MultisectionMap(tree, graph, ms);
  }
  if (!by_ms.ok()) return by_ms;
  const double j_ms = ComputeJ(tree, graph, *by_ms);
  if (options.refine && j_tm <= kRefineTreeMatchWithin * j_ms) {
    if (!tm_refined) {
      tm_refined = *by_tm;
      RefineMapping(tree, graph, options, &*tm_refined);
    }
    by_tm = *std::move(tm_refined);
    j_tm = ComputeJ(tree, graph, *by_tm);
  }
  return j_ms < j_tm ? by_ms : by_tm;
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
