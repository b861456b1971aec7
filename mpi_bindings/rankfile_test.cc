#include "mpi_bindings/rankfile.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::mpi_bindings {
namespace {

using ::testing::HasSubstr;

// Two hosts with two PUs each; PU os indexes interleaved as on many Intel
// machines.
topology::Tree TwoHosts() {
  topology::TreeBuilder b;
  topology::NodeId root = b.AddRoot("switch", 100);
  const int os[2][2] = {{0, 2}, {1, 3}};
  for (int h = 0; h < 2; ++h) {
    topology::NodeId node = b.AddChild(root, "Machine", 1);
    for (int k = 0; k < 2; ++k) {
      topology::NodeId pu = b.AddChild(node, "PU");
      b.SetOsIndex(pu, os[h][k]);
      b.SetHost(pu, h == 0 ? "alpha" : "beta");
    }
  }
  return std::move(b).Build().value();
}

TEST(RankfileTest, PhysicalUsesOsIndexesAndHosts) {
  absl::StatusOr<std::string> text = FormatRankfile(TwoHosts(), {3, 0, 2, 1});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "# physical PU numbers: mpirun --mca rmaps_rank_file_physical 1 "
            "--rankfile "
            "FILE\n"
            "rank 0=beta slot=3\nrank 1=alpha slot=0\nrank 2=beta slot=1\n"
            "rank 3=alpha slot=2\n");
}

TEST(RankfileTest, LogicalIndexesCountPerHost) {
  RankfileOptions o;
  o.physical = false;
  absl::StatusOr<std::string> text = FormatRankfile(TwoHosts(), {3, 0}, o);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "# logical slot numbers: mpirun --rankfile FILE\n"
            "rank 0=beta slot=1\nrank 1=alpha slot=0\n");
}

TEST(RankfileTest, TreesWithoutOsIndexesUseTheDefaultHostAndLogicalSlots) {
  topology::Tree t = topology::Tree::FromLevels(std::vector<int64_t>{2, 2},
                                                std::vector<double>{10, 1})
                         .value();
  RankfileOptions o;
  o.default_host = "node7";
  absl::StatusOr<std::string> text = FormatRankfile(t, {2, 3, 0}, o);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("rank 0=node7 slot=2\nrank 1=node7 slot=3\n"
                               "rank 2=node7 slot=0\n"));
}

TEST(RankfileTest, RejectsInvalidMappings) {
  EXPECT_FALSE(FormatRankfile(TwoHosts(), {0, 0}).ok());  // leaf 0 twice
  EXPECT_FALSE(FormatRankfile(TwoHosts(), {9}).ok());
  EXPECT_FALSE(WriteRankfile("/nonexistent-dir/rf", TwoHosts(), {0}).ok());
}

}  // namespace
}  // namespace rankmap::mpi_bindings
