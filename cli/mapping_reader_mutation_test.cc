// Seeded mutation testing of the mapping readers (JSON, Open MPI rankfiles,
// plain; cli/mapping_reader.h): valid files and the cases that once broke
// them are mutated thousands of times (graphs/fuzz/mutate.h); each result
// must be read as a mapping no longer than its file, or refused with one line
// that starts with the file's name. Runs in CI, also under ASan/UBSan.
#include <random>
#include <string>
#include <vector>

#include "cli/mapping_reader.h"
#include "graphs/fuzz/mutate.h"
#include "gtest/gtest.h"
#include "topology/tree.h"

namespace rankmap::cli {
namespace {

constexpr int kMutantsPerSeed = 3000;

// Two hosts of 2 PUs each; PU os indexes 1, 0 on n0 and 5, 4 on n1.
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

const char* const kSeeds[] = {
    // What map writes.
    "# mpirun --use-hwthread-cpus --mca rmaps_rank_file_physical 1 "
    "--rankfile m.rf -np 4 ./app\n"
    "rank 0=n0 slot=1\nrank 1=n1 slot=4\nrank 2=n0 slot=0\nrank 3=n1 slot=5\n",
    "# mpirun --map-by rankfile:file=m.rf:HWTCPUS -np 2 ./app\n"
    "rank 1=n1 slot=1\nrank 0=n0 slot=0-1\n",
    "{\"algorithm\": \"portfolio\", \"j\": 16, \"processes\": 4, "
    "\"mapping\": [2, 0, 3, 1], \"device\": [null, \"gpu0\", null, null]}\n",
    "2\n0\n# comment\n3\n1\n",
    "/* banner */\nFoamFile\n{\n    version 2.0;\n    format ascii;\n"
    "    class labelList;\n    object rankmap.decomp;\n}\n\n4\n(\n2\n0\n3\n"
    "1\n)\n// ** //\n",
    // Cases that once broke the readers: a rank sized the table, a nested
    // "mapping" was taken for the top-level one.
    "rank 0=n0 slot=1\nrank 600000000=n0 slot=0\n",
    "{\"meta\": {\"mapping\": [9, 9], \"s\": \"\\\"mapping\\\": [1]\"},\n"
    " \"deep\": [[[[{\"a\": [1, {\"b\": null}]}]]]], \"mapping\": [1, 0]}",
};

TEST(MappingReaderMutation, EveryMutantIsReadOrRefusedInOneLine) {
  const topology::Tree tree = TwoHosts();
  const std::string name = "mut.map";
  std::mt19937_64 rng(graphs::fuzz::EnvOr("RANKMAP_MUTATION_SEED", 20261207));
  const int64_t per_seed =
      graphs::fuzz::EnvOr("RANKMAP_MUTANTS", kMutantsPerSeed);
  int64_t accepted = 0, refused = 0;
  for (const char* seed : kSeeds) {
    for (int64_t i = 0; i < per_seed; ++i) {
      const std::string text = graphs::fuzz::Mutate(seed, rng);
      const absl::StatusOr<core::Mapping> m = ParseAnyMapping(text, name, tree);
      if (m.ok()) {
        ++accepted;
        // No amplification: every entry stands for at least two bytes.
        ASSERT_LE(m->size(), text.size() / 2 + 1) << text;
        for (core::LeafId l : *m) ASSERT_GE(l, 0) << text;
        continue;
      }
      ++refused;
      const std::string message(m.status().message());
      ASSERT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument)
          << message << "\ninput:\n"
          << text;
      ASSERT_EQ(message.rfind(name + ":", 0), 0u) << message << "\ninput:\n"
                                                  << text;
      ASSERT_EQ(message.find('\n'), std::string::npos)
          << message << "\ninput:\n"
          << text;
    }
  }
  // Both outcomes occur, so the mutations reach the error paths and the
  // happy path.
  EXPECT_GT(accepted, per_seed / 10);
  EXPECT_GT(refused, per_seed);
}

}  // namespace
}  // namespace rankmap::cli
