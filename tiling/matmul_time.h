// Execution time of C = A x B on a partition, with and without overlapping
// communication and computation (Becker ch. 5 and 6.1.4, Fig. 6.12).
//
// Communication (I): the partition's volumes (volume.h) routed over the
// network (network_volume.h). Serial links: every element once per hop, one
// after the other (time proportional to the routed TVC, eqs. 6.4-6.6). Full
// duplex: the busiest link direction, in two phases on a star: one-hop
// transfers and first hops, then the hub forwards what it relays (the "
// necessarily sequential component" of section 6.2).
// Computation: processor i computes its area of C at compute * s_i elements
// per second (s normalised), so a partition proportional to the speeds
// finishes together in n^2 / compute.
//
// Without overlap: I, then every computation: I + max_i area_i / r_i.
// With overlap: processor i computes its immediate block C1_i (the cells of C
// whose A row and B column it owns in full, so they need no data) during the
// communication, the rest after it:
//   max_i [ max(I, C1_i / r_i) + (area_i - C1_i) / r_i ].
// On Square-Corner only the fastest processor has such a block, C1 = [a,
// n-b)^2, and with the squares of SquareCornerOverlapPartition3 (C2, X, Y
// proportional to the speeds) this is the thesis's max(I, II) + max(III, IV,
// V). With the squares proportional to the speeds the slow processors wait for
// I and then compute as long as without overlap: overlap gains nothing there.
//
// Units: bandwidth in elements per second per link (per direction on full
// duplex), compute in elements of C per second; only their ratio matters.
//
// Usage:
//   MatmulPlatform star{Network::Star(0), LinkModel::kFullDuplex, 1.0, 0.8};
//   ASSIGN_OR_RETURN(Partition p, SquareCornerOverlapPartition3(s, 5000));
//   ASSIGN_OR_RETURN(MatmulTime t, TimeWithOverlap(p, s, star));
#ifndef RANKMAP_TILING_MATMUL_TIME_H_
#define RANKMAP_TILING_MATMUL_TIME_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "tiling/network_volume.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

struct MatmulPlatform {
  Network network;
  LinkModel link = LinkModel::kFullDuplex;
  double bandwidth = 1.0;  // elements / s per link (direction)
  double compute = 1.0;    // elements of C / s, all processors together
};

struct MatmulTime {
  double communication = 0;  // I
  double computation = 0;    // the longest computation (all of it)
  double total = 0;
};

// Cells of C each owner can compute before receiving anything: (rows it owns
// in full) x (columns it owns in full). Errors: an invalid or non-square
// partition. O(R log R + owners).
absl::StatusOr<std::vector<int64_t>> ImmediateCells(const Partition& p);

// Errors: an invalid partition, speeds not one per owner or not > 0, a
// bandwidth or compute rate not > 0, a bad hub. O(R^2 log R) (the volumes).
absl::StatusOr<MatmulTime> TimeWithoutOverlap(const Partition& p,
                                              std::span<const double> speeds,
                                              const MatmulPlatform& platform);
absl::StatusOr<MatmulTime> TimeWithOverlap(const Partition& p,
                                           std::span<const double> speeds,
                                           const MatmulPlatform& platform);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_MATMUL_TIME_H_
