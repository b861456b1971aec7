// The vocabulary of the graph text formats for the seeded mutation tests of
// their readers (graphs, OTF2 traces' text parts, mappings): bytes of
// numbers, comments and line ends, and hostile values ("-1", "2147483648",
// "nan", "1e308", ...). The edits themselves are base::MutateText's.
//
//   std::mt19937_64 rng(base::EnvOr("RANKMAP_MUTATION_SEED", 20261122));
//   const std::string mutant = Mutate(valid_file, rng);
#ifndef RANKMAP_GRAPHS_FUZZ_MUTATE_H_
#define RANKMAP_GRAPHS_FUZZ_MUTATE_H_

#include <random>
#include <string>

#include "base/text_mutation.h"

namespace rankmap::graphs::fuzz {

const base::MutationVocabulary& GraphTextVocabulary();

// base::MutateText(s, rng, GraphTextVocabulary()).
std::string Mutate(std::string s, std::mt19937_64& rng);

}  // namespace rankmap::graphs::fuzz

#endif  // RANKMAP_GRAPHS_FUZZ_MUTATE_H_
