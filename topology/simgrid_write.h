// Writing a Tree with links (topology/link.h) as a SimGrid platform (XML, DTD
// version 4.1) that SMPI can simulate.
//
// Every host of the tree (a node with a loopback, topology/tree.h) becomes a
// <host> whose `core` is its number of slots (the capacities of its leaves)
// and whose id is its leaves' host name; every node above the hosts a
// <router>; every uplink a SPLITDUPLEX <link> (full duplex: each direction
// has the whole bandwidth) on a <route> from the child up to its parent; every
// loopback a SHARED <link> on the host's route to itself (the host's
// processes share it). All of this sits in one zone with Floyd routing, whose
// routes follow the tree. A root with pair links (clusters joined pairwise,
// topology/network.h `links`) is written as a zone with Full routing holding
// one such zone per child, joined by one <zoneRoute> per pair over the pair's
// link; a child with an uplink reaches the others through a router of its own
// above it, over that uplink. Host speed: PlatformWriteOptions::host_speed.
// Errors: no links, a leaf outside every host, hosts without a name or with
// the same name, a node between a host and the root (other than the root)
// without an uplink (SimGrid forbids empty routes), pair links below the root.
// topology/simgrid_read.h reads what is written here back to the same tree.
//
//   ASSIGN_OR_RETURN(Tree t, ParseTleaf("tleaf 2 4 10Gbps:2us 8 40GBps:0s"));
//   ASSIGN_OR_RETURN(std::string xml, WriteSimGridPlatform(t));
#ifndef RANKMAP_TOPOLOGY_SIMGRID_WRITE_H_
#define RANKMAP_TOPOLOGY_SIMGRID_WRITE_H_

#include <string>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::topology {

struct PlatformWriteOptions {
  // Flops/s of every host (SimGrid needs one; SMPI uses it only for simulated
  // computation).
  double host_speed = 1e9;
};

// The platform described above. O(nodes + pairs of the root's children).
absl::StatusOr<std::string> WriteSimGridPlatform(
    const Tree& tree, const PlatformWriteOptions& options = {});

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_SIMGRID_WRITE_H_
