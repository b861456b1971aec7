// What the commands read: the machine as a tree and the communication graph,
// named by flags (see topology/topology.h and graphs/graphs.h for the accepted
// forms).
//
//   ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
//   ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
#ifndef RANKMAP_CLI_INPUTS_H_
#define RANKMAP_CLI_INPUTS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/traffic.h"
#include "topology/tree.h"

namespace rankmap::cli {

// Where processes run and who talks to whom.
struct Inputs {
  std::string topology =
      "this";                  // see topology/topology.h for the accepted forms
  std::string leaf = "pu";     // pu | core
  std::string level_costs;     // "numa=100,pack=50"
  std::string allowed;         // allowed PUs (hwloc list syntax of os indexes)
  int32_t slots_per_leaf = 1;  // processes each leaf can take
  std::string comm;            // communication graph file
  std::string comm_format = "auto";
  // Message counts of `comm` (graphs/traffic.h): "" for the file beside it
  // when there is one, "none", or a file of counts.
  std::string messages;
  // Hosts of a Slurm topology.conf or ibnetdiscover dump: a description for
  // all, or a directory of <host>.xml (topology/switch_tree.h).
  std::string node;
  // KaHIP-style machine, bottom-up ("4:8:6" and "1:10:100"), instead of
  // `topology` (topology/kahip_machine.h).
  std::string hierarchy;
  std::string distance;
};

// The tree of `topology` (or of `hierarchy` and `distance`) with its leaf
// kind, costs, allowed PUs, capacity and node description. Errors: a bad
// --leaf or --slots-per-leaf, --hierarchy without --distance or the reverse,
// or the topology loader's.
absl::StatusOr<topology::Tree> LoadTree(const Inputs& in);

// What a command needs on top of a graph of these counts
// (graphs::ReadOptions::consumer_bytes).
using ConsumerBytes = std::function<int64_t(int64_t vertices, int64_t arcs)>;

// The graph in `comm` with its message counts (`messages`, graphs/traffic.h).
// `consumer_bytes` (MapBytes for the commands that map) is added to the
// graph's estimate before the graph is built, so an input the command could
// not map is refused from its counts. Errors: no file given, an unknown
// format, or the readers' (naming file and line).
absl::StatusOr<graphs::Traffic> LoadTraffic(
    const Inputs& in, const ConsumerBytes& consumer_bytes = nullptr);
// LoadTraffic's graph.
absl::StatusOr<graphs::CommGraph> LoadGraph(
    const Inputs& in, const ConsumerBytes& consumer_bytes = nullptr);

// The working memory of mapping a graph of these counts onto `tree` with
// `threads` workers (core::EstimatedMapBytes).
ConsumerBytes MapBytes(const topology::Tree& tree, int32_t threads);

// OK when J of every mapping of `graph` onto `tree` fits a double
// (core::CheckCostRange); the error names the graph file, whose volumes are
// what must be scaled down.
absl::Status CheckCostRangeOf(const Inputs& in, const topology::Tree& tree,
                              const graphs::CommGraph& graph);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_INPUTS_H_
