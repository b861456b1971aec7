#include "mpi_bindings/profile_output.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
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

std::string Slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(ProfileOutputTest, WritesThreeFiles) {
  const std::string prefix = ::testing::TempDir() + "/prof";
  const std::vector<double> bytes = {0, 10, 20, 0};
  const std::vector<double> msgs = {0, 1, 2, 0};
  ASSERT_TRUE(WriteProfile(prefix, 2, bytes, msgs).ok());
  EXPECT_EQ(Slurp(prefix + ".mat"), "0 10\n20 0\n");
  EXPECT_EQ(Slurp(prefix + ".msgs.mat"), "0 1\n2 0\n");
  EXPECT_EQ(Slurp(prefix + ".grf"), "0\n2 2\n0\t010\n1\t30 1\n1\t30 0\n");
  absl::Status s = WriteProfile("/nonexistent-dir/x", 2, bytes, msgs);
  EXPECT_EQ(s.message(),
            "/nonexistent-dir/x.mat: cannot open for writing: No such file or "
            "directory");
}

TEST(ProfileOutputTest, WhatTheProfileSaysGoesToItsSideFile) {
  const std::string prefix = ::testing::TempDir() + "/headed";
  const std::vector<double> bytes = {0, 10, 20, 0};
  const std::vector<double> msgs = {0, 1, 2, 0};
  ProfileNotes notes;
  notes.window =
      "rankmap profile: from MPI_Init to MPI_Finalize; window "
      "totals; collectives: openmpi";
  notes.facts = {{"window", "from MPI_Init to MPI_Finalize"},
                 {"iterations", "none"},
                 {"traffic", "window totals"},
                 {"collectives", "openmpi"}};
  ASSERT_TRUE(WriteProfile(prefix, 2, bytes, msgs, notes).ok());
  // The matrices stay bare: TopoMatch's format has no comment, nor Scotch's.
  EXPECT_EQ(Slurp(prefix + ".mat"), "0 10\n20 0\n");
  EXPECT_EQ(Slurp(prefix + ".msgs.mat"), "0 1\n2 0\n");
  EXPECT_EQ(Slurp(prefix + ".grf"), "0\n2 2\n0\t010\n1\t30 1\n1\t30 0\n");
  EXPECT_EQ(Slurp(ProfileSidePath(prefix)),
            "# " + notes.window +
                "\nprocesses=2\nwindow=from MPI_Init to MPI_Finalize\n"
                "iterations=none\ntraffic=window totals\ncollectives=openmpi\n"
                "bytes=headed.mat\nmessages=headed.msgs.mat\ngraph=headed.grf\n"
                "placement=headed.placement\n");
  notes.partial = "rank 1 called MPI_Abort (error code 3)\nand more";
  ASSERT_TRUE(WriteProfile(prefix, 2, bytes, msgs, notes).ok());
  EXPECT_EQ(Slurp(prefix + ".mat"), "0 10\n20 0\n");
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> facts =
      ParseProfileSide(Slurp(ProfileSidePath(prefix)), "side");
  ASSERT_TRUE(facts.ok()) << facts.status();
  EXPECT_THAT(*facts, ::testing::Contains(std::make_pair(
                          std::string("partial"),
                          std::string("rank 1 called MPI_Abort (error code "
                                      "3) and more"))));
  EXPECT_EQ(Slurp(prefix + ".partial"), notes.partial + "\n");
  EXPECT_EQ(ParseProfileSide("# x\nprocesses=2\nbad line\n", "p.profile")
                .status()
                .message(),
            "p.profile:3: expected key=value, found 'bad line'");
}

ProfileRow SampleRow() {
  ProfileRow row;
  row.rank = 1;
  row.world_size = 3;
  row.state = "aborted (MPI_Abort error code 3)";
  row.bytes = {800, 0, 0.5};
  row.messages = {1, 0, 1};
  row.fetched_bytes = {0, 0, 0};
  row.fetched_messages = {0, 0, 0};
  row.window = "iterations end at each MPI_Allreduce; the first 3 skipped";
  row.marks = true;
  row.iterations = 4;
  row.collectives = "openmpi";
  row.host = "node7";
  row.cpus = {4, 5, 12};
  return row;
}

