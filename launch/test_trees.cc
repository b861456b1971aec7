#include "launch/test_trees.h"

namespace rankmap::launch::testing {

topology::Tree TwoHosts() {
  topology::TreeBuilder b;
  const topology::NodeId root = b.AddRoot("switch", 100);
  const int os[2][2] = {{0, 2}, {1, 3}};
  for (int h = 0; h < 2; ++h) {
    const topology::NodeId node = b.AddChild(root, "Machine", 1);
    for (int k = 0; k < 2; ++k) {
      const topology::NodeId pu = b.AddChild(node, "PU");
      b.SetOsIndex(pu, os[h][k]);
      b.SetLogicalIndex(pu, k);
      b.SetHost(pu, h == 0 ? "alpha" : "beta");
    }
  }
  return std::move(b).Build().value();
}

topology::Tree CoreHost() {
  topology::TreeBuilder b;
  const topology::NodeId root = b.AddRoot("Machine", 1);
  for (int c = 0; c < 2; ++c) {
    const topology::NodeId core = b.AddChild(root, "Core");
    b.SetOsIndex(core, 4 * c);
    b.SetPus(core, {4 * c + 8, 4 * c});
    b.SetLogicalIndex(core, c);
    b.SetHost(core, "gamma");
  }
  return std::move(b).Build().value();
}

JobPlacement Place(const topology::Tree& tree, const core::Mapping& mapping) {
  return PlaceJob(tree, mapping).value();
}

}  // namespace rankmap::launch::testing
