#include "cli/inputs.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "core/map_budget.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/graphs.h"
#include "topology/hierarchy.h"
#include "topology/topology.h"

namespace rankmap::cli {

absl::StatusOr<topology::Tree> LoadTree(const Inputs& in) {
  topology::LoadOptions opts;
  if (in.leaf == "core") {
    opts.leaf = topology::LeafKind::kCore;
  } else if (in.leaf != "pu") {
    return absl::InvalidArgumentError(
        absl::StrCat("--leaf: expected pu or core, found '", in.leaf, "'"));
  }
  if (in.slots_per_leaf < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--slots-per-leaf: expected a count >= 1, found ", in.slots_per_leaf));
  }
  opts.level_costs = in.level_costs;
  opts.allowed_pus = in.allowed;
  opts.capacity = in.slots_per_leaf;
  opts.node = in.node;
  if (in.hierarchy.empty() != in.distance.empty()) {
    return absl::InvalidArgumentError(
        "--hierarchy and --distance go together (e.g. --hierarchy 4:8:6 "
        "--distance 1:10:100)");
  }
  if (!in.hierarchy.empty()) {
    ASSIGN_OR_RETURN(const std::string tleaf,
                     topology::HierarchyToTleaf(in.hierarchy, in.distance));
    return topology::LoadTopology(tleaf, opts);
  }
  return topology::LoadTopology(in.topology, opts);
}

absl::StatusOr<graphs::Traffic> LoadTraffic(
    const Inputs& in, const ConsumerBytes& consumer_bytes) {
  if (in.comm.empty())
    return absl::InvalidArgumentError(
        "--comm: a communication graph file is required");
  graphs::TrafficOptions options;
  ASSIGN_OR_RETURN(options.format, graphs::ParseGraphFormat(in.comm_format));
  options.messages = in.messages;
  options.read.consumer_bytes = consumer_bytes;
  return graphs::ReadTraffic(in.comm, options);
}

absl::StatusOr<graphs::CommGraph> LoadGraph(
    const Inputs& in, const ConsumerBytes& consumer_bytes) {
  ASSIGN_OR_RETURN(graphs::Traffic traffic, LoadTraffic(in, consumer_bytes));
  return std::move(traffic.graph);
}

ConsumerBytes MapBytes(const topology::Tree& tree, int32_t threads) {
  core::MappingOptions options;
  options.threads = threads;
  return [&tree, options](int64_t vertices, int64_t arcs) {
    return core::EstimatedMapBytes(tree, vertices, arcs, options);
  };
}

absl::Status CheckCostRangeOf(const Inputs& in, const topology::Tree& tree,
                              const graphs::CommGraph& graph) {
  const absl::Status s = core::CheckCostRange(tree, graph);
  if (s.ok()) return s;
  return absl::InvalidArgumentError(
      absl::StrCat(in.comm, ": ", std::string(s.message())));
}

}  // namespace rankmap::cli
