// Front door of topology/: load a Tree from any of the forms users have.
//
//   LoadOptions opts;
//   opts.leaf = LeafKind::kCore;
//   ASSIGN_OR_RETURN(Tree t, LoadTopology("pack:2 core:4 pu:2", opts));
//
// Accepted descriptions (detected from the content, like hwloc's -i):
//   "this"                      the running machine (hwloc)
//   hwloc synthetic string      "pack:2 numa:2 core:4 pu:2"
//   path to an hwloc XML file   as written by `lstopo --of xml`
//   tleaf                       "tleaf 3 2 100 4 10 8 1" inline, or a file
//   holding that line path to a network spec      clusters/switches over nodes
//   (format in topology/network.h)
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
