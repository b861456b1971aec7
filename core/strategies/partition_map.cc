#include "core/strategies/partition_map.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "core/initial/multisection.h"
#include "core/parallel/joined_thread.h"
#include "core/refine/partition_refine.h"
#include "core/split/metis_rand.h"

namespace rankmap::core {

absl::StatusOr<Mapping> PartitionMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options) {
  assert(tree.Capacity(tree.root()) > 0);
  // Two ways of spending the imbalance (all of it where needed, or a share per
  // level) win on different meshes; run both with two METIS seeds each, keep
  // the lower J (ties: first). The seeds derive from options.seed.
  const std::vector<double> bound =
      PartitionLoadBounds(tree, graph, options.imbalance);
  const int kAttempts = std::max(1, options.multisection.partition_attempts);
  std::vector<Mapping> results(kAttempts);
  auto refine = [&](Mapping* m) {
    RepairLeafLoads(tree, graph, bound, m);
    if (options.refine.enabled) {
      RefinePartition(tree, graph, bound, options.refine.greedy_sweeps,
                      options.refine.fm_passes, m);
    }
  };
  auto attempt_seed = [&](int attempt) {
    return options.seed + static_cast<uint64_t>(attempt / 2) * 7919;
  };
  if (options.threads >= 2 && kAttempts >= 2 && MetisRunsInParallel()) {
    // Whole attempts (METIS and refinement) on the workers at once, each on
    // one thread; every attempt is what it would be alone.
    std::atomic<int> next{0}, done{0};
    std::vector<absl::Status> failed(kAttempts);
    auto work = [&] {
      for (int a = next++; a < kAttempts; a = next++) {
        absl::StatusOr<Mapping> m = MultisectionPartition(
            tree, graph, options.multisection, attempt_seed(a),
            options.imbalance, /*spread=*/a % 2 == 1);
        if (!m.ok()) {
          failed[a] = m.status();
          continue;
        }
        results[a] = *std::move(m);
        refine(&results[a]);
        ReportProgress(options.progress, "n-to-1 attempts",
                       static_cast<double>(++done) / kAttempts);
      }
    };
    ReportProgress(options.progress, "n-to-1 attempts", 0);
    {
      const int32_t helpers = std::min(options.threads, kAttempts) - 1;
      std::vector<std::optional<JoinedThread>> workers(helpers);
      for (auto& w : workers) {
        // A thread the system refuses is a worker less, not an error.
        try {
          w.emplace(work);
        } catch (const std::system_error&) {
          break;
        }
      }
      work();
      for (auto& w : workers) {
        if (w) w->Join();
      }
    }
    for (const absl::Status& s : failed) {
      if (!s.ok()) return s;
    }
  } else {
    // With threads >= 2 each attempt's refinement runs on a worker while METIS
    // splits the next one (a single attempt: the multisection splits subtrees
    // on several threads where METIS can).
    std::optional<JoinedThread> worker;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      ReportProgress(options.progress, "n-to-1 attempts",
                     static_cast<double>(attempt) / kAttempts);
      absl::StatusOr<Mapping> m = MultisectionPartition(
          tree, graph, options.multisection, attempt_seed(attempt),
          options.imbalance, /*spread=*/attempt % 2 == 1, options.threads,
          {.sink = options.progress,
           .name = "n-to-1 attempts",
           .from = static_cast<double>(attempt) / kAttempts,
           .to = static_cast<double>(attempt + 1) / kAttempts});
      if (worker) worker->Join();
      if (!m.ok()) return m.status();
      results[attempt] = *std::move(m);
      if (options.threads >= 2) {
        Mapping* r = &results[attempt];
        worker.emplace([&refine, r] { refine(r); });
      } else {
        refine(&results[attempt]);
      }
    }
    if (worker) worker->Join();
    ReportProgress(options.progress, "n-to-1 attempts", 1);
  }
  Mapping mapping;
  double best_j = 0.0;
  for (Mapping& m : results) {
    const double j = ComputeJ(tree, graph, m);
    if (mapping.empty() || j < best_j) {
      best_j = j;
      mapping = std::move(m);
    }
  }
  if (absl::Status s =
          ValidatePartitionMapping(tree, graph, mapping, options.imbalance);
      !s.ok()) {
    return s;
  }
  return mapping;
}

}  // namespace rankmap::core
