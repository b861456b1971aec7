// Front door of topology/: load a Tree from any of the forms users have.
//
//   LoadOptions opts;
//   opts.leaf = LeafKind::kCore;
//   ASSIGN_OR_RETURN(Tree t, LoadTopology("pack:2 core:4 pu:2", opts));
//
// Accepted descriptions, detected from the content like hwloc's -i, in this
// order:
//   "this"                     the running machine (hwloc)
//   "tleaf L a1 c1 ..."        an inline tleaf (topology/tleaf.h)
//   path of an existing file   by its content: XML whose first element is
//                              <platform>: SimGrid platform
//                              (topology/simgrid_platform.h); other XML
//                              ("<"): hwloc XML export;
//                              first word "tleaf": tleaf file; first
//                              directive "network": network spec
//                              (topology/network.h); SwitchName= lines:
//                              Slurm topology.conf or `scontrol show
//                              topology` (topology/slurm_topology.h);
//                              ibnetdiscover output
//                              (topology/ibnetdiscover.h)
//   anything else              an hwloc synthetic string
//                              ("pack:2 numa:2 core:4 pu:2")
//
// Options (topology/load_options.h): leaf kind and level costs apply to hwloc
// inputs and to the hwloc nodes of a network spec (level costs given for a
// tleaf are an error: tleaf carries its own); allowed_pus restricts hwloc
// inputs by PU os index and other inputs by logical leaf index; capacity > 1
// oversubscribes every leaf. The hosts of a Slurm or InfiniBand network get
// their hardware from options.node (topology/switch_tree.h). Leaf speeds
// (Tree::speed) come from hwloc's CPU kinds and a network spec's `speed`
// directive; other inputs give every leaf speed 1.
#ifndef RANKMAP_TOPOLOGY_TOPOLOGY_H_
#define RANKMAP_TOPOLOGY_TOPOLOGY_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "topology/load_options.h"
#include "topology/tree.h"

namespace rankmap::topology {

// Errors name the input (file, line or column) and the field that is wrong.
absl::StatusOr<Tree> LoadTopology(std::string_view description,
                                  const LoadOptions& options = {});

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_TOPOLOGY_H_
