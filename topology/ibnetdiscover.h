// The InfiniBand fabric as `ibnetdiscover` dumps it, turned into a switch tree
// over the fabric's hosts.
//
//   vendid=0x2c9
//   switchguid=0xec0d9a0300ec8240(ec0d9a0300ec8240)
//   Switch  36 "S-ec0d9a0300ec8240"   # "SwitchIB Mellanox Technologies" base
//   port 0 lid 48 lmc 0 [1]     "H-506b4b03003fa9b6"[1](506b4b03003fa9b6)   #
//   "node018 HCA-1" lid 67 4xEDR [35]    "S-ec0d9a0300ec8300"[1]   # "spine"
//   lid 2 4xEDR
//
//   caguid=0x506b4b03003fa9b6
//   Ca      1 "H-506b4b03003fa9b6"   # "node018 HCA-1"
//   [1](506b4b03003fa9b6)   "S-ec0d9a0300ec8240"[1]   # lid 67 lmc 0 "SwitchIB
//   ..." lid 48 4xEDR
//
// Devices are Switch, Ca and Rt blocks; each port line links the block's
// device to another one. A Ca's host is the first word of its node
// description ("node018 HCA-1" -> node018, the form rdma-core sets); two HCAs
// of one host merge. Routers are ignored.
//
// From graph to tree: switches linked to a host are level 0; every other
// switch's level is its distance in switch hops from level 0. Level-0
// switches that share a host (dual rail) or are linked to each other form one
// group; at level k >= 1, the switches linked to one level k-1 group, or to
// each other, form one group. So a fat tree's spine switches, linked to every
// leaf switch, merge into one node above the leaves, and a three-level fat
// tree keeps its pods. Each group is one switch of the result
// (topology/switch_tree.h: hosts and groups sorted by host name, numbers
// compared as numbers). Link widths and speeds are not used.
#ifndef RANKMAP_TOPOLOGY_IBNETDISCOVER_H_
#define RANKMAP_TOPOLOGY_IBNETDISCOVER_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "topology/switch_tree.h"

namespace rankmap::topology {

// True when a Switch or Ca device line, or a switchguid=/caguid= line, comes
// before anything else that is not a comment or a key=value line.
bool LooksLikeIbnetdiscover(std::string_view text);

// Errors are `source:line: what`: a line that is none of the forms above, a
// port line before any device, a device defined twice, a link to a device no
// block defines, a host name that is not one (base/host_name.h: any host on
// the fabric sets its node description), no host, no switch linked to a
// host, a switch kMaxSwitchDepth or more hops from the nearest host.
// O(lines + links) (each level's switches visited once).
absl::StatusOr<SwitchTree> ParseIbnetdiscover(std::string_view text,
                                              std::string_view source);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_IBNETDISCOVER_H_
