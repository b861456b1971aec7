// The property every topology reader must have on arbitrary bytes, shared by
// the libFuzzer entry points (*_fuzzer.cc) and the seeded mutation test: the
// reader returns a tree that passes Tree::Validate, or an error that is one
// line, names the input, and is InvalidArgument, NotFound or (for sizes)
// ResourceExhausted. It must not crash, hang, or allocate past the budget:
// the budgets below make every refusal for size cheap.
#ifndef RANKMAP_TOPOLOGY_FUZZ_READER_CHECK_H_
#define RANKMAP_TOPOLOGY_FUZZ_READER_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "topology/load_options.h"
#include "topology/tree.h"

namespace rankmap::topology::fuzz {

// Memory and hwloc-work budgets for fuzzed inputs: any small machine fits,
// a lying count is refused at once.
inline constexpr int64_t kFuzzMemoryBudget = int64_t{64} << 20;
inline constexpr int64_t kFuzzHwlocWork = int64_t{100} * 1000 * 1000;

// The options every fuzzed reader gets.
LoadOptions FuzzOptions();

// One reader: parses `text` named `name` with FuzzOptions().
using TopologyReaderFn = absl::StatusOr<Tree> (*)(std::string_view text,
                                                  std::string_view name);

// The readers: tleaf lines, hwloc synthetic strings, network specs, hwloc XML,
// SimGrid platforms, Slurm topology.conf and ibnetdiscover dumps (the last
// two with kFuzzNode as every host's hardware, through AttachNodes).
absl::StatusOr<Tree> ReadTleafText(std::string_view text,
                                   std::string_view name);
absl::StatusOr<Tree> ReadSyntheticText(std::string_view text,
                                       std::string_view name);
absl::StatusOr<Tree> ReadNetworkText(std::string_view text,
                                     std::string_view name);
absl::StatusOr<Tree> ReadXmlText(std::string_view text, std::string_view name);
absl::StatusOr<Tree> ReadSimGridText(std::string_view text,
                                     std::string_view name);
absl::StatusOr<Tree> ReadSlurmText(std::string_view text,
                                   std::string_view name);
absl::StatusOr<Tree> ReadIbnetdiscoverText(std::string_view text,
                                           std::string_view name);

// The hardware of every host of a fuzzed Slurm or InfiniBand network.
inline constexpr char kFuzzNode[] = "tleaf 2 2 10 2 1";

// Runs `read` on `text`. Returns OK when the property holds (`*parsed` tells
// whether the input was accepted), otherwise an Internal error describing the
// violation. An error message must start with `prefix` or contain `name`.
absl::Status CheckReader(TopologyReaderFn read, std::string_view text,
                         std::string_view name, std::string_view prefix,
                         bool* parsed = nullptr);

// For LLVMFuzzerTestOneInput: CheckReader on the bytes, abort() on a
// violation.
void FuzzReader(TopologyReaderFn read, std::string_view prefix,
                const uint8_t* data, size_t size);

}  // namespace rankmap::topology::fuzz

#endif  // RANKMAP_TOPOLOGY_FUZZ_READER_CHECK_H_
