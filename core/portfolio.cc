#include "core/portfolio.h"

#include <optional>
#include <thread>
#include <utility>

#include "core/multisection.h"
#include "core/refine.h"
#include "core/treematch.h"

namespace rankmap::core {
namespace {

// TreeMatch's result is refined only when, unrefined, it is within this factor
// of the refined multisection's J (see the header).
constexpr double kRefineTreeMatchWithin = 1.02;

}  // namespace

absl::StatusOr<Mapping> PortfolioMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options) {
  const RefineOptions& refine = options.refine;
  Mapping by_tm;
  double j_tm = 0.0;
  std::optional<Mapping> tm_refined;
  auto run_tm = [&] {
    by_tm = TreeMatchMap(tree, graph, options.treematch);
    j_tm = ComputeJ(tree, graph, by_tm);
  };
  auto run_ms = [&]() -> absl::StatusOr<Mapping> {
    absl::StatusOr<Mapping> m =
        MultisectionMap(tree, graph, options.multisection, options.seed);
    if (m.ok() && refine.enabled)
      RefineMapping(tree, graph, refine.swap_rounds, &*m);
    return m;
  };
  absl::StatusOr<Mapping> by_ms = absl::UnknownError("not run");
  // METIS stays on this thread: its random state is process-wide.
  if (options.threads >= 2) {
    std::thread worker([&] {
      run_tm();
      if (refine.enabled) {
        tm_refined = by_tm;
        RefineMapping(tree, graph, refine.swap_rounds, &*tm_refined);
      }
    });
    by_ms = run_ms();
    worker.join();
  } else {
    run_tm();
    by_ms = run_ms();
  }
  if (!by_ms.ok()) return by_ms;
  const double j_ms = ComputeJ(tree, graph, *by_ms);
  if (refine.enabled && j_tm <= kRefineTreeMatchWithin * j_ms) {
    if (!tm_refined) {
      tm_refined = by_tm;
      RefineMapping(tree, graph, refine.swap_rounds, &*tm_refined);
    }
    by_tm = *std::move(tm_refined);
    j_tm = ComputeJ(tree, graph, by_tm);
  }
  if (j_ms < j_tm) return by_ms;
  return by_tm;
}

}  // namespace rankmap::core
