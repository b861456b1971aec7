// Slurm's network tree, from the cluster's own topology.conf (TopologyPlugin=
// topology/tree) or from `scontrol show topology` output.
//
//   # topology.conf
//   SwitchName=s0 Nodes=tux[0-3] LinkSpeed=100
//   SwitchName=s1 Nodes=tux[4-7,12]
//   SwitchName=top Switches=s[0-1]
//
//   # scontrol show topology (upper switches list every node below them)
//   SwitchName=s0 Level=0 LinkSpeed=1 Nodes=tux[0-3]
//   SwitchName=top Level=1 LinkSpeed=1 Nodes=tux[0-7,12] Switches=s[0-1]
//
// One switch per line, `Key=Value` fields (keys case-insensitive, Slurm's
// hostlist syntax in Nodes= and Switches=, topology/hostlist.h), '#'
// comments. Nodes= of a switch that also has Switches= lists its descendants
// in scontrol output (a Level= field marks it) and its direct nodes in a
// topology.conf. LinkSpeed is kept for costs (topology/switch_tree.h).
#ifndef RANKMAP_TOPOLOGY_SLURM_TOPOLOGY_H_
#define RANKMAP_TOPOLOGY_SLURM_TOPOLOGY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/switch_tree.h"

namespace rankmap::topology {

// True when the first non-comment line starts with "SwitchName=".
bool LooksLikeSlurmTopology(std::string_view text);

// Errors are `source:line: what`: a line not starting with SwitchName=, an
// unknown key or one given twice on a line, a field without '=', bad
// hostlists, a node name that is not a host name (base/host_name.h), a
// non-positive LinkSpeed, a switch defined twice, Switches= naming an
// undefined switch, a switch under two parents, switches in a cycle, a
// chain of Switches= more than kMaxSwitchDepth deep, a node under two
// switches (scontrol's descendant lists excepted), a switch with neither
// Nodes= nor Switches=; ResourceExhausted: hostlists that name more than
// 2^22 hosts and switches in the whole file, or whose names take more than a
// fifth of max_memory_bytes (0: base::MemoryBudget()'s default), counted
// before they are expanded. O(size of the file + names).
absl::StatusOr<SwitchTree> ParseSlurmTopology(std::string_view text,
                                              std::string_view source,
                                              int64_t max_memory_bytes = 0);

// What Slurm tells each task of a job (topology/tree plugin):
// SLURM_TOPOLOGY_ADDR ("top.s1.tux5", the switches above the task's node and
// the node) and SLURM_TOPOLOGY_ADDR_PATTERN ("switch.switch.node"). Given
// each host's address, the switch tree over those hosts; switches are named by
// their path ("top", "top.s1"), so equal names under different parents stay
// apart. Errors: a pattern that is not "switch." repeated then "node", an
// address with another number of parts or empty parts, a host with two
// different addresses.
absl::StatusOr<SwitchTree> SwitchTreeFromAddresses(
    const std::vector<std::pair<std::string, std::string>>& host_addresses,
    std::string_view pattern);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_SLURM_TOPOLOGY_H_
