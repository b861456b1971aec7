#include "tiling/square_corner_choice.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tiling/volume.h"

namespace rankmap::tiling {
namespace {

absl::StatusOr<ShapeChoice> ChooseForTwo(std::span<const double> speeds,
                                         std::span<const double> s, int64_t n,
                                         const ShapeChoiceOptions& o) {
  ShapeChoice c;
  const int32_t fast = s[0] >= s[1] ? 0 : 1;
  c.rho = s[fast] / s[1 - fast];
  c.shape = o.shape.value_or(ChooseTwoProcessorShape(c.rho, o.link));
  if (c.shape == MatrixShape::kSquareCorner) {
    ASSIGN_OR_RETURN(c.partition, SquareCornerPartition2(speeds, n));
  } else {
    ASSIGN_OR_RETURN(c.partition, StraightLinePartition2(speeds, n));
  }
  return c;
}

absl::StatusOr<ShapeChoice> ChooseForThree(std::span<const double> speeds,
                                           std::span<const double> s, int64_t n,
                                           const ShapeChoiceOptions& o) {
  ShapeChoice c;
  std::vector<int32_t> idx = {0, 1, 2};
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int32_t a, int32_t b) { return s[a] > s[b]; });
  c.feasible = SquareCorner3Feasible(s[idx[0]], s[idx[1]], s[idx[2]]);
  absl::StatusOr<Partition> scp = SquareCornerPartition3(speeds, n);
  ASSIGN_OR_RETURN(
      ColumnLayout slp_layout,
      KalinovLastovetskyPartition(speeds, {{idx[0]}, {idx[1], idx[2]}}));
  ASSIGN_OR_RETURN(Partition slp, ToIntegerPartition(slp_layout, n, n));
  c.network = o.network == Network::Kind::kStar
                  ? Network::Star(o.hub < 0 ? idx[0] : o.hub)
                  : Network::FullyConnected();
  // Volume as the link model sees it, every hop counted.
  auto routed = [&](const Partition& part) -> absl::StatusOr<int64_t> {
    ASSIGN_OR_RETURN(VolumeMatrix v, MatmulVolumes(part));
    ASSIGN_OR_RETURN(LinkLoads l, RouteVolumes(v, c.network));
    return o.link == LinkModel::kSerial ? l.Total() : l.MaxDirected();
  };
  ASSIGN_OR_RETURN(c.straight_line_volume, routed(slp));
  if (scp.ok()) {
    ASSIGN_OR_RETURN(c.square_corner_volume, routed(*scp));
  }
  if (o.shape == MatrixShape::kSquareCorner && !scp.ok()) return scp.status();
  const bool square_corner =
      o.shape.has_value()
          ? *o.shape == MatrixShape::kSquareCorner
          : scp.ok() && c.square_corner_volume < c.straight_line_volume;
  c.shape =
      square_corner ? MatrixShape::kSquareCorner : MatrixShape::kStraightLine;
  c.partition = square_corner ? *std::move(scp) : std::move(slp);
  return c;
}

}  // namespace

absl::StatusOr<ShapeChoice> ChooseMatrixShape(
    std::span<const double> speeds, int64_t n,
    const ShapeChoiceOptions& options) {
  ASSIGN_OR_RETURN(const std::vector<double> s, NormalizeSpeeds(speeds));
  if (s.size() == 2) return ChooseForTwo(speeds, s, n, options);
  if (s.size() == 3) return ChooseForThree(speeds, s, n, options);
  return absl::InvalidArgumentError(absl::StrCat(
      "Square-Corner and straight-line layouts take 2 or 3 speeds, got ",
      s.size()));
}

}  // namespace rankmap::tiling
