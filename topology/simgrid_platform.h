// SimGrid platforms (XML, DTD version 4.1) both ways: write a Tree with links
// (topology/link.h) as a platform SMPI can simulate, and read a platform as a
// Tree.
//
// Writing. Every host of the tree (a node with a loopback, topology/tree.h)
// becomes a <host> whose `core` is its number of slots (the capacities of its
// leaves) and whose id is its leaves' host name; every node above the hosts a
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
//
// Reading. Accepted, nested in any way the DTD allows except as noted:
//   <cluster>   topology FLAT (a cluster switch over its hosts; host link
//               bw/lat; a backbone bb_bw/bb_lat is folded into the host
//               links: half its latency on each side, its bandwidth as a
//               bound; limiter_link bounds the host links), FAT_TREE
//               ("L;m1..mL;w1..wL;p1..pL": levels of m_L, ..., m_1 children;
//               each level's uplink is one cable, bw and lat, the capacity that
//               parallel cables and several parents add is not kept) and
//               DRAGONFLY ("g,lg;c,lc;r,lr;n": groups > chassis > routers >
//               nodes over the local, green, black and blue links, lr/lc/lg
//               cables each; the tree crosses each level's link twice where
//               SimGrid's minimal routing may cross it once). Hosts are
//               prefix + radical + suffix with `core` slots; loopback_bw and
//               loopback_lat give the loopback, without them a host's own
//               traffic goes up and down its link (SimGrid's behaviour).
//               topology TORUS is refused: a torus is not a tree.
//   <zone>      (or <AS>) holding <host>s, <router>s, <link>s and <route>s
//               whose routes form a tree (routing Floyd, Dijkstra,
//               DijkstraCache or Full): the tree is rooted at the zone's
//               gateway when its parent names one, else at the one node that
//               is never the source of a route (when routes are written child
//               to parent), else at the tree's centre; a route from a node to
//               itself is its loopback (without one: SimGrid's default
//               loopback, 10 GBps, 0 s); branches without hosts are dropped. A
//               Full zone of hosts whose routes join every pair of hosts
//               directly is read as a switch over its hosts with one pair link
//               per pair.
//   <zone>      holding <zone>s and <cluster>s joined by <zoneRoute>s (every
//               pair of children needs one; a multi-cluster grid): a node
//               over one subtree per child, with one pair link per pair: the
//               zoneRoute's links folded (latencies added, smallest bandwidth).
//               Each child is rooted at the gateway its zoneRoutes name (for a
//               cluster: its router); such a zone may only be the top zone or
//               the only child of its parent.
// Hosts become nodes of kind "host" over `core` leaves of kind "core", named
// by the host id; routers "switch", clusters "cluster", zones "zone"; costs
// follow the links (topology/tree.h). <prop>, <config>, <trace>,
// <trace_connect>, <actor>, <process> and <disk> are ignored; every other
// element is an error. Errors name the file, the line and the element:
//   `grid.xml:12: <cluster id='c'>: topology TORUS: a torus is not a tree;
//   rankmap reads FLAT, FAT_TREE and DRAGONFLY clusters`
// The XML is parsed by libxml2 without network access and without loading
// external DTDs.
//
//   ASSIGN_OR_RETURN(Tree t, ParseTleaf("tleaf 2 4 10Gbps:2us 8 40GBps:0s"));
//   ASSIGN_OR_RETURN(std::string xml, WriteSimGridPlatform(t));
//   ASSIGN_OR_RETURN(Tree back, ParseSimGridPlatform(xml, "p.xml"));
//   // back has t's shape, links, costs and host names.
#ifndef RANKMAP_TOPOLOGY_SIMGRID_PLATFORM_H_
#define RANKMAP_TOPOLOGY_SIMGRID_PLATFORM_H_

#include <cstdint>
#include <string>
#include <string_view>

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

// True when the first element of `text` is <platform> (comments, the XML
// declaration and a DOCTYPE may come first). Reads at most the first 4 KiB.
bool LooksLikeSimGridPlatform(std::string_view text);

// Reads a platform held in memory; `source` names it in errors. Errors: XML
// that does not parse (libxml2's message and line), a version below 4,
// elements or cluster topologies rankmap does not read, routes that do not
// form a tree, undefined links or hosts, more than `max_leaves` slots.
absl::StatusOr<Tree> ParseSimGridPlatform(std::string_view xml,
                                          std::string_view source,
                                          int64_t max_leaves = int64_t{1}
                                                               << 26);

// Reads and parses a platform file; errors name the path.
absl::StatusOr<Tree> ReadSimGridPlatformFile(const std::string& path);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_SIMGRID_PLATFORM_H_
