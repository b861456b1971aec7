// Square-Corner or straight line: the layout of a matrix over 2 or 3
// processors (Becker ch. 5 and 6), chosen here so that the front ends only
// turn the chosen partition into a graph.
//
//   * Two processors: Becker's hybrid, Square-Corner iff the speed ratio
//     rho = s_fast / s_slow reaches HybridThreshold(link) (3 on serial links,
//     2 on full-duplex ones).
//   * Three processors: Square-Corner when it is feasible and its volume
//     routed over the network (every hop counted: the total on serial links,
//     the busiest link direction on full-duplex ones; network_volume.h) is
//     below the straight-line layout's (the fastest processor on the left,
//     the other two stacked on the right).
//   Either can be forced.
//
//   ShapeChoiceOptions o;
//   o.link = LinkModel::kFullDuplex;
//   ASSIGN_OR_RETURN(ShapeChoice c, ChooseMatrixShape({8, 1}, 4500, o));
//   // c.shape == MatrixShape::kSquareCorner (rho 8 >= 2)
#ifndef RANKMAP_TILING_SQUARE_CORNER_CHOICE_H_
#define RANKMAP_TILING_SQUARE_CORNER_CHOICE_H_

#include <cstdint>
#include <optional>
#include <span>

#include "absl/status/statusor.h"
#include "tiling/network_volume.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

struct ShapeChoiceOptions {
  // Forced; nullopt: the rule above.
  std::optional<MatrixShape> shape;
  LinkModel link = LinkModel::kSerial;
  // Three processors: the network the layouts are compared on.
  Network::Kind network = Network::Kind::kFullyConnected;
  int32_t hub = -1;  // star: the hub processor; -1: the fastest (Becker's rule)
};

struct ShapeChoice {
  MatrixShape shape = MatrixShape::kStraightLine;
  Partition partition;  // n x n cells, owner = index into the speeds
  // Two processors: s_fast / s_slow.
  double rho = 0;
  // Three processors: whether Square-Corner fits (sqrt(s2) + sqrt(s3) <= 1),
  // the network routed over, and the routed volumes in cells (the
  // Square-Corner one -1 when it does not fit).
  bool feasible = false;
  Network network;
  int64_t straight_line_volume = 0;
  int64_t square_corner_volume = -1;
};

// Errors: bad speeds, not 2 or 3 of them, n < 2 or above 2^31 - 1, a forced
// Square-Corner that does not fit, a hub outside [0, 3). O(1) (the
// partitions have at most 8 rectangles).
absl::StatusOr<ShapeChoice> ChooseMatrixShape(
    std::span<const double> speeds, int64_t n,
    const ShapeChoiceOptions& options);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_SQUARE_CORNER_CHOICE_H_
