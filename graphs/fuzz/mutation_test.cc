// Seeded mutation testing of every reader: valid files (writer outputs and
// hand-written variants) are mutated thousands of times (byte edits, token
// swaps with hostile values, line duplication/removal, truncation); each result
// must be accepted as a valid graph or rejected with a `name:line:` error
// (reader_check.h). Runs in CI, also under ASan/UBSan.
#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "base/text_mutation.h"
#include "graphs/fuzz/mutate.h"
#include "graphs/fuzz/reader_check.h"
#include "graphs/graph_readers.h"
#include "graphs/graph_writers.h"
#include "graphs/test_graphs.h"
#include "gtest/gtest.h"

namespace rankmap::graphs::fuzz {
namespace {

using ::rankmap::base::IsOk;

// CI runs this count and a fixed seed; a longer soak can be asked for with
// --test_env=RANKMAP_MUTANTS=<count per format>
// --test_env=RANKMAP_MUTATION_SEED=<seed>.
constexpr int kMutantsPerFormat = 5000;

std::string Write(absl::Status (*write)(const CommGraph&, TextSink&,
                                        const WriteOptions&),
                  const CommGraph& g) {
  std::string text;
  TextSink sink(&text);
  EXPECT_THAT(write(g, sink, WriteOptions{}), IsOk());
  EXPECT_THAT(sink.Finish(), IsOk());
  return text;
}

struct Format {
  const char* name;
  ReaderFn read;
  std::vector<std::string> seeds;
};

std::vector<Format> Formats() {
  const CommGraph small = testing::RandomGraph(12, 2, 3, true, true);
  const CommGraph real = testing::RandomGraph(9, 2, 4, false);
  const CommGraph tm = testing::TreeMatchExampleGraph();
  return {
      {"m.mat",
       ReadMat,
       {Write(WriteMat, tm), Write(WriteMat, real),
        "# c\n0 +1.5e2 3\n\n150 0 .5\n3 0.5 0\n"}},
      {"s.grf",
       ReadScotch,
       {Write(WriteScotch, small), Write(WriteScotch, tm),
        "0\n3 4\n0 100\n30 1 20\n10 1 20\n20 2 30 10\n",
        "0\n3 4\n1 001\n4 1 2\n9 2 3\n1\n7 1 2\n"}},
      {"g.graph",
       ReadMetis,
       {Write(WriteMetis, small), Write(WriteMetis, tm), "4 2\n2\n1 3\n2\n\n",
        "% c\n2 1 111 2\n9 4 5 2 6\n% c\n9 8 1 1 6\n"}},
      {"x.mtx",
       ReadMatrixMarket,
       {Write(WriteMatrixMarket, real),
        "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n2 1 4\n3 2 "
        "1\n3 3 9\n",
        "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 2\n1 2\n3 "
        "1\n"}},
      {"e.edges",
       ReadEdgeList,
       {Write(WriteEdgeList, real), Write(WriteEdgeList, small),
        "0 1\n1 2\n# c\n2 0\n"}},
  };
}

TEST(MutationTest, EveryReaderAcceptsValidGraphsOrReportsFileLine) {
  for (const Format& f : Formats()) {
    SCOPED_TRACE(f.name);
    for (const std::string& seed : f.seeds) {
      bool parsed = false;
      ASSERT_THAT(CheckReader(f.read, seed, f.name, &parsed), IsOk());
      ASSERT_TRUE(parsed) << "seed does not parse:\n" << seed;
    }
    std::mt19937_64 rng(base::EnvOr("RANKMAP_MUTATION_SEED", 20261122));
    const int64_t mutants = std::max<int64_t>(
        base::EnvOr("RANKMAP_MUTANTS", kMutantsPerFormat), 1000);
    int64_t accepted = 0, rejected = 0;
    for (int64_t i = 0; i < mutants; ++i) {
      const std::string input = Mutate(f.seeds[i % f.seeds.size()], rng);
      bool parsed = false;
      const absl::Status s = CheckReader(f.read, input, f.name, &parsed);
      ASSERT_THAT(s, IsOk()) << s.message() << "\ninput:\n" << input;
      (parsed ? accepted : rejected)++;
    }
    // Both outcomes occur, so the mutations exercise the error paths and the
    // happy path.
    EXPECT_GT(accepted, mutants / 200);
    EXPECT_GT(rejected, mutants / 5);
  }
}

TEST(MutationTest, LyingHeadersAreRejectedBeforeAllocating) {
  // Counts far beyond the file size or the budget: each must fail fast with a
  // message.
  const std::pair<ReaderFn, std::string> cases[] = {
      {ReadScotch, "0\n2000000000 2000000000\n0 000\n"},
      {ReadMetis, "2000000000 1\n"},
      {ReadMetis, "2 2000000000\n"},
      {ReadMatrixMarket,
       "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 "
       "1\n1 1 1\n"},
      {ReadMatrixMarket,
       "%%MatrixMarket matrix coordinate real general\n2 2 2000000000\n"},
      {ReadEdgeList, "0 2000000000 1\n"},
  };
  for (const auto& [read, text] : cases) {
    bool parsed = true;
    ASSERT_THAT(CheckReader(read, text, "h", &parsed), IsOk());
    EXPECT_FALSE(parsed) << text;
  }
}

}  // namespace
}  // namespace rankmap::graphs::fuzz
