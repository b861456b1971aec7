// Prints the traffic of an OTF2 trace, one line per (sender, receiver):
// "sender receiver bytes messages", world ranks, sorted.
//   otf2_traffic TRACE/traces.otf2
#include <cstdio>
#include <string>

#include "graphs/otf2_reader.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s ANCHOR.otf2\n", argv[0]);
    return 2;
  }
  absl::StatusOr<rankmap::graphs::Otf2Traffic> t =
      rankmap::graphs::ReadOtf2Traffic(argv[1]);
  if (!t.ok()) {
    std::fprintf(stderr, "%s\n", std::string(t.status().message()).c_str());
    return 2;
  }
  std::printf("ranks %d\n", t->num_ranks);
  for (const auto& p : t->pairs) {
    std::printf("%d %d %llu %llu\n", p.sender, p.receiver,
                static_cast<unsigned long long>(p.bytes),
                static_cast<unsigned long long>(p.messages));
  }
  return 0;
}
