#include "mpi_bindings/profile_output.h"

#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::mpi_bindings {
namespace {

using ::testing::HasSubstr;

TEST(ProfileOutputTest, DenseMatrixKeepsDirectionAndIntegers) {
  const std::vector<double> m = {0, 800, 0.5, 3, 0, 0, 0, 7, 2};
  EXPECT_EQ(FormatDenseMatrix(3, m), "0 800 0.5\n3 0 0\n0 7 2\n");
}

TEST(ProfileOutputTest, ScotchGraphSumsBothDirectionsAndDropsSelfTraffic) {
  // 0 sends 800 to 1, 1 sends 3 back; 2 sends 7 to 1; 2 talks to itself.
  const std::vector<double> m = {0, 800, 0, 3, 0, 0, 0, 7, 2};
  absl::StatusOr<graphs::CommGraph> g = GraphFromMatrix(3, m);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->EdgeWeight(0, 1), 803);
  EXPECT_EQ(g->EdgeWeight(1, 2), 7);
  EXPECT_EQ(FormatScotchGraph(*g),
            "0\n3 4\n0\t010\n1\t803 1\n2\t803 0\t7 2\n1\t7 1\n");
}

TEST(ProfileOutputTest, RejectsBadMatrices) {
  EXPECT_FALSE(GraphFromMatrix(2, std::vector<double>{0, 1, 2}).ok());
  absl::StatusOr<graphs::CommGraph> g =
      GraphFromMatrix(2, std::vector<double>{0, -1, 0, 0});
  EXPECT_FALSE(g.ok());
}

TEST(ProfileOutputTest, WritesThreeFiles) {
  const std::string prefix = ::testing::TempDir() + "/prof";
  const std::vector<double> bytes = {0, 10, 20, 0};
  const std::vector<double> msgs = {0, 1, 2, 0};
  ASSERT_TRUE(WriteProfile(prefix, 2, bytes, msgs).ok());
  auto slurp = [](const std::string& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  };
  EXPECT_EQ(slurp(prefix + ".mat"), "0 10\n20 0\n");
  EXPECT_EQ(slurp(prefix + ".msgs.mat"), "0 1\n2 0\n");
  EXPECT_EQ(slurp(prefix + ".grf"), "0\n2 2\n0\t010\n1\t30 1\n1\t30 0\n");
  absl::Status s = WriteProfile("/nonexistent-dir/x", 2, bytes, msgs);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("/nonexistent-dir/x.mat: cannot write"));
}

}  // namespace
}  // namespace rankmap::mpi_bindings
