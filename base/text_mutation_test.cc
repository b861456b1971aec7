#include "base/text_mutation.h"

#include <cstdlib>
#include <random>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

const MutationVocabulary kVocabulary = {"xyz", {"HOSTILE"}, 4, false};
const std::string kText = "aaaa bbbb\ncccc dddd\neeee ffff\n";

TEST(MutateTextTest, SameSeedSameMutants) {
  std::mt19937_64 a(7), b(7);
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(MutateText(kText, a, kVocabulary),
              MutateText(kText, b, kVocabulary));
  }
}

TEST(MutateTextTest, EveryKindOfEditOccurs) {
  std::mt19937_64 rng(1);
  bool hostile = false, alphabet = false, high_byte = false, shorter = false,
       longer = false, line_moved = false;
  for (int i = 0; i < 2000; ++i) {
    const std::string m = MutateText(kText, rng, kVocabulary);
    hostile |= absl::StrContains(m, "HOSTILE");
    alphabet |= m.find_first_of("xyz") != std::string::npos;
    high_byte |=
        m.find_first_not_of("abcdefxyzHOSTILE \n") != std::string::npos;
    shorter |= m.size() < kText.size();
    longer |= m.size() > kText.size() + 7;
    // Lines moved whole: the second line now comes first.
    line_moved |= m.rfind("cccc dddd\n", 0) == 0;
  }
  EXPECT_TRUE(hostile);
  EXPECT_TRUE(alphabet);
  EXPECT_TRUE(high_byte);
  EXPECT_TRUE(shorter);
  EXPECT_TRUE(longer);
  EXPECT_TRUE(line_moved);
}

TEST(MutateTextTest, EditsAreBoundedAndEmptyTextIsFine) {
  const MutationVocabulary one = {"x", {"T"}, 1, false};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 500; ++i) {
    // One edit of "ab\n" grows it by at most one line or three bytes.
    EXPECT_LE(MutateText("ab\n", rng, one).size(), 6u);
    EXPECT_LE(MutateText("", rng, one).size(), 3u);
  }
}

TEST(MutateTextTest, ColonValuesKeepTheName) {
  const MutationVocabulary colon = {"x", {"9"}, 1, true};
  std::mt19937_64 rng(5);
  bool kept_name = false;
  for (int i = 0; i < 2000 && !kept_name; ++i) {
    kept_name = MutateText("core:4", rng, colon) == "core:9";
  }
  EXPECT_TRUE(kept_name);
}

TEST(EnvOrTest, ReadsTheVariableOrFallsBack) {
  setenv("RANKMAP_TEXT_MUTATION_TEST", "42", 1);
  EXPECT_EQ(EnvOr("RANKMAP_TEXT_MUTATION_TEST", 7), 42);
  unsetenv("RANKMAP_TEXT_MUTATION_TEST");
  EXPECT_EQ(EnvOr("RANKMAP_TEXT_MUTATION_TEST", 7), 7);
}

}  // namespace
}  // namespace rankmap::base
