// TopologySpec: a machine as the interfaces name it (a description string and
// its options by name), loaded in one place.
//
// The C API, Python and the MPI libraries take the machine as a string (any
// description topology/topology.h accepts: "this", an hwloc synthetic string,
// an XML export, a tleaf line or file, a network spec, a SimGrid platform, a
// Slurm or InfiniBand file) with the leaf kind, slots per leaf, allowed leaves
// and level costs as plain values. This is where those names are read.
//
//   TopologySpec spec;
//   spec.description = "pack:2 core:8 pu:2";
//   spec.leaf = "core";
//   ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(spec));
#ifndef RANKMAP_API_LOAD_TOPOLOGY_H_
#define RANKMAP_API_LOAD_TOPOLOGY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "topology/load_options.h"
#include "topology/tree.h"

namespace rankmap::api {

struct TopologySpec {
  std::string description = "this";
  std::string leaf = "pu";  // pu | core (hwloc inputs)
  int32_t slots_per_leaf = 1;
  // Leaves to keep: hwloc list syntax ("0-3,8") of PU os indexes for hwloc
  // inputs, of logical leaf indexes for the others; "": all.
  std::string allowed;
  std::string level_costs;  // "numa=100,pack=50" (hwloc inputs)
  // The hosts' hardware for Slurm and InfiniBand networks
  // (topology/switch_tree.h); "": none given.
  std::string node;
  // A KaHIP machine instead of the description: arities bottom-up ("4:8:6")
  // and the distance at each level ("1:10:100"); both or neither.
  std::string kahip_hierarchy;
  std::string kahip_distance;
};

// "pu" or "core". Errors: "leaf: expected 'pu' or 'core', found '<leaf>'".
absl::StatusOr<topology::LeafKind> ParseLeafKind(const std::string& leaf);

// The spec as topology::LoadOptions. Errors: ParseLeafKind's, slots per leaf
// below 1.
absl::StatusOr<topology::LoadOptions> LoadOptionsOf(const TopologySpec& spec);

// The tree of the spec (topology::LoadTopology, or the KaHIP machine's tleaf).
// Errors: LoadOptionsOf's, "--hierarchy and --distance go together" when one
// of kahip_hierarchy and kahip_distance is empty, the KaHIP lists' (which name
// the flag and the column) and the loader's, which name the file, line or
// column at fault.
absl::StatusOr<topology::Tree> LoadTree(const TopologySpec& spec);

}  // namespace rankmap::api

#endif  // RANKMAP_API_LOAD_TOPOLOGY_H_
