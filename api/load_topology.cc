#include "api/load_topology.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "topology/kahip_machine.h"
#include "topology/topology.h"

namespace rankmap::api {

absl::StatusOr<topology::LeafKind> ParseLeafKind(const std::string& leaf) {
  if (leaf == "pu") return topology::LeafKind::kPu;
  if (leaf == "core") return topology::LeafKind::kCore;
  return absl::InvalidArgumentError(
      absl::StrCat("leaf: expected 'pu' or 'core', found '", leaf, "'"));
}

absl::StatusOr<topology::LoadOptions> LoadOptionsOf(const TopologySpec& spec) {
  topology::LoadOptions options;
  ASSIGN_OR_RETURN(options.leaf, ParseLeafKind(spec.leaf));
  if (spec.slots_per_leaf < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "slots per leaf: expected a count >= 1, found ", spec.slots_per_leaf));
  }
  options.capacity = spec.slots_per_leaf;
  options.allowed_pus = spec.allowed;
  options.level_costs = spec.level_costs;
  options.node = spec.node;
  return options;
}

absl::StatusOr<topology::Tree> LoadTree(const TopologySpec& spec) {
  if (spec.kahip_hierarchy.empty() != spec.kahip_distance.empty()) {
    return absl::InvalidArgumentError(
        "--hierarchy and --distance go together (e.g. --hierarchy 4:8:6 "
        "--distance 1:10:100)");
  }
  ASSIGN_OR_RETURN(const topology::LoadOptions options, LoadOptionsOf(spec));
  if (spec.kahip_hierarchy.empty())
    return topology::LoadTopology(spec.description, options);
  ASSIGN_OR_RETURN(
      const std::string tleaf,
      topology::KahipMachineToTleaf(spec.kahip_hierarchy, spec.kahip_distance));
  return topology::LoadTopology(tleaf, options);
}

}  // namespace rankmap::api
