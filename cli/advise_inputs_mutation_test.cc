// Seeded mutation testing of what `rankmap advise` reads from outside: the
// profile's placement file (cli/rank_places.h, over mpi_bindings'
// ParsePlacementLines) and the user's launch line (launch/launch_line.h).
// Valid inputs and the cases that once broke them are mutated thousands of
// times (graphs/fuzz/mutate.h); each result must be accepted with its
// invariants holding, or refused with one line that names the file. Runs in
// CI; clean under ASan/UBSan too (--config=asan).
#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "cli/rank_places.h"
#include "graphs/fuzz/mutate.h"
#include "gtest/gtest.h"
#include "launch/launch_line.h"
#include "topology/tree.h"

namespace rankmap::cli {
namespace {

constexpr int kMutantsPerSeed = 3000;
// Small enough that a lying count cannot make the test allocate much.
constexpr int64_t kBudget = int64_t{16} << 20;

// Hosts n0 (PUs 1, 0) and n1 (PUs 5, 4).
topology::Tree TwoHosts() {
  topology::TreeBuilder b;
  const auto root = b.AddRoot("network", 100);
  const int os[2][2] = {{1, 0}, {5, 4}};
  for (int h = 0; h < 2; ++h) {
    const auto machine = b.AddChild(root, "Machine", 1);
    for (int c = 0; c < 2; ++c) {
      const auto leaf = b.AddChild(machine, "PU");
      b.SetOsIndex(leaf, os[h][c]);
      b.SetHost(leaf, h == 0 ? "n0" : "n1");
    }
  }
  return *std::move(b).Build();
}

const char* const kPlacements[] = {
    // What the profiler writes.
    "# rankmap placement of 4 ranks: <rank> <host> <cpu list> (...)\n"
    "0 n0 0\n1 n0 1\n2 n1 4\n3 n1 5\n",
    "# rankmap placement of 4 ranks: ...; partial: no row from ranks 3\n"
    "2 n1 4-5\n0 n0 0-1\n1 n0 1\n3 n1 4,5\n",
    // Cases of the attack round: a missing rank with another number, a CPU
    // the host lacks, ranges far beyond the host.
    "0 n0 0\n1 n0 1\n2 n1 4\n9 n1 5\n",
    "0 n0 7\n1 n0 1\n2 n1 4\n3 n1 5\n",
    "0 n0 0-1048575\n1 n0 0-1048575\n2 n1 0-1048575\n3 n1 0-1048575\n",
};

TEST(AdviseInputsMutation, EveryPlacementIsCheckedOrRefusedInOneLine) {
  const topology::Tree tree = TwoHosts();
  const std::string name = "mut.placement";
  std::mt19937_64 rng(graphs::fuzz::EnvOr("RANKMAP_MUTATION_SEED", 20261128));
  const int64_t per_seed =
      graphs::fuzz::EnvOr("RANKMAP_MUTANTS", kMutantsPerSeed);
  int64_t placed = 0, refused = 0;
  for (const char* seed : kPlacements) {
    for (int64_t i = 0; i < per_seed; ++i) {
      const std::string text = graphs::fuzz::Mutate(seed, rng);
      absl::StatusOr<RankPlaces> places =
          ParseRankPlaces(text, name, 4, kBudget);
      absl::Status status = places.status();
      if (places.ok()) {
        ASSERT_EQ(places->ranks.size(), 4u) << text;
        for (size_t r = 0; r < 4; ++r)
          ASSERT_EQ(places->ranks[r].rank, static_cast<int32_t>(r)) << text;
        absl::StatusOr<std::vector<topology::ProcessWhere>> where =
            WhereOnMachine(*places, tree);
        status = where.status();
        if (where.ok()) {
          ++placed;
          for (const topology::ProcessWhere& w : *where) {
            const std::set<int32_t> own =
                w.host == "n0" ? std::set<int32_t>{0, 1}
                               : std::set<int32_t>{4, 5};
            ASSERT_TRUE(w.host == "n0" || w.host == "n1") << text;
            ASSERT_LE(w.pus.size(), 2u) << text;
            for (int32_t pu : w.pus) ASSERT_TRUE(own.count(pu)) << text;
          }
          continue;
        }
      }
      ++refused;
      const std::string message(status.message());
      ASSERT_TRUE(status.code() == absl::StatusCode::kInvalidArgument ||
                  status.code() == absl::StatusCode::kNotFound ||
                  status.code() == absl::StatusCode::kResourceExhausted)
          << message << "\ninput:\n"
          << text;
      ASSERT_EQ(message.find('\n'), std::string::npos) << message;
      // The file is named, but for a host the machine lacks (the caller
      // adds the advice to describe it).
      ASSERT_TRUE(message.rfind(name, 0) == 0 ||
                  message.rfind("host '", 0) == 0)
          << message << "\ninput:\n"
          << text;
    }
  }
  EXPECT_GT(placed, per_seed / 20);
  EXPECT_GT(refused, per_seed);
}

// Launch lines as words, one a line (the mutations work on text).
const char* const kLines[] = {
    "mpirun\n-np\n8\n--mca\nbtl\nself,tcp\n--bind-to\ncore\n-x\nA=1\n./app\n4\n",
    "mpirun\n-wd\n/w\n-am\nft\n-map-by\nppr:2:node\n-H\nn0:2,n1:2\n./app\n",
    "mpiexec.hydra\n-launcher\nssh\n-f\nhosts\n-n\n8\n-genv\nA\nb\n-bind-to\ncore\n./"
    "app\n-n\n1\n",
    "srun\n-n4\n--cpu-bind=cores\n-lK\n--exclusive\n--export=NONE,HOME\n-N\n2\n./"
    "app\nx\n",
    // Refused once: MPMD, an application context, an option without value.
    "mpiexec.hydra\n-n\n1\n./a\n:\n-n\n1\n./b\n",
    "mpirun\n--app\nctx\n",
    "srun\n-n\n",
};

TEST(AdviseInputsMutation, EveryLaunchLineIsReadOrRefusedInOneLine) {
  std::mt19937_64 rng(graphs::fuzz::EnvOr("RANKMAP_MUTATION_SEED", 20261129));
  const int64_t per_seed =
      graphs::fuzz::EnvOr("RANKMAP_MUTANTS", kMutantsPerSeed);
  int64_t read = 0, refused = 0;
  for (const char* seed : kLines) {
    for (int64_t i = 0; i < per_seed; ++i) {
      const std::string text = graphs::fuzz::Mutate(seed, rng);
      std::vector<std::string> argv = absl::StrSplit(text, '\n');
      while (!argv.empty() && argv.back().empty()) argv.pop_back();
      for (launch::Launcher l : {launch::Launcher::kOpenMpi,
                                 launch::Launcher::kHydra,
                                 launch::Launcher::kSlurm}) {
        absl::StatusOr<launch::LaunchLine> line = launch::ParseLaunchLine(argv, l);
        if (!line.ok()) {
          ++refused;
          const std::string message(line.status().message());
          ASSERT_EQ(line.status().code(), absl::StatusCode::kInvalidArgument);
          ASSERT_EQ(message.find('\n'), std::string::npos) << message;
          ASSERT_LE(message.size(), 400u) << message;
          continue;
        }
        ++read;
        // The words are split, none lost or made up.
        std::vector<std::string> again = {line->executable};
        again.insert(again.end(), line->options.begin(), line->options.end());
        again.insert(again.end(), line->program.begin(), line->program.end());
        ASSERT_EQ(again, argv) << text;
        ASSERT_EQ(line->placement.size(), line->options.size());
        ASSERT_FALSE(line->program.empty());
        ASSERT_TRUE(line->processes == -1 ||
                    (line->processes >= 1 && line->processes <= (1 << 24)));
        // The rerun keeps the program and its arguments as the last words.
        const launch::LaunchCommand rerun =
            launch::RerunCommand(*line, {{}, {"launcher", "-n", "2"}});
        ASSERT_TRUE(std::equal(line->program.rbegin(), line->program.rend(),
                               rerun.words.rbegin()));
        ASSERT_EQ(rerun.words.front(), line->executable);
      }
    }
  }
  EXPECT_GT(read, per_seed);
  EXPECT_GT(refused, per_seed);
}

}  // namespace
}  // namespace rankmap::cli
