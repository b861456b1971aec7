#include "tiling/volume.h"

#include <random>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"
#include "tiling/partition.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

// Random guillotine tiling of an n x n grid with owners drawn at random (an
// owner may hold several rectangles, some none).
Partition RandomGuillotine(int64_t rows, int64_t cols, int32_t owners,
                           std::mt19937_64& rng) {
  Partition p{rows, cols, owners, {}};
  std::vector<Rect> stack = {Rect{0, 0, rows, cols, 0}};
  std::uniform_int_distribution<int32_t> owner(0, owners - 1);
  while (!stack.empty()) {
    Rect r = stack.back();
    stack.pop_back();
    bool split =
        r.area() > 4 && std::uniform_int_distribution<int>(0, 3)(rng) != 0;
    if (split && r.height > 1 && (r.width == 1 || rng() % 2)) {
      int64_t cut =
          std::uniform_int_distribution<int64_t>(1, r.height - 1)(rng);
      stack.push_back(Rect{r.row, r.col, cut, r.width, 0});
      stack.push_back(Rect{r.row + cut, r.col, r.height - cut, r.width, 0});
    } else if (split && r.width > 1) {
      int64_t cut = std::uniform_int_distribution<int64_t>(1, r.width - 1)(rng);
      stack.push_back(Rect{r.row, r.col, r.height, cut, 0});
      stack.push_back(Rect{r.row, r.col + cut, r.height, r.width - cut, 0});
    } else {
      r.owner = owner(rng);
      p.rects.push_back(r);
    }
  }
  return p;
}

TEST(VolumeTest, ClosedFormAgreesWithCellCounterOnRandomPartitions) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    int64_t n = 4 + trial % 13;
    int32_t owners = 2 + trial % 5;
    Partition p = RandomGuillotine(n, n, owners, rng);
    ASSERT_THAT(ValidatePartition(p), IsOk());
    auto fast = MatmulVolumes(p);
    auto slow = CountMatmulVolumes(p);
    ASSERT_THAT(fast, IsOk());
    ASSERT_THAT(slow, IsOk());
    EXPECT_EQ(*fast, *slow) << "trial " << trial;
    for (int32_t o = 0; o < owners; ++o) EXPECT_EQ(fast->at(o, o), 0);
    // Becker digest 2.3: TVC = n sum_rows (m_i - 1) + n sum_cols (m'_j - 1).
    EXPECT_EQ(fast->Total(), *RowColumnSharingTvc(p)) << "trial " << trial;
  }
}

TEST(VolumeTest, RectangularOperandsAgreeWithCellCounter) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    int64_t m = 3 + trial % 7, k = 2 + trial % 5, q = 4 + trial % 6;
    Partition a = RandomGuillotine(m, k, 3, rng);
    Partition b = RandomGuillotine(k, q, 3, rng);
    Partition c = RandomGuillotine(m, q, 3, rng);
    auto fast = MatmulVolumes(a, b, c);
    auto slow = CountMatmulVolumes(a, b, c);
    ASSERT_THAT(fast, IsOk());
    ASSERT_THAT(slow, IsOk());
    EXPECT_EQ(*fast, *slow);
  }
  Partition a = RandomGuillotine(3, 4, 2, rng),
            c = RandomGuillotine(3, 5, 2, rng);
  EXPECT_THAT(MatmulVolumes(a, a, c),
              Not(IsOk()));  // 3x4 * 3x4 does not multiply
}

