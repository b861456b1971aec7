#include "graphs/otf2_reader.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "graphs/otf2_test_trace.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::TestTrace;

std::string Dir(const std::string& name) {
  const std::string d = std::string(std::getenv("TEST_TMPDIR")) + "/" + name;
  std::filesystem::remove_all(d);
  return d;
}

std::string Pairs(const Otf2Traffic& t) {
  std::string out;
  for (const Otf2Traffic::Pair& p : t.pairs) {
    out += std::to_string(p.sender) + "->" + std::to_string(p.receiver) + " " +
           std::to_string(p.bytes) + "B/" + std::to_string(p.messages) + " ";
  }
  return out;
}

// Comm 1 holds world ranks 3 and 1: its rank 0 is world 3, its rank 1 world 1.
TEST(Otf2Reader, BytesAndMessagesPerWorldRankPair) {
  TestTrace t;
  t.num_ranks = 4;
  t.comms = {{0, 1, 2, 3}, {3, 1}};
  t.sends = {{0, 0, 1, 1000, false}, {0, 0, 1, 24, true},
             {1, 0, 2, 500, false},  {2, 0, 3, 64, true},
             {3, 1, 1, 4000, false}, {1, 1, 0, 16, true},
             {2, 0, 2, 7, false}};
  const std::string dir = Dir("ranks");
  ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
  std::ifstream anchor(dir + "/traces.otf2", std::ios::binary);
  std::string head(16, '\0');
  anchor.read(head.data(), head.size());
  EXPECT_TRUE(LooksLikeOtf2Anchor(head));
  absl::StatusOr<Otf2Traffic> traffic = ReadOtf2Traffic(dir + "/traces.otf2");
  ASSERT_THAT(traffic, IsOk());
  EXPECT_EQ(traffic->num_ranks, 4);
  // 1 -> comm 1 rank 0 is world rank 3; 3 -> comm 1 rank 1 is world rank 1.
  EXPECT_EQ(Pairs(*traffic),
            "0->1 1024B/2 1->2 500B/1 1->3 16B/1 2->2 7B/1 2->3 64B/1 "
            "3->1 4000B/1 ");
  absl::StatusOr<CommGraph> g = TrafficGraph(*traffic);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 4);
  EXPECT_EQ(g->TotalVolume(), 1024 + 500 + 16 + 64 + 4000);
  EXPECT_EQ(g->num_arcs(), 2 * 4);  // {0,1} {1,2} {1,3} {2,3}; 2->2 dropped
}

// EZTrace writes MPI_COMM_WORLD's COMM_GROUP with the id of the
// COMM_LOCATIONS group; both must survive.
TEST(Otf2Reader, WorldGroupSharingAnIdWithACommGroup) {
  TestTrace t;
  t.num_ranks = 3;
  t.comms = {{0, 1, 2}, {2, 0}};
  t.sends = {{0, 0, 2, 30, false}, {1, 1, 0, 5, true}};
  t.world_shares_group_id = true;
  const std::string dir = Dir("shared_id");
  ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
  absl::StatusOr<Otf2Traffic> traffic = ReadOtf2Traffic(dir + "/traces.otf2");
  ASSERT_THAT(traffic, IsOk());
  EXPECT_EQ(traffic->num_ranks, 3);
  EXPECT_EQ(Pairs(*traffic), "0->2 30B/1 1->2 5B/1 ");
}

TEST(Otf2Reader, NotOtf2IsOneLineError) {
  const std::string dir = Dir("junk");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/traces.otf2") << "this is not a trace\n";
  absl::StatusOr<Otf2Traffic> t = ReadOtf2Traffic(dir + "/traces.otf2");
  ASSERT_THAT(t, Not(IsOk()));
  EXPECT_THAT(t.status().message(),
              HasSubstr(dir + "/traces.otf2:1: not an OTF2 archive"));
  EXPECT_EQ(std::string(t.status().message()).find('\n'), std::string::npos);
  EXPECT_FALSE(LooksLikeOtf2Anchor("this is not"));
  absl::StatusOr<Otf2Traffic> missing = ReadOtf2Traffic(dir + "/none.otf2");
  ASSERT_THAT(missing, Not(IsOk()));
  EXPECT_THAT(missing.status().message(),
              HasSubstr("none.otf2: cannot open OTF2 anchor file"));
}

TEST(Otf2Reader, ReceiversOutsideTheirCommunicatorAreErrors) {
  TestTrace t;
  t.num_ranks = 2;
  t.comms = {{0, 1}};
  t.sends = {{0, 0, 5, 10, false}};
  const std::string dir = Dir("outside");
  ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
  absl::StatusOr<Otf2Traffic> r = ReadOtf2Traffic(dir + "/traces.otf2");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.status().message(),
              HasSubstr("traces.otf2: location 1000, event 1: receiver 5 is "
                        "outside communicator 0 (2 ranks)"));
  t.sends = {{1, 3, 0, 10, false}};
  const std::string dir2 = Dir("nocomm");
  ASSERT_THAT(testing::WriteTestTrace(t, dir2), IsOk());
  r = ReadOtf2Traffic(dir2 + "/traces.otf2");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(
      r.status().message(),
      HasSubstr("location 1007, event 1: communicator 3 is not defined"));
}

