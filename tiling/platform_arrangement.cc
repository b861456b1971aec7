#include "tiling/platform_arrangement.h"

#include "base/status_macros.h"

namespace rankmap::tiling {

absl::StatusOr<PlatformArrangement> ArrangeOnPlatform(
    const Partition& partition, const ArrangementPlatform& platform,
    std::optional<ArrangeAlgorithm> algorithm) {
  const bool have_bw = !platform.bandwidth.empty();
  PlatformArrangement r;
  r.algorithm = algorithm.value_or(have_bw ? ArrangeAlgorithm::kBandwidthGreedy
                                           : ArrangeAlgorithm::kHopGreedy);
  if (r.algorithm == ArrangeAlgorithm::kBandwidthGreedy && !have_bw) {
    return absl::InvalidArgumentError(
        "arrangement: Algorithm 2 needs a cluster-pair bandwidth matrix");
  }
  r.by_hops = r.algorithm == ArrangeAlgorithm::kHopGreedy ||
              (r.algorithm == ArrangeAlgorithm::kExhaustive && !have_bw);
  const ArrangementCost hop = ArrangementCost::Hop(
      platform.num_clusters, /*wrap_horizontal=*/true, platform.hop_norm);
  std::optional<ArrangementCost> bw;
  if (have_bw) {
    ASSIGN_OR_RETURN(
        bw, ArrangementCost::Bandwidth(platform.num_clusters,
                                       platform.bandwidth, platform.unit));
  }
  ASSIGN_OR_RETURN(const Arrangement start,
                   ArrangementFromPartition(partition, platform.clusters));
  ASSIGN_OR_RETURN(const ArrangeResult arranged,
                   Arrange(start, r.by_hops ? hop : *bw, r.algorithm));
  r.evaluations = arranged.evaluations;
  ASSIGN_OR_RETURN(r.hop_before, EvaluateArrangement(start, hop));
  ASSIGN_OR_RETURN(r.hop_after, EvaluateArrangement(arranged.arrangement, hop));
  if (have_bw) {
    ASSIGN_OR_RETURN(r.bandwidth_before, EvaluateArrangement(start, *bw));
    ASSIGN_OR_RETURN(r.bandwidth_after,
                     EvaluateArrangement(arranged.arrangement, *bw));
  }
  ASSIGN_OR_RETURN(r.partition, ArrangementToPartition(arranged.arrangement,
                                                       partition.num_owners));
  r.order = ProcessorOrder(arranged.arrangement);
  return r;
}

}  // namespace rankmap::tiling
