// libFuzzer entry point for the Slurm topology.conf reader
// (topology/fuzz/reader_check.h). Built as a plain binary with
// graphs/fuzz/fuzz_main.cc (replays files); with clang: -fsanitize=fuzzer and
// no fuzz_main.cc.
#include <cstddef>
#include <cstdint>

#include "topology/fuzz/reader_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rankmap::topology::fuzz::FuzzReader(rankmap::topology::fuzz::ReadSlurmText,
                                      "fuzz", data, size);
  return 0;
}
