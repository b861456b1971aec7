// Seeded mutation testing of the tiling readers (speed functions, partitions,
// speed lists): valid files are mutated thousands of times (byte edits, tokens
// swapped for hostile numbers, lines duplicated or removed, truncation); each
// result must be accepted as a valid value, which the next stages take without
// error (FpmBalance and the column DP, ValidatePartition and the volumes), or
// refused with an error naming the file ("name:line: ..." or "name: ..."),
// within a small memory budget. Runs in CI, also under ASan/UBSan. The inputs
// that once hung or ran quadratic are seeds of their own.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "base/text_mutation.h"
#include "gtest/gtest.h"
#include "tiling/partition.h"
#include "tiling/partition_io.h"
#include "tiling/speed_function.h"
#include "tiling/speeds_file.h"
#include "tiling/volume.h"

namespace rankmap::tiling {
namespace {

using ::rankmap::base::IsOk;

constexpr int kMutantsPerReader = 3000;
// Large enough for every seed, small enough that a lying count cannot make
// the reader allocate much.
constexpr int64_t kFuzzMemoryBudget = int64_t{4} << 20;

// The tiling files' bytes and hostile values: counts and sizes that overflow,
// speeds that are not numbers, "size:speed" pairs broken at the colon.
const base::MutationVocabulary& TilingVocabulary() {
  static const base::MutationVocabulary* const kVocabulary =
      new base::MutationVocabulary{"0123456789 \n\t-+.e:#gridnaf",
                                   {"-1",
                                    "0",
                                    "1",
                                    "2",
                                    "2147483647",
                                    "2147483648",
                                    "1000000",
                                    "nan",
                                    "inf",
                                    "-inf",
                                    "1e308",
                                    "1e-320",
                                    "1e100",
                                    "1e-100",
                                    "1e101",
                                    "1e-101",
                                    "9223372036854775807",
                                    "4611686018427387904",
                                    "99999999999999999999",
                                    "grid",
                                    ":",
                                    "1:",
                                    ":1",
                                    "1e400:1",
                                    "1:1e-300",
                                    "0:0",
                                    "#",
                                    ""}};
  return *kVocabulary;
}

// OK when `s` is a refusal naming the input; otherwise what is wrong.
absl::Status CheckRefusal(const absl::Status& s, const std::string& name) {
  const std::string message(s.message());
  const bool named = message.rfind(name + ":", 0) == 0;
  const bool expected = s.code() == absl::StatusCode::kInvalidArgument ||
                        s.code() == absl::StatusCode::kResourceExhausted;
  if (named && expected && message.find('\n') == std::string::npos) {
    return absl::OkStatus();
  }
  return absl::InternalError(
      absl::StrCat("refusal that does not name the input: ", s.ToString()));
}

// Readers return OK when the property holds; `accepted` tells whether the
// input was accepted.
using Check =
    std::function<absl::Status(const std::string& text, bool* accepted)>;

absl::Status CheckSpeedFunctions(const std::string& text, bool* accepted) {
  auto f = ParseSpeedFunctions(text, "f.fpm", kFuzzMemoryBudget);
  *accepted = f.ok();
  if (!f.ok()) return CheckRefusal(f.status(), "f.fpm");
  for (const SpeedFunction& fn : *f) {
    if (absl::Status s = ValidateSpeedFunction(fn); !s.ok()) {
      return absl::InternalError(absl::StrCat("accepted: ", s.ToString()));
    }
  }
  // Whatever the reader accepts balances and partitions.
  auto x = FpmBalance(*f, 144.0);
  if (!x.ok()) return absl::InternalError(x.status().ToString());
  if (f->size() <= kMaxColumnDpProcessors) {
    auto l = ColumnBasedPartition(*x);
    if (!l.ok()) return absl::InternalError(l.status().ToString());
  }
  return absl::OkStatus();
}

absl::Status CheckPartition(const std::string& text, bool* accepted) {
  auto p = ParsePartition(text, "p.part", kFuzzMemoryBudget);
  *accepted = p.ok();
  if (!p.ok()) return CheckRefusal(p.status(), "p.part");
  if (absl::Status s = ValidatePartition(*p); !s.ok()) {
    return absl::InternalError(absl::StrCat("accepted: ", s.ToString()));
  }
  // Square grids of a few owners: the volumes exist or overflow cleanly.
  if (p->rows == p->cols && p->num_owners <= 64) {
    auto v = MatmulVolumes(*p);
    if (!v.ok() && v.status().code() != absl::StatusCode::kInvalidArgument) {
      return absl::InternalError(v.status().ToString());
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSpeeds(const std::string& text, bool* accepted) {
  auto s = ParseSpeeds(text, "s.txt", kFuzzMemoryBudget);
  *accepted = s.ok();
  if (!s.ok()) return CheckRefusal(s.status(), "s.txt");
  for (double v : *s) {
    if (!(v >= kMinSpeed && v <= kMaxSpeed)) {
      return absl::InternalError(absl::StrCat("accepted speed ", v));
    }
  }
  if (!NormalizeSpeeds(*s).ok()) {
    return absl::InternalError("accepted speeds do not normalise");
  }
  return absl::OkStatus();
}

struct Reader {
  const char* name;
  Check check;
  std::vector<std::string> seeds;
};

std::string LongFunction() {  // once quadratic to check
  std::string text = "1 1:2\n0";
  for (int k = 1; k <= 2000; ++k) absl::StrAppend(&text, " ", k, ":1");
  return text + "\n";
}

std::string ManyRectangles() {  // once quadratic to check for overlaps
  std::string text = "grid 40 50\n";
  int owner = 0;
  for (int c = 0; c < 50; ++c) {
    for (int r = 0; r < 40; ++r) {
      absl::StrAppend(&text, owner++, " ", r, " ", c, " 1 1\n");
    }
  }
  return text;
}

std::vector<Reader> Readers() {
  return {
      {"speed functions",
       CheckSpeedFunctions,
       {"# two processors\n1 100:40\n0  64:120 1024:150 16384:140 # cache\n",
        "0 1:1\n1 60:2 100:1\n", "0 1:1e100 1e100:1e100\n1 1:1e-100\n",
        LongFunction()}},
      {"partitions",
       CheckPartition,
       {"grid 12 12\n1 0 0 7 12   # top\n0 7 0 5 12\n",
        "grid 4 4\n0 0 0 2 2\n1 2 0 2 2\n2 0 2 4 2\n",
        "grid 3 3\n0 0 0 1 1\n0 0 1 1 2\n1 1 0 2 3\n", ManyRectangles()}},
      {"speed lists",
       CheckSpeeds,
       {"# two fast, four slow\n4 4\n1 1 1 1\n", "8\n1\n1e-100 1e100\n",
        "1 2.5\n# c\n3 # trailing\n"}},
  };
}

TEST(MutationTest, ReadersAcceptValidValuesOrNameTheInput) {
  for (const Reader& reader : Readers()) {
    SCOPED_TRACE(reader.name);
    for (const std::string& seed : reader.seeds) {
      bool accepted = false;
      const absl::Status s = reader.check(seed, &accepted);
      ASSERT_THAT(s, IsOk()) << s.message() << "\n" << seed.substr(0, 200);
      ASSERT_TRUE(accepted) << "seed refused:\n" << seed.substr(0, 200);
    }
    std::mt19937_64 rng(base::EnvOr("RANKMAP_MUTATION_SEED", 20261126));
    const int64_t mutants = std::max<int64_t>(
        base::EnvOr("RANKMAP_MUTANTS", kMutantsPerReader), 1000);
    int64_t accepted = 0, refused = 0;
    for (int64_t i = 0; i < mutants; ++i) {
      const std::string input = base::MutateText(
          reader.seeds[i % reader.seeds.size()], rng, TilingVocabulary());
      bool ok = false;
      const absl::Status s = reader.check(input, &ok);
      ASSERT_THAT(s, IsOk()) << s.message() << "\ninput:\n"
                             << input.substr(0, 400);
      (ok ? accepted : refused)++;
    }
    // Both outcomes occur: the mutations reach the happy path (rarely for
    // partitions, which must still tile the grid exactly) and the errors.
    EXPECT_GT(accepted, mutants / 500);
    EXPECT_GT(refused, mutants / 5);
  }
}

}  // namespace
}  // namespace rankmap::tiling
