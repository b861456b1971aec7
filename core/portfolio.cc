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
// Multisection restarts: 4096 / n of them (at most 8), so graphs of up to
// 2048 processes get several METIS seeds. Measured on the irregular-tree
// family: geomean 0.854 -> 0.844 of Scotch, and the one instance that stayed
// above Scotch came within 0.2%; graphs of 4096 processes and more run once.
constexpr int32_t kRestartBudget = 4096;
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
  // The refined multisection, restarted with other METIS seeds while that
  // is cheap (kRestartBudget / n runs, at most 8): the lowest J is kept.
  auto run_ms = [&]() -> absl::StatusOr<Mapping> {
    const int32_t restarts = std::clamp<int32_t>(
        kRestartBudget / std::max<int32_t>(graph.num_vertices(), 1), 1, 8);
    absl::StatusOr<Mapping> best = absl::UnknownError("not run");
    double best_j = 0.0;
    for (int32_t r = 0; r < restarts; ++r) {
      absl::StatusOr<Mapping> m = MultisectionMap(
          tree, graph, options.multisection, options.seed + 7919 * r);
      if (!m.ok()) return m;
      if (refine.enabled) RefineMapping(tree, graph, refine.swap_rounds, &*m);
      const double j = ComputeJ(tree, graph, *m);
      if (!best.ok() || j < best_j) {
        best = std::move(m);
        best_j = j;
      }
    }
    return best;
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
