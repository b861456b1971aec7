// Where each rank of a mapped job runs, in the terms launchers speak: a host
// name and the node-local CPUs the rank may use. Every launch format
// (launch/launch.h) is written from this one view of a Tree and a Mapping.
//
//   ASSIGN_OR_RETURN(JobPlacement job, PlaceJob(tree, mapping));
//   job.ranks[3].host   // "node07"
//   job.ranks[3].pus    // {5, 37}: PU os indexes of the core rank 3 runs on
//
// Per rank, from its leaf (the mapping's answer):
//   host     the leaf's host name (hwloc's HostName of `this` or of an XML
//            export; a network spec's node names). A leaf without one is not
//            a real machine (a tleaf or synthetic description): an error, so
//            no launcher is handed a file it cannot run.
//   pus      PU os indexes of the leaf, node-local: one PU, or every hardware
//            thread of a core leaf (ranks sharing a core share its threads).
//            Empty for leaves from a tleaf node of a network spec.
//   logical  hwloc's logical index of the leaf's PU or core on its host; for
//            leaves without one, the leaf's position among its host's leaves
//            (a tleaf node's leaves are numbered like logical PUs).
#ifndef RANKMAP_LAUNCH_JOB_PLACEMENT_H_
#define RANKMAP_LAUNCH_JOB_PLACEMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::launch {

struct RankSlot {
  std::string host;
  std::vector<int32_t> pus;  // ascending PU os indexes; empty when unknown
  int32_t logical = 0;
  // True when `logical` numbers cores (core leaves), false for PUs.
  bool logical_is_core = false;
};

struct JobPlacement {
  std::vector<RankSlot> ranks;  // by rank
  // Hosts in the order of their first rank.
  std::vector<std::string> hosts;
  // Every rank has PU os indexes (binding by physical numbers is possible).
  bool physical = false;
};

// One RankSlot per process of `mapping` (mapping[rank] = leaf). Several ranks
// may share a leaf (oversubscription, n-to-1 mappings). Errors: a leaf id out
// of range, a leaf without a host name (the message says which leaf and what
// to use instead), a host name that base::CheckHostName refuses (it would
// reach launcher files and scripts). O(ranks + leaves + total PUs of the mapped
// leaves).
absl::StatusOr<JobPlacement> PlaceJob(const topology::Tree& tree,
                                      const core::Mapping& mapping);

// The ranks of each host, in rank order; hosts as in job.hosts.
std::vector<std::vector<int32_t>> RanksByHost(const JobPlacement& job);

// True when two ranks share a PU of one host.
bool SharesPus(const JobPlacement& job);

// Launchers that bind by node-local task number (Slurm's map_cpu, Hydra's
// user binding) apply one list to every node. Given the ranks of each node
// in local order, returns that list (the PU sets of the longest group) when
// every group's PU sets are a prefix of it, else nullopt. O(ranks + PUs).
std::optional<std::vector<std::vector<int32_t>>> SharedLocalBinding(
    const JobPlacement& job, const std::vector<std::vector<int32_t>>& groups);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_JOB_PLACEMENT_H_
