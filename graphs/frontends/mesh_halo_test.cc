#include "graphs/frontends/mesh_halo.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// A 3 x 3 grid of vertices (v = 3 * row + col), parts: column 0 -> 0,
// column 1 -> 1, column 2 -> 2, except vertex 8 in part 1.
CommGraph Grid3() {
  CommGraphBuilder b(9);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      const int v = 3 * r + c;
      if (c + 1 < 3) EXPECT_TRUE(b.AddEdge(v, v + 1, 1).ok());
      if (r + 1 < 3) EXPECT_TRUE(b.AddEdge(v, v + 3, 1).ok());
    }
  }
  return std::move(b).Build().value();
}

TEST(MeshHalo, ByHand) {
  const std::vector<int32_t> part = {0, 1, 2, 0, 1, 2, 0, 1, 1};
  auto halo = ComputeMeshHalo(Grid3(), part, 3);
  ASSERT_TRUE(halo.ok()) << halo.status();
  EXPECT_THAT(halo->owned, ElementsAre(3, 4, 2));
  // Part 0 sends its whole column to part 1.
  EXPECT_THAT(halo->sends[0], ElementsAre(Pair(1, ElementsAre(0, 3, 6))));
  // Part 1 (1, 4, 7, 8): 1, 4, 7 to part 0; 1, 4 (next to 2, 5) and 8 (next
  // to 5) to part 2.
  EXPECT_THAT(halo->sends[1], ElementsAre(Pair(0, ElementsAre(1, 4, 7)),
                                          Pair(2, ElementsAre(1, 4, 8))));
  EXPECT_THAT(halo->sends[2], ElementsAre(Pair(1, ElementsAre(2, 5))));
  auto g = MeshHaloGraph(*halo, 8.0);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->num_edges(), 2);
  EXPECT_EQ(g->EdgeWeight(0, 1), 8.0 * (3 + 3));
  EXPECT_EQ(g->EdgeWeight(1, 2), 8.0 * (3 + 2));
  EXPECT_EQ(g->EdgeWeight(0, 2), 0.0);
}

TEST(MeshHalo, Errors) {
  const CommGraph g = Grid3();
  EXPECT_FALSE(ComputeMeshHalo(g, std::vector<int32_t>(8, 0), 1).ok());
  EXPECT_FALSE(ComputeMeshHalo(g, std::vector<int32_t>(9, 3), 3).ok());
  EXPECT_FALSE(ComputeMeshHalo(g, std::vector<int32_t>(9, 0), 0).ok());
  auto halo = ComputeMeshHalo(g, std::vector<int32_t>(9, 0), 1);
  ASSERT_TRUE(halo.ok());
  EXPECT_FALSE(MeshHaloGraph(*halo, 0).ok());
}

// OpenFOAM's decomposition (decomposePar -cellDist's cellDecomposition).
TEST(MeshHalo, PartitionsAsOpenFoamLabelLists) {
  const std::string head =
      "/* banner */\nFoamFile\n{\n    format ascii;\n    class labelList;\n"
      "    object cellDecomposition;\n}\n";
  auto p = ParsePartition(head + "3\n(\n2\n0\n1\n)\n", "cd", 3);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(*p, ElementsAre(2, 0, 1));
  p = ParsePartition(head + "2\n(\n2\n0\n)\n", "cd", 3);
  EXPECT_EQ(std::string(p.status().message()),
            "cd: 2 labels for 3 mesh vertices");
  p = ParsePartition(head + "3\n(\n2\n-1\n1\n)\n", "cd", 3);
  EXPECT_EQ(std::string(p.status().message()),
            "cd:11: expected a part number in [0, 2147483648), found '-1'");
}

TEST(MeshHalo, PartitionFiles) {
  auto p = ParsePartition("2\n0\n# comment\n\n1\n", "m.part", 3);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(*p, ElementsAre(2, 0, 1));
  auto bad = ParsePartition("2\nx\n1\n", "m.part", 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("m.part:2:"));
  bad = ParsePartition("2\n-1\n1\n", "m.part", 3);
  ASSERT_FALSE(bad.ok());
  bad = ParsePartition("2 3\n0\n1\n", "m.part", 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("m.part:1:"));
  bad = ParsePartition("2\n0\n", "m.part", 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("2 lines for 3 mesh vertices"));
  bad = ParsePartition("2\n0\n1\n1\n", "m.part", 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("m.part:4:"));
}

}  // namespace
}  // namespace rankmap::graphs