// The MPI COMM_LOCATIONS group names the ranks: a member that no location
// definition backs once became a rank of its own, silently.
TEST(Otf2Reader, WorldGroupMembersMustBeDefinedLocationsOnce) {
  TestTrace t;
  t.num_ranks = 2;
  t.comms = {{0, 1}};
  t.sends = {{0, 0, 1, 10, false}};
  t.extra_world_members = {424242};
  const std::string dir = Dir("undefined_member");
  ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
  absl::StatusOr<Otf2Traffic> r = ReadOtf2Traffic(dir + "/traces.otf2");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.status().message(),
              HasSubstr("traces.otf2: the MPI COMM_LOCATIONS group lists "
                        "location 424242 as rank 2, but no such location is "
                        "defined"));
  t.extra_world_members = {1000};  // rank 0's location again
  const std::string dir2 = Dir("twice");
  ASSERT_THAT(testing::WriteTestTrace(t, dir2), IsOk());
  r = ReadOtf2Traffic(dir2 + "/traces.otf2");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.status().message(),
              HasSubstr("lists location 1000 twice (ranks 0 and 2)"));
}

// libotf2 opens the definition and event files itself: a FIFO in their place
// blocked it forever. Each is checked to be a regular file first.
TEST(Otf2Reader, FilesLibotf2OpensMustBeRegularFiles) {
  TestTrace t;
  t.num_ranks = 2;
  t.comms = {{0, 1}};
  t.sends = {{0, 0, 1, 10, false}};
  for (const std::string file :
       {"traces/1007.evt", "traces/1000.def", "traces.def"}) {
    const std::string dir = Dir("fifo");
    ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
    const std::string path = dir + "/" + file;
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    std::filesystem::remove(path);
    ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
    absl::StatusOr<Otf2Traffic> r = ReadOtf2Traffic(dir + "/traces.otf2");
    ASSERT_THAT(r, Not(IsOk())) << file;
    EXPECT_THAT(r.status().message(), HasSubstr(path + ": not a regular file"));
  }
}

// A truncated event file reads as fewer events (libotf2 parses what it
// finds in the rest of its buffer): the sends of that rank went missing
// without a word. The definitions' event counts give it away.
TEST(Otf2Reader, TruncatedEventFilesAreRefused) {
  TestTrace t;
  t.num_ranks = 2;
  t.comms = {{0, 1}};
  t.event_chunk_bytes = 256 * 1024;
  for (int k = 0; k < 40000; ++k) t.sends.push_back({1, 0, 0, 100, k % 2 == 1});
  const std::string dir = Dir("truncated");
  ASSERT_THAT(testing::WriteTestTrace(t, dir), IsOk());
  ASSERT_THAT(ReadOtf2Traffic(dir + "/traces.otf2"), IsOk());
  const std::string evt = dir + "/traces/1007.evt";
  const std::string whole = [&] {
    std::ifstream in(evt, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  const uintmax_t size = whole.size();
  ASSERT_GT(size, 512 * 1024u);  // three chunks
  // Inside the last chunk (libotf2 looped forever on these), at chunk
  // boundaries (it reported an error or lost a chunk), all but the closing
  // records, nothing.
  for (const uintmax_t keep :
       {size / 2, size - 2, uintmax_t{256 * 1024}, uintmax_t{512 * 1024},
        uintmax_t{512 * 1024 + 100}, uintmax_t{1}, uintmax_t{0}}) {
    std::ofstream(evt, std::ios::binary | std::ios::trunc)
        << whole.substr(0, keep);
    absl::StatusOr<Otf2Traffic> r = ReadOtf2Traffic(dir + "/traces.otf2");
    ASSERT_THAT(r, Not(IsOk())) << keep << " of " << size << " bytes";
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("1007.evt"));
    EXPECT_EQ(std::string(r.status().message()).find('\n'), std::string::npos);
  }
  // A whole chunk cut out keeps the layout: libotf2 reads the others and
  // the definitions' event count tells the loss.
  std::ofstream(evt, std::ios::binary | std::ios::trunc)
      << whole.substr(0, 256 * 1024) << whole.substr(512 * 1024);
  absl::StatusOr<Otf2Traffic> r = ReadOtf2Traffic(dir + "/traces.otf2");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(std::string(r.status().message()),
              ::testing::MatchesRegex(".*1007.evt: [0-9]+ events read, but the "
                                      "definition of location 1007 says 40001 "
                                      "\\(a truncated or altered event "
                                      "file\\)"));
}

}  // namespace
}  // namespace rankmap::graphs
