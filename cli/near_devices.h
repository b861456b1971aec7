// `rankmap map --near gpu|nic`: processes kept on the leaves local to their
// device (topology/io_devices.h), as slot classes (core/model/slot_classes.h)
// that core::Map honours.
//
// Who needs which device: by default process i takes device i, one process
// per device, for every process (one rank per GPU); it is an error to have
// more processes than devices. A --near-processes file chooses instead; lines
//   <device> <process> [<process> ...]
// name a device by any of its OS device names ("cuda0", "nvml0", "mlx5_0") or
// its PCI bus id ("0000:3b:00.0"), then processes ("5") or ranges ("0-3");
// `#` starts a comment. Processes no line names take any leaf.
//
// Leaves and classes: a leaf (PU, core, or group of leaves with
// --threads-per-process) is local to a device when all its PUs are in the
// device's locality. Devices with the same locality share one class. hwloc's
// localities nest or are disjoint; a leaf belongs to the smallest locality
// with processes that holds it, so a process of a larger locality stays on
// that locality's other leaves, and a process whose locality covers the whole
// tree is not constrained. Leaves in no locality take processes without a
// device only.
//
//   ASSIGN_OR_RETURN(NearDevices near,
//                    AssignNearDevices(tree, devices, "", "", n, "gpu",
//                                      "dgx.xml"));
//   ASSIGN_OR_RETURN(Mapping m, core::Map(tree, graph, opts, near.classes));
#ifndef RANKMAP_CLI_NEAR_DEVICES_H_
#define RANKMAP_CLI_NEAR_DEVICES_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/slot_classes.h"
#include "topology/io_devices.h"
#include "topology/tree.h"

namespace rankmap::cli {

struct NearDevices {
  std::string device_class;  // "gpu" or "nic"
  std::vector<topology::IoDevice> devices;
  std::vector<int32_t> device_of_process;  // index into devices, -1: none
  core::SlotClasses classes;
};

// Device per process from a --near-processes file's text (`source` names it
// in errors: `near.txt:3: no GPU named 'cuda9' (devices: cuda0 ... cuda3)`,
// a process out of range or named twice, a line without a process).
absl::StatusOr<std::vector<int32_t>> ParseNearProcesses(
    std::string_view text, std::string_view source,
    const std::vector<topology::IoDevice>& devices, int32_t num_processes);

// The classes for `tree` (leaves carry PU os indexes: hwloc trees) and the
// device of each of num_processes processes; device_of_process empty: the
// default (process i takes device i). `device_class` ("gpu"/"nic") and
// `topology` name the flag and the input in errors: no device, more
// processes than devices, a locality with fewer slots than its processes.
// O(leaves x PUs per leaf x log PUs + processes).
absl::StatusOr<NearDevices> AssignNearDevices(
    const topology::Tree& tree, std::vector<topology::IoDevice> devices,
    std::vector<int32_t> device_of_process, int32_t num_processes,
    std::string_view device_class, std::string_view topology);

// One line per process with a device: "near gpu: process 3: nvml3
// (Package:0, PUs 0-1)".
void PrintNearDevices(const NearDevices& near, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_NEAR_DEVICES_H_
