#include "core/portfolio.h"

#include <algorithm>
#include <optional>
#include <thread>
#include <utility>

#include "core/exact_map.h"
#include "core/multisection.h"
#include "core/refine.h"
#include "core/treematch.h"

namespace rankmap::core {
namespace {

// TreeMatch's result is refined only when, unrefined, it is within this factor
// of the refined multisection's J (see the header).
constexpr double kRefineTreeMatchWithin = 1.02;
// Search nodes of the exact search on tiny inputs (a few milliseconds).
constexpr int64_t kExactMapBudget = int64_t{1} << 20;

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
  Mapping best = j_ms < j_tm ? *std::move(by_ms) : std::move(by_tm);
  // Tiny inputs: search every placement (bounded, never worse).
  if (graph.num_vertices() <= kExactMapLimit) {
    double j = std::min(j_ms, j_tm);
    ExactMap(tree, graph, kExactMapBudget, &best, &j);
  }
  return best;
}

}  // namespace rankmap::core
