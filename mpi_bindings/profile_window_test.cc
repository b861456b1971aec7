#include "mpi_bindings/profile_window.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::mpi_bindings::profile {
namespace {

using ::testing::HasSubstr;

WindowSettings Parse(const char* mark, const char* skip, const char* its) {
  absl::StatusOr<WindowSettings> s = ParseWindowSettings(mark, skip, its);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : WindowSettings{};
}

std::string Error(const char* mark, const char* skip, const char* its) {
  absl::StatusOr<WindowSettings> s = ParseWindowSettings(mark, skip, its);
  return s.ok() ? "ok" : std::string(s.status().message());
}

// A program of `iterations` iterations, each a send then an MPI_Allreduce,
// after a start-up send: which sends count, and what ends as iterations.
struct Outcome {
  std::vector<int> counted;  // sends whose traffic was committed
  int64_t iterations = 0;
};

Outcome RunLoop(const WindowSettings& s, int iterations) {
  ProfileWindow w(s);
  Outcome o;
  std::vector<int> pending;
  auto record = [&](int id, double t) {
    if (!w.BeforeRecord(t)) return;
    if (s.marks()) {
      pending.push_back(id);
    } else {
      o.counted.push_back(id);
    }
  };
  auto apply = [&](WindowStep step) {
    if (step == WindowStep::kCommit) {
      o.counted.insert(o.counted.end(), pending.begin(), pending.end());
    }
    if (step != WindowStep::kNone) pending.clear();
  };
  record(-1, 0.0);  // start-up
  for (int i = 0; i < iterations; ++i) {
    record(i, i + 1.0);        // the iteration's send, at second i + 1
    record(100 + i, i + 1.5);  // its allreduce
    apply(w.AfterCall("MPI_Allreduce", i + 1.5));
  }
  apply(w.Finalize());
  o.iterations = w.iterations();
  return o;
}

TEST(ProfileWindowTest, WithoutSettingsEverythingCounts) {
  const Outcome o = RunLoop(WindowSettings{}, 2);
  EXPECT_EQ(o.counted, (std::vector<int>{-1, 0, 100, 1, 101}));
  EXPECT_EQ(o.iterations, 0);
}

TEST(ProfileWindowTest, SkippingIterationsCountsWholeOnesAfterIt) {
  const Outcome o = RunLoop(Parse("MPI_Allreduce", "3", ""), 5);
  // Start-up and iterations 0..2 skipped; 3 and 4 counted whole.
  EXPECT_EQ(o.counted, (std::vector<int>{3, 103, 4, 104}));
  EXPECT_EQ(o.iterations, 2);
}

TEST(ProfileWindowTest, EveryKthCallAndAMaximum) {
  // Every 2nd allreduce ends an iteration: (0 1) (2 3) (4 5); at most 2.
  const Outcome o = RunLoop(Parse("mpi_allreduce/2", "", "2"), 6);
  EXPECT_EQ(o.counted, (std::vector<int>{-1, 0, 100, 1, 101, 2, 102, 3, 103}));
  EXPECT_EQ(o.iterations, 2);
}

TEST(ProfileWindowTest, TrafficAfterTheLastMarkIsDropped) {
  ProfileWindow w(Parse("MPI_Barrier", "", ""));
  EXPECT_TRUE(w.BeforeRecord(0));
  EXPECT_EQ(w.AfterCall("MPI_Barrier", 0), WindowStep::kCommit);
  EXPECT_EQ(w.AfterCall("MPI_Send", 0), WindowStep::kNone);
  EXPECT_TRUE(w.BeforeRecord(0));
  EXPECT_EQ(w.Finalize(), WindowStep::kDiscard);
  EXPECT_EQ(w.iterations(), 1);
}

TEST(ProfileWindowTest, SecondsOpenTheWindowAtTheNextIteration) {
  // Skip 2.5 s: iteration 1 ends at 2.5 s and opens the window; iterations
  // 2.. count whole.
  const Outcome o = RunLoop(Parse("MPI_Allreduce", "2.5s", ""), 4);
  EXPECT_EQ(o.counted, (std::vector<int>{2, 102, 3, 103}));
  // Without a mark the window opens at the first call at 2.5 s or later.
  const Outcome raw = RunLoop(Parse("", " 2.5 S ", ""), 4);
  EXPECT_EQ(raw.counted, (std::vector<int>{101, 2, 102, 3, 103}));
}

TEST(ProfileWindowTest, RecordedCallsSkip) {
  // The first 3 recorded calls (start-up, 0, 100) are not counted.
  const Outcome raw = RunLoop(Parse("", "3calls", ""), 3);
  EXPECT_EQ(raw.counted, (std::vector<int>{1, 101, 2, 102}));
}

TEST(ProfileWindowTest, PcontrolPausesAndResumes) {
  ProfileWindow w(Parse("", "", ""));
  EXPECT_TRUE(w.BeforeRecord(0));
  w.Pcontrol(0, 0);
  EXPECT_FALSE(w.BeforeRecord(0));
  w.Pcontrol(1, 0);
  EXPECT_TRUE(w.BeforeRecord(0));
  w.Pcontrol(2, 0);  // any positive level means on
  EXPECT_TRUE(w.BeforeRecord(0));
  EXPECT_EQ(w.Describe(),
            "from MPI_Init to MPI_Finalize; paused 1 time by MPI_Pcontrol(0)");
  w.Pcontrol(0, 0);
  w.Pcontrol(0, 0);  // already paused
  EXPECT_EQ(w.Describe(),
            "from MPI_Init to MPI_Finalize; paused 2 times by MPI_Pcontrol(0)");
}

TEST(ProfileWindowTest, PcontrolIterations) {
  ProfileWindow w(Parse("pcontrol", "1", ""));
  EXPECT_FALSE(w.BeforeRecord(0));  // before the first Pcontrol(1)
  EXPECT_EQ(w.Pcontrol(1, 0), WindowStep::kNone);
  EXPECT_FALSE(w.BeforeRecord(0));  // iteration 1: skipped
  EXPECT_EQ(w.Pcontrol(1, 0), WindowStep::kDiscard);
  EXPECT_TRUE(w.BeforeRecord(0));  // iteration 2
  EXPECT_EQ(w.Pcontrol(0, 0), WindowStep::kCommit);
  EXPECT_FALSE(w.BeforeRecord(0));  // between iterations
  EXPECT_EQ(w.Pcontrol(1, 0), WindowStep::kNone);
  EXPECT_TRUE(w.BeforeRecord(0));  // iteration 3, closed by MPI_Finalize
  EXPECT_EQ(w.Finalize(), WindowStep::kCommit);
  EXPECT_EQ(w.iterations(), 2);
}

TEST(ProfileWindowTest, PausedIterationsAreNotCounted) {
  ProfileWindow w(Parse("MPI_Waitall", "", ""));
  w.Pcontrol(0, 0);
  EXPECT_EQ(w.AfterCall("MPI_Waitall", 0), WindowStep::kDiscard);
  w.Pcontrol(1, 0);
  EXPECT_EQ(w.AfterCall("MPI_Waitall", 0), WindowStep::kCommit);
  EXPECT_EQ(w.iterations(), 1);
}

TEST(ProfileWindowTest, BadSettingsAreOneLineNamingTheVariable) {
  EXPECT_THAT(Error("MPI_Allreduc", "", ""),
              HasSubstr("RANKMAP_PROFILE_MARK='MPI_Allreduc': expected "
                        "'pcontrol' or an MPI function"));
  EXPECT_THAT(Error("MPI_Allreduce/0", "", ""),
              HasSubstr("RANKMAP_PROFILE_MARK='MPI_Allreduce/0'"));
  EXPECT_THAT(Error("", "3", ""),
              HasSubstr("RANKMAP_PROFILE_SKIP='3': skipping iterations needs "
                        "RANKMAP_PROFILE_MARK"));
  EXPECT_THAT(Error("MPI_Bcast", "-1", ""),
              HasSubstr("RANKMAP_PROFILE_SKIP='-1'"));
  EXPECT_THAT(Error("MPI_Bcast", "xs", ""),
              HasSubstr("RANKMAP_PROFILE_SKIP='xs': expected seconds"));
  EXPECT_THAT(Error("MPI_Bcast", "", "0"),
              HasSubstr("RANKMAP_PROFILE_ITERATIONS='0'"));
  EXPECT_THAT(Error("", "", "5"),
              HasSubstr("RANKMAP_PROFILE_ITERATIONS='5': counting iterations "
                        "needs RANKMAP_PROFILE_MARK"));
  EXPECT_NE(Error("MPI_Bcast", "nans", ""), "ok");
  EXPECT_NE(Error("MPI_Bcast", "infs", ""), "ok");
}

TEST(ProfileWindowTest, FlushIsCheckedLikeTheOtherVariables) {
  EXPECT_EQ(*ParseFlushSeconds(""), kDefaultFlushSeconds);
  EXPECT_EQ(*ParseFlushSeconds("2.5"), 2.5);
  EXPECT_EQ(*ParseFlushSeconds("0"), 0.0);
  EXPECT_EQ(*ParseFlushSeconds("-1"), -1.0);
  for (const char* bad : {"abc", "nan", "5s", "inf", "1e999", " "}) {
    absl::StatusOr<double> v = ParseFlushSeconds(bad);
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_EQ(v.status().message(),
              std::string("RANKMAP_PROFILE_FLUSH='") + bad +
                  "': expected seconds between saves of each rank's row, as "
                  "'2.5' (0: after every call, negative: never)");
  }
}

TEST(ProfileWindowTest, HeaderSaysWhatTheNumbersAre) {
  const WindowSettings s = Parse("MPI_Allreduce/3", "2", "10");
  EXPECT_EQ(s.Describe(),
            "iterations end at every 3rd MPI_Allreduce; the first 2 skipped; "
            "at most 10 counted");
  const std::vector<double> same = {7, 7}, differ = {6, 7}, none = {0, 0};
  EXPECT_EQ(ProfileHeader(s.Describe(), true, same, "openmpi"),
            "rankmap profile: " + s.Describe() +
                "; 7 iterations on every rank; traffic per iteration (window "
                "totals / 7); collectives: openmpi");
  EXPECT_THAT(
      ProfileHeader(s.Describe(), true, differ, "mpich"),
      HasSubstr("from 6 to 7 iterations per rank; traffic per "
                "iteration (each rank's row divided by its own count)"));
  EXPECT_THAT(ProfileHeader(s.Describe(), true, none, "star"),
              HasSubstr("no complete iteration, no traffic"));
  EXPECT_EQ(ProfileHeader(WindowSettings{}.Describe(), false, {}, "star"),
            "rankmap profile: from MPI_Init to MPI_Finalize; window totals; "
            "collectives: star");
}

TEST(ProfileWindowTest, FactsSayTheSameAsKeyValues) {
  using Facts = std::vector<std::pair<std::string, std::string>>;
  const std::vector<double> same = {7, 7}, differ = {6, 7}, none = {0, 0};
  EXPECT_EQ(ProfileFacts("w", true, same, "openmpi"),
            (Facts{{"window", "w"},
                   {"iterations", "7"},
                   {"traffic", "per iteration"},
                   {"collectives", "openmpi"}}));
  EXPECT_EQ(ProfileFacts("w", true, differ, "mpich")[1],
            std::make_pair(std::string("iterations"), std::string("6-7")));
  EXPECT_EQ(ProfileFacts("w", true, none, "star")[2],
            std::make_pair(std::string("traffic"), std::string("none")));
  EXPECT_EQ(ProfileFacts("w", false, {}, "star"),
            (Facts{{"window", "w"},
                   {"iterations", "none"},
                   {"traffic", "window totals"},
                   {"collectives", "star"}}));
}

}  // namespace
}  // namespace rankmap::mpi_bindings::profile
