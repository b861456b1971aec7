// Writes a rankfile that reverses the default placement of a job on this
// machine's first PUs: rankfile_mpi_test_main physical|logical NP OUT. The tree
// is built by hand with this host's name and PU os indexes 0..NP-1 (physical),
// or without os indexes (logical).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "mpi_bindings/rankfile.h"

int main(int argc, char** argv) {
  using namespace rankmap;
  if (argc != 4) return 2;
  const bool physical = std::string(argv[1]) == "physical";
  const int np = std::atoi(argv[2]);
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  topology::TreeBuilder b;
  topology::NodeId root = b.AddRoot("Machine", 1);
  for (int k = 0; k < np; ++k) {
    topology::NodeId pu = b.AddChild(root, "PU");
    if (physical) b.SetOsIndex(pu, k);
    b.SetHost(pu, host);
  }
  topology::Tree tree = std::move(b).Build().value();
  core::Mapping reversed(np);
  for (int p = 0; p < np; ++p) reversed[p] = np - 1 - p;
  absl::Status s = mpi_bindings::WriteRankfile(argv[3], tree, reversed);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
