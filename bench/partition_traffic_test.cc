#include "bench/partition_traffic.h"

#include <string>
#include <vector>

#include "base/file.h"
#include "base/temp_dir.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::bench {
namespace {

// A 4 x 4 grid (unit weights, cell r*4 + c) cut into four 2 x 2 quadrants:
// parts 0 | 1 over 2 | 3. Neighbouring quadrants share 2 faces; 0-3 and 1-2
// share none.
std::vector<int32_t> Quadrants() {
  std::vector<int32_t> part(16);
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) part[r * 4 + c] = (r / 2) * 2 + c / 2;
  }
  return part;
}

TEST(PartitionTrafficTest, ExchangeOfQuadrantsByHand) {
  const graphs::CommGraph mesh = testing::MakeGrid2D(4, 4);
  auto x = PartsExchange(mesh, Quadrants(), 4, {40, 3, "given"});
  ASSERT_TRUE(x.ok()) << x.status();
  ASSERT_EQ(x->num_vertices(), 4);
  EXPECT_EQ(x->num_edges(), 4);
  // 2 faces x 40 B each way: 160 B; 3 messages each way: 6.
  for (auto [p, q] : {std::pair{0, 1}, {0, 2}, {1, 3}, {2, 3}}) {
    EXPECT_EQ(x->EdgeWeight(p, q), 160.0) << p << "-" << q;
  }
  EXPECT_EQ(x->EdgeWeight(0, 3), 0.0);
  EXPECT_EQ(x->TotalMessages(), 4 * 6.0);
  const graphs::CommGraph counts = MessageGraph(*x);
  EXPECT_EQ(counts.EdgeWeight(0, 1), 6.0);
  EXPECT_EQ(counts.TotalVolume(), 24.0);
  EXPECT_FALSE(PartsExchange(mesh, Quadrants(), 3, {40, 1, ""}).ok());
}

TEST(PartitionTrafficTest, FitsBytesAFaceAndMessagesAPairFromAProfile) {
  auto dir = base::TempDir::Create("fit");
  ASSERT_TRUE(dir.ok());
  const std::string prefix = dir->path() + "/prof";
  // Two exchanges recorded on 4 ranks: every neighbouring pair sent 2 x 2 x
  // 2 faces x 8 B = 64 B and 2 x 2 x 5 = 20 messages (both directions, both
  // exchanges); ranks 0 and 3, which share no face, 1000 B of a collective.
  ASSERT_TRUE(
      base::WriteFile(prefix + ".mat",
                      "0 32 32 500\n32 0 0 32\n32 0 0 32\n500 32 32 0\n")
          .ok());
  ASSERT_TRUE(base::WriteFile(prefix + ".msgs.mat",
                              "0 10 10 1\n10 0 0 10\n10 0 0 10\n1 10 10 0\n")
                  .ok());
  std::string part;
  for (int32_t p : Quadrants()) part += std::to_string(p) + "\n";
  ASSERT_TRUE(base::WriteFile(dir->path() + "/part", part).ok());
  auto m = FitFromProfile(testing::MakeGrid2D(4, 4), prefix,
                          dir->path() + "/part", 2);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_DOUBLE_EQ(m->bytes_per_face, 8.0);
  EXPECT_DOUBLE_EQ(m->messages_per_pair, 5.0);
  EXPECT_EQ(Describe(*m),
            "8 B a face, 5 messages a pair, each way (fitted from " + prefix +
                " over 4 neighbouring pairs, 2 exchanges)");
  // The same partition as OpenFOAM's labelList.
  std::string foam =
      "FoamFile { format ascii; class labelList; }\n16\n(\n" + part + ")\n";
  ASSERT_TRUE(base::WriteFile(dir->path() + "/cellDecomposition", foam).ok());
  m = FitFromProfile(testing::MakeGrid2D(4, 4), prefix,
                     dir->path() + "/cellDecomposition", 2);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_DOUBLE_EQ(m->bytes_per_face, 8.0);
}

}  // namespace
}  // namespace rankmap::bench
