// A tiny stand-in for libFuzzer's driver, so the fuzz entry points build with
// gcc: runs LLVMFuzzerTestOneInput once per file named on the command line (or
// on stdin without arguments). Use it to replay a corpus or a crash.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int Run(const std::string& bytes) {
  return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()),
                                bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::string bytes((std::istreambuf_iterator<char>(std::cin)),
                      std::istreambuf_iterator<char>());
    return Run(bytes);
  }
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fuzz_main: cannot open %s\n", argv[i]);
      return 2;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
    Run(bytes);
    std::printf("%s: ok\n", argv[i]);
  }
  return 0;
}