TEST(ProfileOutputTest, RowsRoundTrip) {
  const ProfileRow row = SampleRow();
  const std::string text = FormatRow(row);
  EXPECT_EQ(text,
            "rankmap-profile-row 1 3\naborted (MPI_Abort error code 3)\n"
            "window 1 4 openmpi iterations end at each MPI_Allreduce; the "
            "first 3 skipped\nplacement node7 4-5,12\n0 800 1 0 0\n2 0.5 1 0 "
            "0\n");
  absl::StatusOr<ProfileRow> back = ParseRow(text, "r");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->bytes, row.bytes);
  EXPECT_EQ(back->state, row.state);
  EXPECT_EQ(back->window, row.window);
  EXPECT_TRUE(back->marks);
  EXPECT_EQ(back->iterations, 4);
  EXPECT_EQ(back->collectives, "openmpi");
  EXPECT_EQ(back->host, "node7");
  EXPECT_EQ(back->cpus, row.cpus);
  EXPECT_THAT(std::string(ParseRow("rankmap-profile-row 1 3\nx\nwindow 0 0 "
                                   "star w\n7 1 1 0 0\n",
                                   "r.part")
                              .status()
                              .message()),
              HasSubstr("r.part:4: expected 'j bytes"));
  EXPECT_THAT(
      std::string(ParseRow("rankmap-profile-row 1 3\nx\n7 1 1 0 0\n", "r.part")
                      .status()
                      .message()),
      HasSubstr("r.part:3: expected 'window"));
  EXPECT_THAT(std::string(ParseRow("rankmap-profile-row 1 3\nx\nwindow 0 0 "
                                   "star w\nplacement -oProxy 0\n",
                                   "r.part")
                              .status()
                              .message()),
              HasSubstr("r.part:4: host name '-oProxy'"));
  EXPECT_FALSE(ParseRow("garbage", "r").ok());
}

TEST(ProfileOutputTest, PerIterationDividesMarkedRowsOnly) {
  ProfileRow row = SampleRow();
  PerIteration(&row);
  EXPECT_EQ(row.bytes, (std::vector<double>{200, 0, 0.125}));
  EXPECT_EQ(row.messages, (std::vector<double>{0.25, 0, 0.25}));
  row = SampleRow();
  row.marks = false;
  PerIteration(&row);
  EXPECT_EQ(row.bytes, (std::vector<double>{800, 0, 0.5}));
  row = SampleRow();
  row.iterations = 0;
  PerIteration(&row);
  EXPECT_EQ(row.bytes, (std::vector<double>{800, 0, 0.5}));
}

TEST(ProfileOutputTest, MergesSavedRowsIntoAPartialProfile) {
  const std::string prefix = ::testing::TempDir() + "/partial";
  // Ranks 0 and 2 of 3 saved rows; rank 1 never did. Each counted 2
  // iterations of 800 bytes to the next rank.
  for (int r : {0, 2}) {
    ProfileRow row;
    row.rank = r;
    row.world_size = 3;
    row.state = r == 2 ? "aborted (MPI_Abort error code 3)" : "running";
    row.bytes = {0, 0, 0};
    row.bytes[(r + 1) % 3] = 1600;
    row.messages = {0, 0, 0};
    row.messages[(r + 1) % 3] = 2;
    row.fetched_bytes = {0, 0, 0};
    row.fetched_messages = {0, 0, 0};
    row.window = "iterations end at each MPI_Barrier";
    row.marks = true;
    row.iterations = 2;
    row.collectives = "openmpi";
    row.host = r == 0 ? "nodeA" : "nodeB";
    row.cpus = {r, r + 1};
    ASSERT_TRUE(WriteFileAtomically(RowPath(prefix, r), FormatRow(row)).ok());
  }
  absl::StatusOr<std::string> summary =
      MergePartialProfile(prefix, 3, "rank 2 called MPI_Abort (error code 3)");
  ASSERT_TRUE(summary.ok()) << summary.status();
  const std::string note =
      "rank 2 called MPI_Abort (error code 3); rows of 2 of 3 processes, each "
      "as of its last save; no row from ranks 1; rank 2 aborted (MPI_Abort "
      "error code 3)";
  EXPECT_EQ(Slurp(prefix + ".mat"), "0 800 0\n0 0 0\n800 0 0\n");
  EXPECT_EQ(Slurp(ProfileSidePath(prefix)),
            "# rankmap profile: iterations end at each MPI_Barrier; 2 "
            "iterations on every rank; traffic per iteration (window totals / "
            "2); collectives: openmpi\nprocesses=3\nwindow=iterations end at "
            "each MPI_Barrier\niterations=2\ntraffic=per iteration\n"
            "collectives=openmpi\npartial=" +
                note +
                "\nbytes=partial.mat\nmessages=partial.msgs.mat\n"
                "graph=partial.grf\nplacement=partial.placement\n");
  EXPECT_EQ(Slurp(prefix + ".partial"), note + "\n");
  absl::StatusOr<std::vector<RankPlacement>> where =
      ParsePlacement(Slurp(PlacementPath(prefix)), "p");
  ASSERT_TRUE(where.ok()) << where.status();
  ASSERT_EQ(where->size(), 2u);
  EXPECT_EQ((*where)[1].rank, 2);
  EXPECT_EQ((*where)[1].host, "nodeB");
  EXPECT_EQ((*where)[1].cpus, (std::vector<int32_t>{2, 3}));
  // A complete profile later removes the partial marker.
  const std::vector<double> zero(9, 0.0);
  ASSERT_TRUE(WriteProfile(prefix, 3, zero, zero).ok());
  EXPECT_FALSE(std::ifstream(prefix + ".partial").good());
}

