// The mutation step of the readers' seeded mutation tests (graphs, OTF2
// traces, mappings): 1 to 4 edits of a valid file, each one of byte
// replacement (from a text alphabet or any byte, NUL and high bytes
// included), deletion of a short range, insertion, a token swapped for a
// hostile value ("-1", "2147483648", "nan", "1e308", ...), a line duplicated
// or deleted, or truncation. Deterministic for a given generator state.
//
//   std::mt19937_64 rng(seed);
//   const std::string mutant = Mutate(valid_file, rng);
#ifndef RANKMAP_GRAPHS_FUZZ_MUTATE_H_
#define RANKMAP_GRAPHS_FUZZ_MUTATE_H_

#include <cstdint>
#include <random>
#include <string>

namespace rankmap::graphs::fuzz {

std::string Mutate(std::string s, std::mt19937_64& rng);

// The value of environment variable `name` as an integer, or `fallback`:
// CI runs fixed seeds and counts, a longer soak sets RANKMAP_MUTANTS and
// RANKMAP_MUTATION_SEED.
int64_t EnvOr(const char* name, int64_t fallback);

}  // namespace rankmap::graphs::fuzz

#endif  // RANKMAP_GRAPHS_FUZZ_MUTATE_H_
