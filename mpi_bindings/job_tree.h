// The tree of the slots an MPI job occupies, and the rank permutation a mapping
// implies.
//
// Model: process r of a communicator sits on slot `slot_of_rank[r]`, a leaf of
// `tree`; each leaf's capacity is the number of processes sitting on it (0 for
// leaves nobody uses), so the tree's total capacity equals the job size. A
// mapping of the job's communication graph onto this tree (process p -> leaf)
// is turned into new ranks: the k-th process the mapping puts on leaf l takes
// over the k-th old rank sitting on l. Processes never move; their ranks do.
//
// Where the tree comes from (first that applies):
//   1. an override description (`RANKMAP_TOPOLOGY`): the job is treated as
//   running on that
//      machine, rank r on the r-th slot in leaf order (packed, like mpirun
//      --map-by core);
//   2. a network spec (`RANKMAP_NETWORK`) whose leaves carry host names: each
//   rank takes the
//      next free leaf of its host, preferring one whose os index is in its
//      binding;
//   3. hwloc on this machine, restricted per host to the PUs its ranks may use,
//   one copy per
//      host under a single switch (hosts are assumed to have identical
//      hardware); inside a Slurm job whose cluster has a network tree
//      (topology/tree), the hosts hang from the switches Slurm names in each
//      task's SLURM_TOPOLOGY_ADDR instead (topology/slurm_topology.h).
//
//   ASSIGN_OR_RETURN(JobTree job, BuildJobTree(infos, {.topology = "tleaf 2 2
//   10 2 1"})); ASSIGN_OR_RETURN(Reordering r, ComputeReordering(job, graph,
//   mapping_options));
//   // r.new_rank[old] is the rank the process with rank `old` gets.
//
// Pure logic apart from hwloc: nothing here calls MPI (reorder.h does the
// collectives).
#ifndef RANKMAP_MPI_BINDINGS_JOB_TREE_H_
#define RANKMAP_MPI_BINDINGS_JOB_TREE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/slot_classes.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::mpi_bindings {

// What each rank reports about itself.
struct ProcessInfo {
  std::string host;
  // PU os indexes of its current binding (all allowed PUs when unbound).
  std::vector<int32_t> pus;
  // SLURM_TOPOLOGY_ADDR in the process's environment ("top.s1.tux5"); empty
  // outside Slurm.
  std::string topology_addr;
};

struct JobTreeOptions {
  // Override description (synthetic string, XML path, tleaf, network spec);
  // empty: none.
  std::string topology;
  // Network spec over the job's hosts; empty: one switch over all hosts.
  std::string network;
  // Leaves are cores (hyperthreads folded) instead of PUs (hwloc path only).
  bool core_leaves = false;
  // Cost between two hosts under the single switch; <= 0 picks 10 x the
  // costliest node root.
  double switch_cost = 0.0;
  // SLURM_TOPOLOGY_ADDR_PATTERN ("switch.switch.node"); with every process's
  // topology_addr it gives the switches above the hosts.
  std::string topology_addr_pattern;
};

struct JobTree {
  topology::Tree tree;
  // slot_of_rank[r]: the leaf rank r sits on. Leaf capacities count these.
  std::vector<topology::LeafId> slot_of_rank;
  // True when the tree describes the real machine (os indexes usable for
  // binding).
  bool real_machine = false;
};

// Builds the tree of occupied slots for `processes` (indexed by rank). Errors:
// no processes, more processes than the override has slots, a host missing from
// the network spec, hwloc failures. O(n log n + tree size).
absl::StatusOr<JobTree> BuildJobTree(std::span<const ProcessInfo> processes,
                                     const JobTreeOptions& options);

struct Reordering {
  // new_rank[old rank]; a permutation of [0, n).
  std::vector<int32_t> new_rank;
  // mapping[new rank] = leaf (the engine's answer).
  core::Mapping mapping;
  // J of the job as launched (process r on slot_of_rank[r]) and after
  // reordering.
  double cost_before = 0.0;
  double cost_after = 0.0;
};

// Runs the engine on job.tree and turns its mapping into new ranks (see the
// model above). With process_speed (one per graph vertex, i.e. per new rank),
// vertex u goes to a slot whose leaf speed is process_speed[u]
// (core::ClassesForTree), so the process that gets new rank u runs at that
// speed. Errors: graph size differs from the job size, a process_speed of
// another size, speeds the job's slots do not offer, engine errors.
// O(engine + n).
absl::StatusOr<Reordering> ComputeReordering(
    const JobTree& job, const graphs::CommGraph& graph,
    const core::MappingOptions& options,
    std::span<const double> process_speed = {});

// new_rank for a mapping onto job.tree: the k-th process mapped to leaf l takes
// the k-th old rank sitting on l. Errors: invalid mapping for the job (wrong
// size, leaf over capacity).
absl::StatusOr<std::vector<int32_t>> NewRanksFromMapping(
    const JobTree& job, const core::Mapping& mapping);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_JOB_TREE_H_