// ---- Placement files.

TEST(PlacementTest, CpuListsRoundTrip) {
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{12, 4, 5, 4}), "4-5,12");
  EXPECT_EQ(FormatCpuList(std::vector<int32_t>{0, 1, 2, 3, 8}), "0-3,8");
  absl::StatusOr<std::vector<int32_t>> cpus = ParseCpuList("8,0-3", 100);
  ASSERT_TRUE(cpus.ok()) << cpus.status();
  EXPECT_EQ(*cpus, (std::vector<int32_t>{0, 1, 2, 3, 8}));
  for (const char* bad :
       {"", "3-1", "a", "1,,2", "-1", "1-", "+3", "1048576", "0-1048575,5"}) {
    EXPECT_FALSE(ParseCpuList(bad, 1 << 20).ok()) << bad;
  }
  // A huge range is refused before it is expanded.
  EXPECT_THAT(std::string(ParseCpuList("0-1000000", 4096).status().message()),
              HasSubstr("more than 4096 CPUs"));
}

TEST(PlacementTest, FileRoundTripsInAnyOrder) {
  std::vector<RankPlacement> ranks = {
      {0, "node7", {0, 1}}, {1, "node7", {2, 3}}, {2, "node8", {0, 4}}};
  const std::string text = FormatPlacement(ranks, 3, "");
  EXPECT_EQ(text,
            "# rankmap placement of 3 ranks: <rank> <host> <cpu list> (the "
            "CPUs sched_getaffinity allowed each rank at MPI_Init, "
            "operating-system indexes)\n0 node7 0-1\n1 node7 2-3\n2 node8 "
            "0,4\n");
  absl::StatusOr<std::vector<RankPlacement>> back = ParsePlacement(
      "# comment\n\n2 node8 0,4\n0 node7 0-1   # first\n"
      "1 node7 2-3\n",
      "job.placement");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*back)[i].rank, ranks[i].rank);
    EXPECT_EQ((*back)[i].host, ranks[i].host);
    EXPECT_EQ((*back)[i].cpus, ranks[i].cpus);
  }
}

TEST(PlacementTest, BadFilesNameFileAndLine) {
  auto error = [](const std::string& text) {
    absl::StatusOr<std::vector<RankPlacement>> p = ParsePlacement(text, "j.pl");
    return p.ok() ? std::string("ok") : std::string(p.status().message());
  };
  EXPECT_EQ(error("0 a 0\n1 b\n"),
            "j.pl:2: expected '<rank> <host> <cpu list>', found 2 fields");
  EXPECT_EQ(error("x a 0\n"),
            "j.pl:1: rank 'x' is not a whole number below 2^24");
  EXPECT_EQ(error("16777216 a 0\n"),
            "j.pl:1: rank '16777216' is not a whole number below 2^24");
  EXPECT_EQ(error("0 a 0\n\n0 b 1\n"), "j.pl:3: rank 0 already on line 1");
  EXPECT_THAT(error("0 -oProxyCommand=x 0\n"),
              HasSubstr("j.pl:1: host name '-oProxyCommand=x'"));
  EXPECT_THAT(error("0 ../etc 0\n"), HasSubstr("j.pl:1: host name"));
  EXPECT_THAT(error("0 a 3-1\n"), HasSubstr("j.pl:1: bad CPU list '3-1'"));
  // Sizes are checked before anything is allocated.
  const std::string many(4096, '\n');
  absl::StatusOr<std::vector<RankPlacement>> small =
      ParsePlacement(many, "big.pl", /*max_memory_bytes=*/1024);
  EXPECT_THAT(std::string(small.status().message()),
              HasSubstr("above the memory budget"));
  EXPECT_THAT(
      std::string(
          ParsePlacement("0 a 0-999999\n", "j.pl", 1 << 20).status().message()),
      HasSubstr("j.pl: the CPU lists of 1 ranks (1000000 CPUs) needs about "
                "3.8 MiB, above the memory budget of 1.0 MiB"));
  // The CPUs of all lines count together: 300 lines of a million CPUs each
  // (4 MiB apiece, 1.2 GiB in all) are refused before any is expanded.
  std::string wide;
  for (int r = 0; r < 300; ++r) absl::StrAppend(&wide, r, " a 0-1048575\n");
  EXPECT_THAT(std::string(ParsePlacement(wide, "wide.pl", int64_t{512} << 20)
                              .status()
                              .message()),
              HasSubstr("wide.pl: the CPU lists of 300 ranks (314572800 "
                        "CPUs)"));
}

}  // namespace
}  // namespace rankmap::mpi_bindings
