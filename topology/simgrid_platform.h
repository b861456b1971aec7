// SimGrid platforms both ways, the front door of the two halves:
// topology/simgrid_write.h writes a Tree with links as a platform SMPI can
// simulate, topology/simgrid_read.h reads a platform (clusters, zones of hosts
// and routers, zones of zones) as a Tree. What one writes the other reads back
// to the same tree (shape, links, costs and host names).
//
//   ASSIGN_OR_RETURN(Tree t, ParseTleaf("tleaf 2 4 10Gbps:2us 8 40GBps:0s"));
//   ASSIGN_OR_RETURN(std::string xml, WriteSimGridPlatform(t));
//   ASSIGN_OR_RETURN(Tree back, ParseSimGridPlatform(xml, "p.xml"));
//   // back has t's shape, links, costs and host names.
#ifndef RANKMAP_TOPOLOGY_SIMGRID_PLATFORM_H_
#define RANKMAP_TOPOLOGY_SIMGRID_PLATFORM_H_

#include "topology/simgrid_read.h"   // IWYU pragma: export
#include "topology/simgrid_write.h"  // IWYU pragma: export

#endif  // RANKMAP_TOPOLOGY_SIMGRID_PLATFORM_H_
