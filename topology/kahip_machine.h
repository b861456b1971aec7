// KaHIP's way of describing a machine for process mapping:
//
//   --hierarchy 4:8:6 --distance 1:10:100
//
// reads bottom-up: 4 cores per processor, 8 processors per node, 6 nodes; two
// cores of one processor are at distance 1, of one node at 10, of different
// nodes at 100. tleaf (topology/tleaf.h) reads top-down and gives link costs
// whose sums are the distances, so the same machine is
//
//   tleaf 3 6 90 8 9 4 1
//
// arities reversed (6 8 4), and link cost i = distance(i) - distance(i - 1)
// counted from the top (100 - 10 = 90, 10 - 1 = 9, 1). Leaf numbers agree:
// KaHIP's PE p is leaf p of the tleaf tree (cores of a processor are
// consecutive, then processors, then nodes). Distances must not decrease
// going up (a tleaf link cannot be negative).
#ifndef RANKMAP_TOPOLOGY_KAHIP_MACHINE_H_
#define RANKMAP_TOPOLOGY_KAHIP_MACHINE_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::topology {

// The tleaf line of a KaHIP hierarchy and distance pair ("4:8:6",
// "1:10:100" -> "tleaf 3 6 90 8 9 4 1"). Errors name the flag and the
// column: empty lists, non-integer or non-positive arities, negative or
// non-numeric distances, lists of different lengths, decreasing distances.
absl::StatusOr<std::string> KahipMachineToTleaf(std::string_view hierarchy,
                                                std::string_view distance);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_KAHIP_MACHINE_H_