// Becker digest 13, discrete brute-force vectors (entity 1 = owner 0 here).
TEST(VolumeTest, DigestDiscreteVectors) {
  auto scp = [](int64_t n, int64_t a) {
    return Partition{
        n, n, 2, {{0, 0, a, a, 1}, {0, a, a, n - a, 0}, {a, 0, n - a, n, 0}}};
  };
  auto slp = [](int64_t n, int64_t w) {
    return Partition{n, n, 2, {{0, 0, n, n - w, 0}, {0, n - w, n, w, 1}}};
  };
  struct Case {
    Partition p;
    int64_t v01, v10, tvc;
  };
  std::vector<Case> cases = {
      {scp(12, 6), 72, 72, 144},  {slp(12, 3), 108, 36, 144},
      {scp(8, 2), 24, 8, 32},     {scp(16, 4), 96, 32, 128},
      {slp(16, 1), 240, 16, 256}, {scp(12, 4), 64, 32, 96},
      {scp(20, 4), 128, 32, 160}};
  for (const Case& c : cases) {
    auto v = MatmulVolumes(c.p);
    ASSERT_THAT(v, IsOk());
    EXPECT_EQ(v->at(0, 1), c.v01);
    EXPECT_EQ(v->at(1, 0), c.v10);
    EXPECT_EQ(v->Total(), c.tvc);
    EXPECT_EQ(*CountMatmulVolumes(c.p), *v);
  }
  // SLP3, N = 10, q = 5, h2 = h3 = 5: every ordered pair 25, TVC 150.
  Partition slp3{
      10, 10, 3, {{0, 0, 10, 5, 0}, {0, 5, 5, 5, 1}, {5, 5, 5, 5, 2}}};
  auto v = MatmulVolumes(slp3);
  for (int32_t i = 0; i < 3; ++i) {
    for (int32_t j = 0; j < 3; ++j) EXPECT_EQ(v->at(i, j), i == j ? 0 : 25);
  }
  // SLP3 at 80:10:10, N = 10, q = 2.
  Partition slp3b{
      10, 10, 3, {{0, 0, 10, 8, 0}, {0, 8, 5, 2, 1}, {5, 8, 5, 2, 2}}};
  v = MatmulVolumes(slp3b);
  EXPECT_EQ(v->at(0, 1), 40);
  EXPECT_EQ(v->at(1, 0), 10);
  EXPECT_EQ(v->at(0, 2), 40);
  EXPECT_EQ(v->at(2, 0), 10);
  EXPECT_EQ(v->at(1, 2), 10);
  EXPECT_EQ(v->at(2, 1), 10);
  EXPECT_EQ(v->Total(), 120);
  // Homogeneous 3 x 3 grid, N = 9: 9 each way between processors sharing a
  // block row or column, TVC 324 (= 4 N^2, not (N/2) I = 243).
  Partition grid{9, 9, 9, {}};
  for (int32_t r = 0; r < 3; ++r) {
    for (int32_t c = 0; c < 3; ++c)
      grid.rects.push_back(Rect{3 * r, 3 * c, 3, 3, 3 * r + c});
  }
  v = MatmulVolumes(grid);
  EXPECT_EQ(v->Total(), 324);
  EXPECT_EQ(v->at(0, 1), 9);
  EXPECT_EQ(v->at(0, 3), 9);
  EXPECT_EQ(v->at(0, 4), 0);
}

TEST(VolumeTest, RejectsBadInput) {
  Partition gap{4, 4, 2, {{0, 0, 2, 4, 0}}};
  EXPECT_THAT(MatmulVolumes(gap), Not(IsOk()));
  Partition overlap{4, 4, 2, {{0, 0, 4, 4, 0}, {0, 0, 1, 1, 1}}};
  EXPECT_THAT(MatmulVolumes(overlap), Not(IsOk()));
  Partition bad_owner{2, 2, 1, {{0, 0, 2, 2, 3}}};
  EXPECT_THAT(MatmulVolumes(bad_owner), Not(IsOk()));
  Partition wide{2, 3, 1, {{0, 0, 2, 3, 0}}};
  EXPECT_THAT(MatmulVolumes(wide), Not(IsOk()));
}

// Near the size limit: two owners split at one column fit (their volumes are
// hand-computed), four strips of 2^31 - 1 rows send 12 x 2^60 cells in all,
// which does not, and is an error rather than a wrapped total.
TEST(VolumeTest, TotalsNearTwoToTheSixtyThree) {
  const int64_t n = (int64_t{1} << 31) - 1;
  Partition two{n, n, 2, {{0, 0, n, n - 1, 0}, {0, n - 1, n, 1, 1}}};
  auto v = MatmulVolumes(two);
  ASSERT_THAT(v, IsOk());
  // 0 -> 1: A_0's n - 1 columns on every row of C_1; B_0 lies in columns C_1
  // does not touch. 1 -> 0: A_1's one column on every row.
  EXPECT_EQ(v->at(0, 1), n * (n - 1));
  EXPECT_EQ(v->at(1, 0), n);
  EXPECT_EQ(v->Total(), n * (n - 1) + n);
  const int64_t w = int64_t{1} << 29;
  Partition strips{n, n, 4, {}};
  for (int32_t k = 0; k < 4; ++k) {
    strips.rects.push_back(Rect{0, k * w, n, k < 3 ? w : n - 3 * w, k});
  }
  auto over = MatmulVolumes(strips);
  ASSERT_THAT(over, Not(IsOk()));
  EXPECT_EQ(std::string(over.status().message()),
            "tiling/volume: the total volume exceeds 2^63 - 1 cells");
}

}  // namespace
}  // namespace rankmap::tiling
