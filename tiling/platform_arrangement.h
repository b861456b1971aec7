// A column-based partition rearranged for a platform (Malik 3.4): the
// platform's clusters, and optionally its cluster-pair bandwidths, choose the
// cost and the algorithm of arrangement.h.
//
//   * unset algorithm: Algorithm 2 under the bandwidth cost when a bandwidth
//     matrix is given, Algorithm 1 under the hop cost otherwise;
//   * kExhaustive: the exhaustive search under the bandwidth cost with a
//     matrix, the hop cost without.
// Costs are reported before and after under the hop cost, and under the
// bandwidth cost when there is a matrix.
//
//   ArrangementPlatform platform{.clusters = {0, 0, 1, 1}, .num_clusters = 2};
//   ASSIGN_OR_RETURN(PlatformArrangement a,
//                    ArrangeOnPlatform(partition, platform, std::nullopt));
//   // a.algorithm == ArrangeAlgorithm::kHopGreedy; new rank r runs on
//   // processor a.order[r]
#ifndef RANKMAP_TILING_PLATFORM_ARRANGEMENT_H_
#define RANKMAP_TILING_PLATFORM_ARRANGEMENT_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tiling/arrangement.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

struct ArrangementPlatform {
  std::vector<int32_t> clusters;  // cluster of each processor (owner)
  int32_t num_clusters = 0;
  // Cluster-pair bandwidths, num_clusters^2 row-major; empty: none.
  std::vector<double> bandwidth;
  // Bandwidth cost: volume per unit of width and height (bytes per block row).
  double unit = 1.0;
  HopNorm hop_norm = HopNorm::kSum;
};

struct PlatformArrangement {
  ArrangeAlgorithm algorithm = ArrangeAlgorithm::kHopGreedy;  // as run
  bool by_hops = true;  // its objective: the hop cost, else the bandwidth cost
  int64_t evaluations = 0;
  CostBreakdown hop_before, hop_after;
  // With a bandwidth matrix only.
  std::optional<CostBreakdown> bandwidth_before, bandwidth_after;
  Partition partition;         // rearranged
  std::vector<int32_t> order;  // new rank r runs on processor order[r]
};

// Errors: kBandwidthGreedy without a bandwidth matrix, a partition that is not
// column-based, clusters not one per processor or outside [0, num_clusters),
// a bad matrix or unit, a search beyond arrangement.h's limits.
absl::StatusOr<PlatformArrangement> ArrangeOnPlatform(
    const Partition& partition, const ArrangementPlatform& platform,
    std::optional<ArrangeAlgorithm> algorithm);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_PLATFORM_ARRANGEMENT_H_
