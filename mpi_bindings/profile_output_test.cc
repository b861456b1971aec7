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
  EXPECT_EQ(s.message(),
            "/nonexistent-dir/x.mat: cannot open for writing: No such file or "
            "directory");
}

TEST(ProfileOutputTest, RowsRoundTrip) {
  ProfileRow row;
  row.rank = 1;
  row.world_size = 3;
  row.state = "aborted (MPI_Abort error code 3)";
  row.bytes = {800, 0, 0.5};
  row.messages = {1, 0, 1};
  row.fetched_bytes = {0, 0, 0};
  row.fetched_messages = {0, 0, 0};
  const std::string text = FormatRow(row);
  EXPECT_EQ(text,
            "rankmap-profile-row 1 3\naborted (MPI_Abort error code 3)\n0 800 "
            "1 0 0\n2 0.5 1 0 0\n");
  absl::StatusOr<ProfileRow> back = ParseRow(text, "r");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->bytes, row.bytes);
  EXPECT_EQ(back->state, row.state);
  EXPECT_THAT(
      std::string(ParseRow("rankmap-profile-row 1 3\nx\n7 1 1 0 0\n", "r.part")
                      .status()
                      .message()),
      HasSubstr("r.part:3: expected 'j bytes"));
  EXPECT_FALSE(ParseRow("garbage", "r").ok());
}

TEST(ProfileOutputTest, MergesSavedRowsIntoAPartialProfile) {
  const std::string prefix = ::testing::TempDir() + "/partial";
  // Ranks 0 and 2 of 3 saved rows; rank 1 never did.
  for (int r : {0, 2}) {
    ProfileRow row;
    row.rank = r;
    row.world_size = 3;
    row.state = r == 2 ? "aborted (MPI_Abort error code 3)" : "running";
    row.bytes = {0, 0, 0};
    row.bytes[(r + 1) % 3] = 800;
    row.messages = {0, 0, 0};
    row.messages[(r + 1) % 3] = 1;
    row.fetched_bytes = {0, 0, 0};
    row.fetched_messages = {0, 0, 0};
    ASSERT_TRUE(WriteFileAtomically(RowPath(prefix, r), FormatRow(row)).ok());
  }
  absl::StatusOr<std::string> summary =
      MergePartialProfile(prefix, 3, "rank 2 called MPI_Abort (error code 3)");
  ASSERT_TRUE(summary.ok()) << summary.status();
  std::ifstream mat(prefix + ".mat");
  std::stringstream text;
  text << mat.rdbuf();
  const std::string note =
      "rank 2 called MPI_Abort (error code 3); rows of 2 of 3 processes, each "
      "as of its last save; no row from ranks 1; rank 2 aborted (MPI_Abort "
      "error code 3)";
  EXPECT_EQ(text.str(),
            "# partial profile: " + note + "\n0 800 0\n0 0 0\n800 0 0\n");
  std::ifstream partial(prefix + ".partial");
  std::string line;
  std::getline(partial, line);
  EXPECT_EQ(line, note);
  // A complete profile later removes the partial marker.
  const std::vector<double> zero(9, 0.0);
  ASSERT_TRUE(WriteProfile(prefix, 3, zero, zero).ok());
  EXPECT_FALSE(std::ifstream(prefix + ".partial").good());
}

}  // namespace
}  // namespace rankmap::mpi_bindings
