#include "graphs/traffic.h"

#include <string>

#include "base/file.h"
#include "base/temp_dir.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

TEST(MessagesPathBeside, ReplacesTheLastExtension) {
  EXPECT_EQ(MessagesPathBeside("run/app.mat"), "run/app.msgs.mat");
  EXPECT_EQ(MessagesPathBeside("app.grf"), "app.msgs.mat");
  EXPECT_EQ(MessagesPathBeside("a.b/app.per.mat"), "a.b/app.per.msgs.mat");
  EXPECT_EQ(MessagesPathBeside("app.msgs.mat"), "");
  EXPECT_EQ(MessagesPathBeside("a.b/app"), "");
  EXPECT_EQ(MessagesPathBeside("run/.hidden"), "");
  EXPECT_EQ(MessagesPathBeside("noext"), "");
}

// Bytes 0<->1 and 1<->2; messages on 0<->1 and on 0<->2 (zero-byte, as a
// barrier's), none on 1<->2.
TEST(AttachMessages, UnionOfPairsWithZerosWhereOneIsMissing) {
  auto bytes = ReadGraphString("0 100 0\n100 0 7\n0 0 0\n", "b.mat");
  auto msgs = ReadGraphString("0 2 1\n3 0 0\n1 0 0\n", "m.mat");
  ASSERT_TRUE(bytes.ok() && msgs.ok());
  auto g = AttachMessages(*bytes, *msgs, "m.mat");
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_TRUE(g->has_messages());
  EXPECT_EQ(g->num_edges(), 3);
  EXPECT_EQ(g->EdgeWeight(0, 1), 200.0);
  EXPECT_EQ(g->EdgeWeight(0, 2), 0.0);
  EXPECT_EQ(g->EdgeWeight(1, 2), 7.0);
  // Row 0: 1 (5 messages: 2 + 3), 2 (2 messages: 1 + 1).
  EXPECT_EQ(g->messages(0)[0], 5.0);
  EXPECT_EQ(g->messages(0)[1], 2.0);
  // Row 1: 0, 2 (bytes, no messages).
  EXPECT_EQ(g->messages(1)[1], 0.0);
  EXPECT_EQ(g->TotalMessages(), 7.0);
  EXPECT_EQ(g->TotalVolume(), 207.0);
}

TEST(AttachMessages, DifferentSizesAreAnError) {
  auto bytes = ReadGraphString("0 1\n1 0\n", "b.mat");
  auto msgs = ReadGraphString("0 1 1\n1 0 1\n1 1 0\n", "m.mat");
  ASSERT_TRUE(bytes.ok() && msgs.ok());
  EXPECT_EQ(AttachMessages(*bytes, *msgs, "m.mat").status().message(),
            "m.mat: message counts of 3 processes for a graph of 2");
}

// Profiles of earlier releases began both matrices with comment lines; they
// still read as the same traffic.
TEST(ReadTraffic, ReadsProfilesWithTheOldHeader) {
  auto dir = base::TempDir::Create("traffic");
  ASSERT_TRUE(dir.ok());
  const std::string p = dir->path() + "/old";
  const std::string head =
      "# partial profile: rank 1 called MPI_Abort (error code 3)\n"
      "# rankmap profile: from MPI_Init to MPI_Finalize; window totals; "
      "collectives: library\n";
  ASSERT_TRUE(base::WriteFile(p + ".mat", head + "0 64 0\n32 0 8\n0 0 0\n").ok());
  ASSERT_TRUE(base::WriteFile(p + ".msgs.mat", head + "0 2 0\n1 0 1\n0 0 0\n").ok());
  auto t = ReadTraffic(p + ".mat");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->graph.num_vertices(), 3);
  EXPECT_EQ(t->graph.EdgeWeight(0, 1), 96.0);
  EXPECT_EQ(t->graph.EdgeWeight(1, 2), 8.0);
  EXPECT_EQ(t->graph.TotalMessages(), 4.0);
  EXPECT_EQ(t->messages_path, p + ".msgs.mat");
}

TEST(ReadTraffic, FindsTheCountsBesideAndObeysTheOptions) {
  auto dir = base::TempDir::Create("traffic");
  ASSERT_TRUE(dir.ok());
  const std::string p = dir->path() + "/app";
  ASSERT_TRUE(base::WriteFile(p + ".mat", "0 64\n64 0\n").ok());
  ASSERT_TRUE(base::WriteFile(p + ".grf", "0\n2 2\n0 010\n1 128 1\n1 128 0\n")
                  .ok());
  // No side file yet: bytes only.
  auto plain = ReadTraffic(p + ".mat");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_FALSE(plain->graph.has_messages());
  EXPECT_EQ(plain->messages_path, "");
  ASSERT_TRUE(base::WriteFile(p + ".msgs.mat", "0 4\n4 0\n").ok());
  for (const char* ext : {".mat", ".grf"}) {
    auto t = ReadTraffic(p + ext);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->messages_path, p + ".msgs.mat");
    EXPECT_EQ(t->graph.TotalMessages(), 8.0);
    EXPECT_EQ(t->graph.TotalVolume(), 128.0);
  }
  TrafficOptions none;
  none.messages = "none";
  auto t = ReadTraffic(p + ".mat", none);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->graph.has_messages());
  TrafficOptions missing;
  missing.messages = p + ".nope.mat";
  EXPECT_FALSE(ReadTraffic(p + ".mat", missing).ok());
  TrafficOptions explicit_file;
  ASSERT_TRUE(base::WriteFile(p + ".counts", "0 1 5\n").ok());
  explicit_file.messages = p + ".counts";
  explicit_file.messages_format = GraphFormat::kEdgeList;
  auto e = ReadTraffic(p + ".mat", explicit_file);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->graph.TotalMessages(), 5.0);
}

}  // namespace
}  // namespace rankmap::graphs
