#include "cli/inputs.h"

#include "absl/strings/str_cat.h"
#include "api/load_topology.h"
#include "api/map_outcome.h"
#include "base/status_macros.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/graphs.h"

namespace rankmap::cli {

absl::StatusOr<topology::Tree> LoadTree(const Inputs& in) {
  api::TopologySpec spec;
  spec.description = in.topology;
  spec.kahip_hierarchy = in.hierarchy;
  spec.kahip_distance = in.distance;
  spec.leaf = in.leaf;
  spec.slots_per_leaf = in.slots_per_leaf;
  spec.allowed = in.allowed;
  spec.level_costs = in.level_costs;
  spec.node = in.node;
  return api::LoadTree(spec);
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
  return api::MapBytesOf(tree, options);
}

absl::Status CheckCostRangeOf(const Inputs& in, const topology::Tree& tree,
                              const graphs::CommGraph& graph) {
  const absl::Status s = core::CheckCostRange(tree, graph);
  if (s.ok()) return s;
  return absl::InvalidArgumentError(
      absl::StrCat(in.comm, ": ", std::string(s.message())));
}

}  // namespace rankmap::cli
