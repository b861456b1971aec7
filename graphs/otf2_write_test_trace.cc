// Writes the OTF2 archive the CLI tests map: otf2_write_test_trace DIR.
// Four ranks; comm 1 holds world ranks 3 and 1. Traffic in world ranks:
// 0 -> 1: 1000 + 24 bytes (2 messages), 1 -> 2: 500, 2 -> 3: 64 (Isend),
// 3 -> 1: 4000 (comm 1, rank 1 there is world rank 1), 3 -> 0: 8.
#include <cstdio>
#include <string>

#include "graphs/otf2_test_trace.h"

int main(int argc, char** argv) {
  using rankmap::graphs::testing::TestTrace;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  TestTrace t;
  t.num_ranks = 4;
  t.comms = {{0, 1, 2, 3}, {3, 1}};
  t.sends = {{0, 0, 1, 1000, false}, {0, 0, 1, 24, true},
             {1, 0, 2, 500, false},  {2, 0, 3, 64, true},
             {3, 1, 1, 4000, false}, {3, 0, 0, 8, false}};
  absl::Status s = WriteTestTrace(t, argv[1]);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
