#include "tiling/square_corner_choice.h"

#include <cstdint>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tiling/volume.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::rankmap::base::IsOkAndHolds;
using ::testing::Field;
using ::testing::Not;

using Speeds = std::vector<double>;

constexpr int64_t kSide = 1000;

ShapeChoiceOptions Options(
    LinkModel link, Network::Kind network = Network::Kind::kFullyConnected) {
  ShapeChoiceOptions o;
  o.link = link;
  o.network = network;
  return o;
}

// The routed volume of a partition, recomputed: every hop on serial links,
// the busiest link direction on full-duplex ones.
int64_t Routed(const Partition& p, const Network& net, LinkModel link) {
  const VolumeMatrix v = MatmulVolumes(p).value();
  const LinkLoads l = RouteVolumes(v, net).value();
  return link == LinkModel::kSerial ? l.Total() : l.MaxDirected();
}

TEST(ChooseMatrixShapeTest, TwoProcessorsFollowBeckersThresholds) {
  // rho = 8 is above both thresholds (3 serial, 2 full-duplex).
  absl::StatusOr<ShapeChoice> fast =
      ChooseMatrixShape(Speeds{8, 1}, kSide, Options(LinkModel::kSerial));
  ASSERT_THAT(fast, IsOk());
  EXPECT_DOUBLE_EQ(fast->rho, 8);
  EXPECT_EQ(fast->shape, MatrixShape::kSquareCorner);
  EXPECT_EQ(fast->partition,
            SquareCornerPartition2(Speeds{8, 1}, kSide).value());
  // rho = 2: straight line on serial links, Square-Corner on full-duplex.
  EXPECT_THAT(
      ChooseMatrixShape(Speeds{1, 2}, kSide, Options(LinkModel::kSerial)),
      IsOkAndHolds(Field(&ShapeChoice::shape, MatrixShape::kStraightLine)));
  EXPECT_THAT(
      ChooseMatrixShape(Speeds{1, 2}, kSide, Options(LinkModel::kFullDuplex)),
      IsOkAndHolds(Field(&ShapeChoice::shape, MatrixShape::kSquareCorner)));
  // Forced.
  ShapeChoiceOptions line = Options(LinkModel::kSerial);
  line.shape = MatrixShape::kStraightLine;
  absl::StatusOr<ShapeChoice> forced =
      ChooseMatrixShape(Speeds{8, 1}, kSide, line);
  ASSERT_THAT(forced, IsOk());
  EXPECT_EQ(forced->partition,
            StraightLinePartition2(Speeds{8, 1}, kSide).value());
}

TEST(ChooseMatrixShapeTest, ThreeProcessorsCompareRoutedVolumes) {
  // 90:5:5 on a fully connected network: Becker's margin sqrt(s2) + sqrt(s3)
  // - 1 + s1 / 2 = -0.103 < 0, Square-Corner moves less.
  absl::StatusOr<ShapeChoice> c =
      ChooseMatrixShape(Speeds{90, 5, 5}, kSide, Options(LinkModel::kSerial));
  ASSERT_THAT(c, IsOk());
  EXPECT_TRUE(c->feasible);
  EXPECT_EQ(c->shape, MatrixShape::kSquareCorner);
  EXPECT_LT(c->square_corner_volume, c->straight_line_volume);
  EXPECT_EQ(c->square_corner_volume,
            Routed(c->partition, c->network, LinkModel::kSerial));
  // 70:15:15: the margin is +0.125 fully connected (straight line), but
  // -0.025 on a star around the fastest (Becker eq. 6.8: sqrt(s2) +
  // sqrt(s3) - 1.5 + s1), where Square-Corner wins.
  absl::StatusOr<ShapeChoice> full =
      ChooseMatrixShape(Speeds{15, 70, 15}, kSide, Options(LinkModel::kSerial));
  ASSERT_THAT(full, IsOk());
  EXPECT_EQ(full->shape, MatrixShape::kStraightLine);
  EXPECT_EQ(full->straight_line_volume,
            Routed(full->partition, full->network, LinkModel::kSerial));
  absl::StatusOr<ShapeChoice> star =
      ChooseMatrixShape(Speeds{15, 70, 15}, kSide,
                        Options(LinkModel::kSerial, Network::Kind::kStar));
  ASSERT_THAT(star, IsOk());
  EXPECT_EQ(star->network.hub, 1);  // the fastest
  EXPECT_EQ(star->shape, MatrixShape::kSquareCorner);
}

TEST(ChooseMatrixShapeTest, InfeasibleSquareCornerFallsBackUnlessForced) {
  // 1:1:1: sqrt(1/3) * 2 > 1, the squares overlap.
  absl::StatusOr<ShapeChoice> c =
      ChooseMatrixShape(Speeds{1, 1, 1}, kSide, Options(LinkModel::kSerial));
  ASSERT_THAT(c, IsOk());
  EXPECT_FALSE(c->feasible);
  EXPECT_EQ(c->shape, MatrixShape::kStraightLine);
  EXPECT_EQ(c->square_corner_volume, -1);
  ShapeChoiceOptions forced = Options(LinkModel::kSerial);
  forced.shape = MatrixShape::kSquareCorner;
  EXPECT_THAT(ChooseMatrixShape(Speeds{1, 1, 1}, kSide, forced), Not(IsOk()));
}

TEST(ChooseMatrixShapeTest, Errors) {
  EXPECT_THAT(ChooseMatrixShape(Speeds{1}, kSide, {}), Not(IsOk()));
  EXPECT_THAT(ChooseMatrixShape(Speeds{1, 1, 1, 1}, kSide, {}), Not(IsOk()));
  EXPECT_THAT(ChooseMatrixShape(Speeds{1, -1}, kSide, {}), Not(IsOk()));
  ShapeChoiceOptions bad_hub =
      Options(LinkModel::kSerial, Network::Kind::kStar);
  bad_hub.hub = 3;
  EXPECT_THAT(ChooseMatrixShape(Speeds{90, 5, 5}, kSide, bad_hub), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::tiling
