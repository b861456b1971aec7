// Process binding through hwloc: where the calling process may run, and moving
// it.
//
// The MPI layer reports each rank's binding to rank 0 (to build the tree of
// occupied slots) and, after mapping, may re-bind a process to the PU or NUMA
// node the mapping chose. Only this file (and the rest of topology/) talks to
// hwloc; callers see PU os indexes (the physical ids hwloc and Open MPI
// rankfiles use), never hwloc types.
//
//   ASSIGN_OR_RETURN(std::vector<int32_t> pus, CurrentBindingPus());
//   // pus == {0, 1}
//   ASSIGN_OR_RETURN(BindReport r, BindProcess({3}, BindWhat::kCpu));
//   std::string s = FormatBindReport(r);  // "cpus 3"
//
// Every call loads the machine's topology (a few milliseconds); none is meant
// for a hot loop.
#ifndef RANKMAP_TOPOLOGY_BINDING_H_
#define RANKMAP_TOPOLOGY_BINDING_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rankmap::topology {

// The os indexes of the PUs the calling process is bound to, ascending. An
// unbound process gets every PU it is allowed to use. Errors: hwloc cannot load
// the topology or read the binding.
absl::StatusOr<std::vector<int32_t>> CurrentBindingPus();

// Binds the calling process to the PUs of the NUMA node that contains
// `pu_os_index` (its memory is then local). Falls back to the whole machine
// when hwloc reports no NUMA node above the PU. Errors: unknown PU, the
// operating system refuses.
absl::Status BindToNumaOf(int32_t pu_os_index);

// What a binder applies to a process: nothing, its CPUs, or its CPUs and its
// memory (the NUMA nodes local to those CPUs, so first touches and, where the
// kernel can, pages already touched land there).
enum class BindWhat { kNone, kCpu, kCpuMem };

// "none", "cpu", "cpu+mem". Errors name the value and list the three.
absl::StatusOr<BindWhat> ParseBindWhat(std::string_view name);

// What BindProcess applied.
struct BindReport {
  BindWhat asked = BindWhat::kNone;
  std::vector<int32_t> pus;         // CPUs bound to; empty when not bound
  std::vector<int32_t> numa_nodes;  // NUMA os indexes memory is bound to
  bool migrated = false;            // pages already touched were moved too
  // Why memory is not bound although it was asked for (the OS refused, no
  // NUMA node is local to the PUs); empty otherwise.
  std::string memory_note;
};

// "cpus 0-1 memory numa 0 (bind, migrate)", "cpus 1 memory not bound:
// <why>", "cpus 1" (BindWhat::kCpu), "not bound" (kNone).
std::string FormatBindReport(const BindReport& report);

// Binds the calling process to `pu_os_indexes` (kCpu, kCpuMem) and its memory
// policy to the NUMA nodes of those PUs (kCpuMem: hwloc_set_membind, policy
// bind, with HWLOC_MEMBIND_MIGRATE when hwloc supports it here). The memory
// policy is the calling thread's on Linux; children and exec'd programs
// inherit both. Errors: empty list or unknown PU (checked before anything is
// bound), the OS refusing the CPU binding. A refused memory binding is not an
// error: the CPUs stay bound and report.memory_note says why.
absl::StatusOr<BindReport> BindProcess(std::span<const int32_t> pu_os_indexes,
                                       BindWhat what);

// The calling thread's memory binding: NUMA os indexes and hwloc's policy
// name ("bind", "firsttouch", "interleave", "nexttouch", "default", "mixed").
struct MemoryBinding {
  std::vector<int32_t> numa_nodes;
  std::string policy;
};
absl::StatusOr<MemoryBinding> CurrentMemoryBinding();

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_BINDING_H_
