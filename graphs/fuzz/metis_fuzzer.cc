// libFuzzer entry point for ReadMetis (graphs/graph_readers.h). Built as a
// plain binary with fuzz_main.cc (replays files); with clang: -fsanitize=fuzzer
// and no fuzz_main.cc.
#include <cstddef>
#include <cstdint>

#include "graphs/fuzz/reader_check.h"
#include "graphs/graph_readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rankmap::graphs::fuzz::FuzzReader(rankmap::graphs::ReadMetis, data, size);
  return 0;
}
