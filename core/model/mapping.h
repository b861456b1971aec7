// Mapping: which leaf of a topology::Tree each process runs on, and what that
// costs.
//
//   Mapping m = {0, 2, 1, 3};             // m[process] = leaf
//   RETURN_IF_ERROR(ValidateMapping(tree, graph.num_vertices(), m));
//   ASSIGN_OR_RETURN(CostReport r, Cost(tree, graph, m));   // r.j,
//   r.hop_bytes, ...
//
// The objective is J = sum over edges {i, j} of w(i, j) * Distance(m[i], m[j]),
// with w the symmetric (both directions summed) volume of CommGraph.
#ifndef RANKMAP_CORE_MODEL_MAPPING_H_
#define RANKMAP_CORE_MODEL_MAPPING_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

using topology::LeafId;
using topology::NodeId;

// mapping[process] = leaf.
using Mapping = std::vector<LeafId>;

// The first `limit` slots of a tree in leaf order (all when fewer): leaf l
// appears capacity(l) times. The identity (packed) placement puts process i on
// slots[i]. O(leaves + result size): pass the number of processes as `limit`
// on oversubscribed trees, whose total capacity can reach 2^31 x leaves.
std::vector<LeafId> Slots(const topology::Tree& tree,
                          int64_t limit = INT64_MAX);

// OK when mapping has num_processes entries, each a leaf id in range, and no
// leaf receives more processes than its capacity. Errors name the first
// offending process or leaf.
absl::Status ValidateMapping(const topology::Tree& tree, int64_t num_processes,
                             const Mapping& mapping);

// n-to-1 mappings (partitioning and mapping in one step: more vertices than
// slots, vertex weights). Leaf l's share of the total vertex weight W is W *
// capacity(l) / C, C the total capacity; its bound is max((1 + imbalance) *
// share, ceil(share)) (the ceiling keeps unit-weight instances feasible when
// shares are fractional). Returns one bound per leaf. O(n + leaves).
std::vector<double> PartitionLoadBounds(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        double imbalance);

// The bound test of n-to-1 mappings, with the one tolerance every check uses
// (relative 1e-9, so sums of weights that round up do not count as excess).
inline bool WithinBound(double load, double bound) {
  return load <= bound + 1e-9 * (1.0 + bound);
}

// OK when mapping has one in-range leaf per vertex and every leaf's vertex
// weight is within PartitionLoadBounds (capacity-0 leaves receive nothing).
// Errors name the first offending vertex or the most overloaded leaf with its
// load and bound; a negative or non-finite imbalance is an error. O(n +
// leaves).
absl::Status ValidatePartitionMapping(const topology::Tree& tree,
                                      const graphs::CommGraph& graph,
                                      const Mapping& mapping, double imbalance);

struct CostReport {
  // sum over edges of w * Distance.
  double j = 0.0;
  // sum over edges of w * number of tree links between the two leaves.
  double hop_bytes = 0.0;
  // level_volume[d]: volume of the edges whose endpoints' lowest common
  // ancestor has depth d (d = tree height is traffic between processes on the
  // same leaf).
  std::vector<double> level_volume;
  // node_volume[v]: volume of the edges whose endpoints' lowest common
  // ancestor is node v (a leaf: processes sharing it); reports break
  // level_volume down by kind with it on trees whose levels differ.
  std::vector<double> node_volume;
  // Largest volume crossing one tree link (the link from max_link_node to its
  // parent).
  double max_link_volume = 0.0;
  NodeId max_link_node = -1;
};

// OK when J, and every partial sum or gain the engine forms from it, stays a
// finite double whatever the mapping: the total volume times the largest
// distance of the tree is at most DBL_MAX / 16 (finite weights can still sum
// past DBL_MAX). Errors (InvalidArgument) give both factors. O(m + nodes +
// pair-cost entries).
absl::Status CheckCostRange(const topology::Tree& tree,
                            const graphs::CommGraph& graph);

// Validates (the mapping, then CheckCostRange), then evaluates every metric.
// O(m * depth) time, O(nodes) extra memory.
absl::StatusOr<CostReport> Cost(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const Mapping& mapping);

// Cost of an n-to-1 mapping: validated by ValidatePartitionMapping with
// `imbalance`, then the same metrics as Cost. O(m * depth).
absl::StatusOr<CostReport> PartitionCost(const topology::Tree& tree,
                                         const graphs::CommGraph& graph,
                                         const Mapping& mapping,
                                         double imbalance);

// J alone, without validation (the caller guarantees a valid mapping). O(m *
// depth).
double ComputeJ(const topology::Tree& tree, const graphs::CommGraph& graph,
                const Mapping& mapping);

// n-to-1 inputs: more processes than the tree has slots (and slots at all).
// Map then partitions and maps in one step, and a mapping of these inputs is
// checked as a partition (ValidatePartitionMapping) rather than one-to-one.
// The one definition every interface uses. O(1).
bool IsNTo1(const topology::Tree& tree, const graphs::CommGraph& graph);

// The cost of a mapping of these inputs after the check that fits them:
// PartitionCost with `imbalance` on n-to-1 inputs (IsNTo1), Cost otherwise.
// What every interface reports for a mapping Map returned or a user gave.
// Errors: the validation's, CheckCostRange's. O(m * depth).
absl::StatusOr<CostReport> CheckedCost(const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const Mapping& mapping,
                                       double imbalance);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MODEL_MAPPING_H_
