// Seeded mutation testing of the OTF2 reader (graphs/otf2_reader.h): every
// file of a small archive (the anchor, the global and local definitions, the
// event files) is damaged 20 times in CI (RANKMAP_MUTANTS for a soak)
// (graphs/fuzz/mutate.h: byte edits, deletions, insertions, truncation), and
// the archives that once hung or misled the reader are replayed: each read must
// end with traffic whose ranks and pairs are consistent, or with one line that
// names a file of the archive. Runs in CI, also under ASan/UBSan.
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "base/text_mutation.h"
#include "graphs/fuzz/mutate.h"
#include "graphs/otf2_reader.h"
#include "graphs/otf2_test_trace.h"
#include "gtest/gtest.h"

// libotf2 frees nothing of an archive it refuses to open (a damaged file):
// under LeakSanitizer those are its leaks, not the reader's.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libopen-trace-format2\n";
}

namespace rankmap::graphs::fuzz {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

namespace fs = std::filesystem;

constexpr int kMutantsPerFile = 20;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A fresh copy of the archive in `from` at `to`.
void CopyArchive(const std::string& from, const std::string& to) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
}

// OK traffic is consistent; an error is one line naming a file under `dir`.
void ExpectReadOrRefused(const std::string& dir, const std::string& what) {
  const absl::StatusOr<Otf2Traffic> t = ReadOtf2Traffic(dir + "/traces.otf2");
  if (!t.ok()) {
    const std::string message(t.status().message());
    EXPECT_EQ(message.rfind(dir + "/", 0), 0u) << what << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << what << ": " << message;
    return;
  }
  ASSERT_GT(t->num_ranks, 0) << what;
  for (size_t i = 0; i < t->pairs.size(); ++i) {
    const Otf2Traffic::Pair& p = t->pairs[i];
    EXPECT_GE(p.sender, 0) << what;
    EXPECT_LT(p.sender, t->num_ranks) << what;
    EXPECT_GE(p.receiver, 0) << what;
    EXPECT_LT(p.receiver, t->num_ranks) << what;
    EXPECT_GE(p.messages, 1u) << what;
    if (i > 0) {
      const Otf2Traffic::Pair& q = t->pairs[i - 1];
      EXPECT_TRUE(q.sender < p.sender ||
                  (q.sender == p.sender && q.receiver < p.receiver))
          << what;
    }
  }
  EXPECT_THAT(TrafficGraph(*t), IsOk()) << what;
}

testing::TestTrace SmallTrace() {
  testing::TestTrace t;
  t.num_ranks = 3;
  t.comms = {{0, 1, 2}, {2, 0}};
  t.sends = {{0, 0, 1, 1000, false},
             {1, 0, 2, 64, true},
             {2, 1, 1, 8, false},
             {2, 0, 0, 4096, true}};
  return t;
}

TEST(Otf2Mutation, EveryDamagedFileIsReadOrRefusedInOneLine) {
  const std::string tmp = std::getenv("TEST_TMPDIR");
  const std::string base = tmp + "/base", dir = tmp + "/mutant";
  ASSERT_THAT(testing::WriteTestTrace(SmallTrace(), base), IsOk());
  // Rank r is location 1000 + 7r; 5000 + r are its thread locations.
  const char* const files[] = {"traces.otf2",     "traces.def",
                               "traces/1000.def", "traces/1000.evt",
                               "traces/1014.evt", "traces/5001.evt"};
  std::mt19937_64 rng(base::EnvOr("RANKMAP_MUTATION_SEED", 20261208));
  const int64_t per_file = base::EnvOr("RANKMAP_MUTANTS", kMutantsPerFile);
  for (const char* file : files) {
    const std::string original = Slurp(base + "/" + file);
    ASSERT_FALSE(original.empty()) << file;
    for (int64_t i = 0; i < per_file; ++i) {
      CopyArchive(base, dir);
      Spit(dir + "/" + file, Mutate(original, rng));
      ExpectReadOrRefused(dir, file);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The archives that once hung or misled the reader, kept as seeds.
TEST(Otf2Mutation, CasesThatBrokeTheReader) {
  const std::string tmp = std::getenv("TEST_TMPDIR");
  const std::string base = tmp + "/seed", dir = tmp + "/case";
  ASSERT_THAT(testing::WriteTestTrace(SmallTrace(), base), IsOk());
  // A FIFO for an event file: libotf2 blocked opening it.
  CopyArchive(base, dir);
  fs::remove(dir + "/traces/1007.evt");
  ASSERT_EQ(mkfifo((dir + "/traces/1007.evt").c_str(), 0600), 0);
  ExpectReadOrRefused(dir, "fifo");
  // One byte of the anchor (a count libotf2 trusts): it looped for minutes.
  CopyArchive(base, dir);
  std::string anchor = Slurp(dir + "/traces.otf2");
  ASSERT_GT(anchor.size(), 48u);
  anchor[48] = static_cast<char>(0xb1);
  Spit(dir + "/traces.otf2", anchor);
  ExpectReadOrRefused(dir, "anchor");
  // A world group listing a location nobody defined became a rank.
  testing::TestTrace undefined = SmallTrace();
  undefined.extra_world_members = {424242};
  fs::remove_all(dir);
  ASSERT_THAT(testing::WriteTestTrace(undefined, dir), IsOk());
  EXPECT_THAT(ReadOtf2Traffic(dir + "/traces.otf2"), Not(IsOk()));
  // An event file of two chunks cut inside its last: libotf2 looped on its
  // stale buffer; cut at the chunk boundary it failed or lost the chunk.
  testing::TestTrace big = SmallTrace();
  big.event_chunk_bytes = 256 * 1024;
  for (int k = 0; k < 20000; ++k)
    big.sends.push_back({1, 0, 2, 10, k % 2 == 1});
  const std::string chunks = tmp + "/chunks";
  ASSERT_THAT(testing::WriteTestTrace(big, chunks), IsOk());
  const std::string whole = Slurp(chunks + "/traces/1007.evt");
  ASSERT_GT(whole.size() * 3 / 4, 256 * 1024u);
  for (const size_t keep : {whole.size() * 3 / 4, size_t{256 * 1024}}) {
    CopyArchive(chunks, dir);
    Spit(dir + "/traces/1007.evt", whole.substr(0, keep));
    EXPECT_THAT(ReadOtf2Traffic(dir + "/traces.otf2"), Not(IsOk())) << keep;
    ExpectReadOrRefused(dir, "truncated");
  }
}

}  // namespace
}  // namespace rankmap::graphs::fuzz
