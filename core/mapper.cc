#include "core/mapper.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/catch_as_status.h"
#include "base/cpus.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "core/baselines/baselines.h"
#include "core/baselines/scotch_map.h"
#include "core/initial/multisection.h"
#include "core/initial/treematch.h"
#include "core/map_budget.h"
#include "core/objective/objective.h"
#include "core/refine/congestion.h"
#include "core/strategies/isolated_vertices.h"
#include "core/strategies/multilevel.h"
#include "core/strategies/partition_choice.h"
#include "core/strategies/partition_map.h"
#include "core/strategies/portfolio.h"
#include "core/strategies/present_order.h"

namespace rankmap::core {
namespace {

// n-to-1: the engine's partition weighed by the predicted time of one
// exchange against the status quo (core/strategies/partition_choice.h);
// Scotch's as the baseline it is.
absl::StatusOr<Mapping> MapNTo1(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const MappingOptions& options) {
  if (options.algorithm != Algorithm::kScotch) {
    ASSIGN_OR_RETURN(Mapping m,
                     internal::MachineAwarePartition(tree, graph, options));
    return ChoosePartition(tree, graph, options, std::move(m));
  }
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

// The engine's own strategies (the baselines place processes as they are).
bool IsEngineStrategy(Algorithm a) {
  return a == Algorithm::kPortfolio || a == Algorithm::kTreeMatch ||
         a == Algorithm::kMultisection || a == Algorithm::kMultilevel;
}

// A strategy's result, refined once under the objective when the options say
// so.
Mapping Refined(const Objective& objective, const graphs::CommGraph& graph,
                const MappingOptions& options, Mapping m) {
  if (options.refine.enabled) {
    objective.Refine(graph, options.refine.swap_rounds, &m, nullptr,
                     options.progress);
  }
  return m;
}

// Map without the exception guard: checks the inputs, then runs what the
// options and the inputs select.
absl::StatusOr<Mapping> Dispatch(const topology::Tree& tree,
                                 const graphs::CommGraph& graph,
                                 const MappingOptions& options);

// The portfolio's result weighed against the present order of the whole
// graph (core/strategies/present_order.h).
absl::StatusOr<Mapping> WeighPresent(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options,
                                     Mapping found) {
  ASSIGN_OR_RETURN(const Objective objective,
                   Objective::For(tree, graph, options));
  ASSIGN_OR_RETURN(const Mapping present, PresentOrder(tree, graph, options));
  return KeepPresentUnlessBeaten(objective, graph, options, present,
                                 std::move(found), options.report);
}

template <typename F>
absl::StatusOr<Mapping> Guarded(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const MappingOptions& options, F step);

}  // namespace

Algorithm EffectiveAlgorithm(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const MappingOptions& options) {
  if (!IsNTo1(tree, graph) || options.algorithm == Algorithm::kScotch ||
      options.algorithm == Algorithm::kMultilevel) {
    return options.algorithm;
  }
  if (options.algorithm == Algorithm::kPortfolio &&
      !options.portfolio_multilevel &&
      graph.num_vertices() >= kMultilevelNTo1From) {
    return Algorithm::kMultilevel;
  }
  return Algorithm::kMultisection;
}

namespace internal {

int32_t WorkerThreads(int32_t requested) {
  return std::min(requested, base::UsableCpus());
}

// n-to-1, the engine's machine-aware partition: partition and map in one
// step, leaf loads within options.imbalance, J minimised.
absl::StatusOr<Mapping> MachineAwarePartition(const topology::Tree& tree,
                                              const graphs::CommGraph& graph,
                                              const MappingOptions& options) {
  RETURN_IF_ERROR(ValidateOptions(options));
  if (EffectiveAlgorithm(tree, graph, options) == Algorithm::kMultilevel)
    return MultilevelPartition(tree, graph, options);
  ASSIGN_OR_RETURN(Mapping m, PartitionMap(tree, graph, options));
  if (!options.portfolio_multilevel) return m;
  // The multilevel engine competes (the strong preset), lower J kept.
  ASSIGN_OR_RETURN(Mapping ml, MultilevelPartition(tree, graph, options));
  if (ComputeJ(tree, graph, ml) < ComputeJ(tree, graph, m)) return ml;
  return m;
}

}  // namespace internal

absl::StatusOr<Mapping> Map(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options) {
  MappingOptions o = options;
  o.threads = internal::WorkerThreads(options.threads);
  // The engine's boundary: whatever escapes a strategy becomes a Status here,
  // so no caller (CLI, C API, MPI job) is terminated by an exception.
  return Guarded(tree, graph, o, [&] { return Dispatch(tree, graph, o); });
}

namespace {

absl::StatusOr<Mapping> Dispatch(const topology::Tree& tree,
                                 const graphs::CommGraph& graph,
                                 const MappingOptions& options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  if (absl::Status s = CheckCostRange(tree, graph); !s.ok()) return s;
  if (absl::Status s = CheckMapMemory(tree, graph, options); !s.ok()) return s;
  const bool n_to_1 = IsNTo1(tree, graph);
  // Processes without edges are placed directly
  // (core/strategies/isolated_vertices.h): the engine's strategies and the
  // n-to-1 partition only see the rest. The present order is a mapping of the
  // whole graph: it is weighed after.
  if ((n_to_1 ? options.algorithm != Algorithm::kScotch
              : IsEngineStrategy(options.algorithm)) &&
      CountIsolatedVertices(graph) > 0) {
    MappingOptions part_options = options;
    // One-to-one, the present order maps processes of the whole graph; n-to-1
    // it names the parts' leaves, the same for the rest of the graph.
    if (!n_to_1) part_options.present.clear();
    part_options.report = nullptr;
    absl::StatusOr<Mapping> m = MapAroundIsolated(
        tree, graph, n_to_1, options.imbalance,
        [&](const graphs::CommGraph& part) -> absl::StatusOr<Mapping> {
          if (n_to_1) return MapNTo1(tree, part, part_options);
          return Dispatch(tree, part, part_options);
        });
    if (!m.ok() || n_to_1 || options.algorithm != Algorithm::kPortfolio)
      return m;
    return WeighPresent(tree, graph, options, *std::move(m));
  }
  if (n_to_1) return MapNTo1(tree, graph, options);
  const int32_t n = graph.num_vertices();
  if (n > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(
        absl::StrCat("map: ", n, " processes but the topology has only ",
                     tree.Capacity(tree.root()),
                     " slots (oversubscribe or use n-to-1 mapping)"));
  }
  ASSIGN_OR_RETURN(const Objective objective,
                   Objective::For(tree, graph, options));
  // The engine's strategies (the baselines return as they are).
  absl::StatusOr<Mapping> m = absl::InternalError("map: unknown algorithm");
  switch (options.algorithm) {
    case Algorithm::kPortfolio:
      // The present order is checked before the portfolio runs.
      RETURN_IF_ERROR(PresentOrder(tree, graph, options).status());
      m = PortfolioMap(tree, graph, options);
      if (m.ok()) m = WeighPresent(tree, graph, options, *std::move(m));
      break;
    case Algorithm::kTreeMatch:
      m = Refined(objective, graph, options,
                  TreeMatchMap(tree, graph, options.treematch));
      break;
    case Algorithm::kMultisection:
      ReportProgress(options.progress, "multisection", 0);
      m = MultisectionMap(tree, graph, options.multisection, options.seed,
                          options.threads,
                          {.sink = options.progress, .name = "multisection"});
      ReportProgress(options.progress, "multisection", 1);
      if (m.ok()) m = Refined(objective, graph, options, *std::move(m));
      break;
    case Algorithm::kMultilevel:
      m = MultilevelMap(tree, graph, options);
      break;
    case Algorithm::kIdentity:
      return IdentityMap(tree, n);
    case Algorithm::kRoundRobin:
      return RoundRobinMap(tree, n);
    case Algorithm::kRandom:
      return RandomMap(tree, n, options.seed);
    case Algorithm::kMpipp:
      return MpippMap(tree, graph, options.mpipp, options.seed);
    case Algorithm::kScotch:
      return ScotchMap(tree, graph, options.seed);
  }
  if (m.ok() && options.congestion_weight > 0) {
    CongestionRefine(tree, graph, options.congestion_weight,
                     std::max(options.refine.swap_rounds, 1), &*m);
  }
  return m;
}

// Every exception of `step` as a Status (the engine's boundary); out of
// memory says what was being mapped and the estimate.
template <typename F>
absl::StatusOr<Mapping> Guarded(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const MappingOptions& options, F step) {
  return base::CatchAsStatus("map", step, [&] {
    return absl::StrCat(
        "mapping ", graph.num_vertices(), " processes onto ", tree.num_leaves(),
        " leaves (estimated ",
        base::FormatBytes(EstimatedMapBytes(tree, graph, options)), ")");
  });
}

absl::StatusOr<Mapping> MapWithClasses(const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const MappingOptions& options,
                                       const SlotClasses& classes) {
  const int32_t n = graph.num_vertices();
  if (absl::Status s = ValidateSlotClasses(tree, n, classes); !s.ok()) return s;
  if (n > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(
        absl::StrCat("map: slot classes need one slot per process; ", n,
                     " processes on ", tree.Capacity(tree.root()), " slots"));
  }
  // The classes move processes after the strategy: the present order is not
  // weighed (it may break them) and nothing is reported.
  MappingOptions unweighed = options;
  unweighed.present.clear();
  unweighed.report = nullptr;
  absl::StatusOr<Mapping> m = Map(tree, graph, unweighed);
  if (!m.ok()) return m;
  RepairToClasses(tree, graph, classes, &*m);
  if (options.refine.enabled) {
    ASSIGN_OR_RETURN(const Objective objective,
                     Objective::For(tree, graph, options));
    objective.Refine(graph, options.refine.swap_rounds, &*m, &classes, nullptr);
  }
  if (absl::Status s = CheckClasses(classes, *m); !s.ok())
    return absl::InternalError(s.message());
  return m;
}

}  // namespace

absl::StatusOr<Mapping> Map(const topology::Tree& tree,
                            const graphs::CommGraph& graph,
                            const MappingOptions& options,
                            const SlotClasses& classes) {
  return Guarded(tree, graph, options,
                 [&] { return MapWithClasses(tree, graph, options, classes); });
}

}  // namespace rankmap::core
