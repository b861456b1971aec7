#include "cli/rank_places.h"

#include <cstdlib>
#include <string>

#include "base/file.h"
#include "gtest/gtest.h"
#include "topology/tree.h"

namespace rankmap::cli {
namespace {

// n0 with PUs 1 and 0, n1 with PUs 5 and 4; `numbered` false: no os indexes
// (a tleaf node).
topology::Tree TwoHosts(bool numbered = true) {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network", 100);
  const int os[2][2] = {{1, 0}, {5, 4}};
  for (int h = 0; h < 2; ++h) {
    const auto machine = b.AddChild(root, "Machine", 1);
    for (int c = 0; c < 2; ++c) {
      const auto leaf = b.AddChild(machine, "PU");
      if (numbered) b.SetOsIndex(leaf, os[h][c]);
      b.SetHost(leaf, h == 0 ? "n0" : "n1");
    }
  }
  return *std::move(b).Build();
}

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
  EXPECT_TRUE(base::WriteFile(path, text).ok());
  return path;
}

constexpr char kHead[] = "# rankmap placement of 3 ranks: ...\n";

TEST(RankPlaces, ReadAndPlacedOnTheMachine) {
  const std::string path =
      Write("ok.placement", std::string(kHead) + "2 n1 4\n0 n0 0-1\n1 n1 5\n");
  auto places = ReadRankPlaces(path, 3);
  ASSERT_TRUE(places.ok()) << places.status();
  EXPECT_EQ(HostsInOrder(*places), (std::vector<std::string>{"n0", "n1"}));
  auto where = WhereOnMachine(*places, TwoHosts());
  ASSERT_TRUE(where.ok()) << where.status();
  ASSERT_EQ(where->size(), 3u);
  EXPECT_EQ((*where)[0].host, "n0");
  EXPECT_EQ((*where)[0].pus, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ((*where)[2].pus, (std::vector<int32_t>{4}));
}

// The ranks are exactly 0..n-1: a missing rank with another number in its
// place is named, not accepted.
TEST(RankPlaces, RanksMustBeZeroToNMinusOne) {
  const std::string extra =
      Write("extra.placement", std::string(kHead) + "0 n0 0\n1 n0 1\n7 n1 4\n");
  EXPECT_EQ(ReadRankPlaces(extra, 3).status().message(),
            extra + ":4: rank 7 is not a rank of the profile's 3 (0-2)");
  const std::string gap =
      Write("gap.placement", std::string(kHead) + "0 n0 0\n2 n1 4\n");
  EXPECT_EQ(ReadRankPlaces(gap, 3).status().message(),
            gap + ":3: rank 1 has no line (the next is rank 2)");
  const std::string few = Write("few.placement", std::string(kHead) + "0 n0 0\n");
  EXPECT_EQ(ReadRankPlaces(few, 3).status().message(),
            few + ": 1 ranks placed, the profile has 3 processes (a partial "
                  "profile: some ranks never saved their place)");
}

// CPUs are counted against the host before any range is expanded, and each
// must be one of the host's.
TEST(RankPlaces, CpusMustBeTheHostsOwn) {
  const std::string huge = Write(
      "huge.placement", std::string(kHead) + "0 n0 0-1048575\n1 n0 1\n2 n1 4\n");
  auto places = ReadRankPlaces(huge, 3);
  ASSERT_TRUE(places.ok()) << places.status();
  EXPECT_EQ(WhereOnMachine(*places, TwoHosts()).status().message(),
            huge + ":2: rank 0 names 1048576 CPUs, host 'n0' has 2 in the "
                   "machine (CPUs 0-1)");
  const std::string other =
      Write("other.placement", std::string(kHead) + "0 n0 0\n1 n0 4\n2 n1 4\n");
  places = ReadRankPlaces(other, 3);
  ASSERT_TRUE(places.ok());
  EXPECT_EQ(WhereOnMachine(*places, TwoHosts()).status().message(),
            other + ":3: rank 1 ran on CPU 4, which host 'n0' does not have "
                    "in the machine (CPUs 0-1)");
  // Without CPU numbers in the tree, the count is bounded by the leaves.
  places = ReadRankPlaces(huge, 3);
  EXPECT_EQ(WhereOnMachine(*places, TwoHosts(false)).status().message(),
            huge + ":2: rank 0 names 1048576 CPUs, host 'n0' has 2 in the "
                   "machine (2 leaves, no CPU numbers)");
  const std::string lost =
      Write("lost.placement", std::string(kHead) + "0 n0 0\n1 n7 0\n2 n1 4\n");
  places = ReadRankPlaces(lost, 3);
  ASSERT_TRUE(places.ok());
  const absl::Status s = WhereOnMachine(*places, TwoHosts()).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "host 'n7' of rank 1 is not in the machine");
}

TEST(RankPlaces, PlacementBesideCutsOnlyTheFileNamesExtension) {
  EXPECT_EQ(PlacementBeside("run.v2/profile.mat"), "run.v2/profile.placement");
  EXPECT_EQ(PlacementBeside("run.v2/profile"), "run.v2/profile.placement");
  EXPECT_EQ(PlacementBeside("profile"), "profile.placement");
  EXPECT_EQ(PlacementBeside("/a.b/.hidden"), "/a.b/.hidden.placement");
  EXPECT_EQ(PlacementBeside("p.x.mat"), "p.x.placement");
}

}  // namespace
}  // namespace rankmap::cli
