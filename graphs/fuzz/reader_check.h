// The property every graph reader must have on arbitrary bytes, shared by the
// libFuzzer entry points (*_fuzzer.cc) and the seeded mutation test: the reader
// returns either a graph that passes CommGraph's full invariant check, or an
// InvalidArgument error whose message starts with `name:line: ` (it never
// crashes, hangs or allocates past the budget).
#ifndef RANKMAP_GRAPHS_FUZZ_READER_CHECK_H_
#define RANKMAP_GRAPHS_FUZZ_READER_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/graph_readers.h"

namespace rankmap::graphs::fuzz {

using ReaderFn = absl::StatusOr<CommGraph> (*)(std::string_view,
                                               std::string_view,
                                               const ReadOptions&);

// Budget for fuzzed inputs: large enough for any small file, small enough that
// a lying header cannot make the process allocate much.
inline constexpr int64_t kFuzzMemoryBudget = int64_t{16} << 20;

// Runs `read` on `text` named `name`. Returns OK when the property holds
// (`*parsed` tells whether the input was accepted), otherwise an Internal error
// describing the violation.
absl::Status CheckReader(ReaderFn read, std::string_view text,
                         std::string_view name, bool* parsed = nullptr);

// For LLVMFuzzerTestOneInput: CheckReader on the bytes, abort() on a violation.
void FuzzReader(ReaderFn read, const uint8_t* data, size_t size);

}  // namespace rankmap::graphs::fuzz

#endif  // RANKMAP_GRAPHS_FUZZ_READER_CHECK_H_
