#include "core/partition_map.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>
#include <vector>

#include "core/fm_refine.h"
#include "core/joined_thread.h"
#include "core/multisection.h"
#include "core/partition_refine.h"

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
      RefinePartition(tree, graph, bound, options.refine.greedy_sweeps, m);
      FmRefinePartition(tree, graph, bound, options.refine.fm_passes, m);
    }
  };
  // With threads >= 2 each attempt's refinement runs on a worker while METIS
  // splits the next one (and the multisection splits subtrees on several
  // threads where METIS can: core/metis_rand.h).
  std::optional<JoinedThread> worker;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const bool spread = attempt % 2 == 1;
    const uint64_t seed =
        options.seed + static_cast<uint64_t>(attempt / 2) * 7919;
    ReportProgress(options.progress, "n-to-1 attempts",
                   static_cast<double>(attempt) / kAttempts);
    absl::StatusOr<Mapping> m =
        MultisectionPartition(tree, graph, options.multisection, seed,
                              options.imbalance, spread, options.threads);
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
