#include "graphs/fuzz/mutate.h"

#include <utility>

namespace rankmap::graphs::fuzz {

const base::MutationVocabulary& GraphTextVocabulary() {
  static const base::MutationVocabulary* const kVocabulary =
      new base::MutationVocabulary{
          "0123456789 \n\t-+.eE%#naif\r",
          {"-1",         "0",          "1",
           "2147483647", "2147483648", "99999999999999999999",
           "nan",        "inf",        "-inf",
           "1e308",      "1e-320",     "-0",
           "+",          "0x10",       "1.5",
           "1e",         "%",          "#",
           "",           "111",        "1000000"}};
  return *kVocabulary;
}

std::string Mutate(std::string s, std::mt19937_64& rng) {
  return base::MutateText(std::move(s), rng, GraphTextVocabulary());
}

}  // namespace rankmap::graphs::fuzz
