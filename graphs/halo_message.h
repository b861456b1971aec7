// HaloMessage: one halo transfer of a stencil-like program, as the stencil
// front end computes it (graphs/frontends/stencil.h) and the time models take
// it (models/flow.h). A plain value, kept apart from the front end so that the
// models depend on the message, not on the front end that produces it.
#ifndef RANKMAP_GRAPHS_HALO_MESSAGE_H_
#define RANKMAP_GRAPHS_HALO_MESSAGE_H_

#include <cstdint>

namespace rankmap::graphs {

// One halo transfer per iteration: `cells` ghost cells of process dst owned by
// process src.
struct HaloMessage {
  int32_t src = 0;
  int32_t dst = 0;
  int64_t cells = 0;
  friend bool operator==(const HaloMessage&, const HaloMessage&) = default;
};

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_HALO_MESSAGE_H_
