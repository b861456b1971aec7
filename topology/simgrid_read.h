// Reading a SimGrid platform (XML, DTD version 4 and later) as a Tree.
//
// Accepted, nested in any way the DTD allows except as noted:
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
//   ASSIGN_OR_RETURN(Tree t, ParseSimGridPlatform(xml, "p.xml"));
#ifndef RANKMAP_TOPOLOGY_SIMGRID_READ_H_
#define RANKMAP_TOPOLOGY_SIMGRID_READ_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::topology {

// The name of the first element of `text` ("platform", "topology"), after
// an optional byte order mark, blanks, the XML declaration, processing
// instructions, comments and a DOCTYPE (with its internal subset) of any
// length; empty when the text does not start like XML. O(length).
std::string_view XmlRootElement(std::string_view text);

// True when XmlRootElement(text) is "platform".
bool LooksLikeSimGridPlatform(std::string_view text);

// Reads a platform held in memory; `source` names it in errors. Host ids
// (and a cluster's prefix + radical + suffix) must be host names
// (base/host_name.h). The tree is counted, cores, nodes and host name bytes
// (topology/tree_size.h), before each cluster or host is built. Errors
// (`source:line: <element id='...'>: ...`, values escaped and cut): XML that
// does not parse (libxml2's message and line), a version below 4, elements
// or cluster topologies rankmap does not read, fat trees of more than 256
// levels, routes that do not form a tree, undefined links or hosts, bad host
// names, more than `max_leaves` cores; ResourceExhausted: a tree above
// max_memory_bytes (0: base::MemoryBudget()'s default).
absl::StatusOr<Tree> ParseSimGridPlatform(std::string_view xml,
                                          std::string_view source,
                                          int64_t max_leaves = int64_t{1} << 26,
                                          int64_t max_memory_bytes = 0);

// Reads and parses a platform file; errors name the path.
absl::StatusOr<Tree> ReadSimGridPlatformFile(const std::string& path,
                                             int64_t max_memory_bytes = 0);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_SIMGRID_READ_H_
