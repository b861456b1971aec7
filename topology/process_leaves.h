// Which leaf each process of a running job sits on, from where the job says
// it ran: a host name and the CPUs the process was allowed (its binding).
//
// Used wherever a job's present placement is read back into a tree: the MPI
// bindings' job tree (mpi_bindings/job_tree.h) and `rankmap advise`, which
// prices the placement a profile recorded (mpi_bindings/profile_output.h).
//
//   std::vector<ProcessWhere> where = {{"n0", {1}}, {"n0", {0, 1}}};
//   ASSIGN_OR_RETURN(ProcessLeaves p, LeavesOfProcesses(tree, where));
//   p.leaf[0]   // the leaf of host n0 whose PU os index is 1
//
// Rule: each process, in order, takes the least loaded leaf of its host whose
// os index is in its binding, else the least loaded leaf of its host (a
// process bound to several PUs, or to none the tree knows, shares them as the
// operating system would); ties go to the lowest leaf, so processes bound to
// one PU each land exactly there.
#ifndef RANKMAP_TOPOLOGY_PROCESS_LEAVES_H_
#define RANKMAP_TOPOLOGY_PROCESS_LEAVES_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::topology {

struct ProcessWhere {
  std::string host;
  std::vector<int32_t> pus;  // PU os indexes, ascending
};

struct ProcessLeaves {
  std::vector<LeafId> leaf;  // one per process
  // Processes whose binding named exactly the PUs of the leaf they got (the
  // others were bound to more, or to PUs the tree does not have).
  std::vector<bool> exact;
};

// Candidates per process: the leaves of its host. Errors (NotFound): a host
// the tree does not have, "host 'x' of <process> 3 is not in <tree>", with
// the caller's words for processes ("rank") and the tree ("the network
// spec"). O(processes x leaves per host + leaves).
absl::StatusOr<ProcessLeaves> LeavesOfProcesses(
    const Tree& tree, std::span<const ProcessWhere> processes,
    std::string_view process = "process",
    std::string_view tree_name = "the topology");

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_PROCESS_LEAVES_H_
