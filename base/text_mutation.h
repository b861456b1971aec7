// The mutation step of the readers' seeded mutation tests (graphs, OTF2
// traces, mappings, tiling files, machine descriptions). Test-only
// (//base:text_mutation is testonly).
//
// One loop for every reader; what differs from reader to reader is its
// vocabulary: the bytes a replacement draws from and the hostile tokens
// ("-1", "2147483648", "nan", "tleaf", ...) swapped in. Each mutant is 1 to
// max_edits edits of a valid file, each one of: a byte replaced from the
// alphabet, a byte replaced by any byte (NUL and high bytes included), a
// short range deleted, a few alphabet bytes inserted, the token at a position
// swapped for a hostile one (with colon_values, sometimes only the part after
// a ':' of "name:count"), a line duplicated, deleted or swapped with another,
// or the text truncated. Deterministic for a given generator state.
//
//   const MutationVocabulary kSpeeds = {"0123456789 \n.e", {"-1", "nan"}};
//   std::mt19937_64 rng(EnvOr("RANKMAP_MUTATION_SEED", 20261126));
//   const std::string mutant = MutateText(valid_file, rng, kSpeeds);
#ifndef RANKMAP_BASE_TEXT_MUTATION_H_
#define RANKMAP_BASE_TEXT_MUTATION_H_

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace rankmap::base {

struct MutationVocabulary {
  std::string_view alphabet;                // non-empty
  std::vector<std::string> hostile_tokens;  // non-empty
  int max_edits = 4;
  // Swap the value of "name:value" tokens half the time.
  bool colon_values = false;
};

std::string MutateText(std::string s, std::mt19937_64& rng,
                       const MutationVocabulary& vocabulary);

// The value of environment variable `name` as an integer, or `fallback`: CI
// runs fixed seeds and counts; a longer soak sets RANKMAP_MUTANTS and
// RANKMAP_MUTATION_SEED (--test_env=RANKMAP_MUTANTS=<count>).
int64_t EnvOr(const char* name, int64_t fallback);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_TEXT_MUTATION_H_
