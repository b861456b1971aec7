// I/O devices of an hwloc machine (GPUs, NICs) and the CPUs local to each:
// what `rankmap map --near gpu|nic` keeps processes next to. The trees of
// topology/hwloc_import.h drop I/O objects; this reads them from a second
// load of the same machine with hwloc's I/O filter set to
// HWLOC_TYPE_FILTER_KEEP_IMPORTANT, so mapping without --near never pays for
// the PCI tree.
//
// A device is one PCI device (function) with at least one OS device of the
// class; its several OS devices (cuda0, opencl0d0 and nvml0 of one GPU; ib0
// and mlx5_0 of one HCA) are one device, named by the first in hwloc's order.
// What counts:
//  - kGpu: OS devices of type GPU or CoProcessor (CUDA, NVML, OpenCL, RSMI,
//    LevelZero names: "cuda0", "nvml0", "opencl0d0", "rsmi0", "ze0"), except
//    DRM nodes ("card0", "renderD128", "controlD64"): a PCI device with only
//    DRM nodes is a display adapter (a server's BMC VGA is card0 on most
//    machines), so it is no GPU. hwloc names compute GPUs only when it was
//    built with their plugins; an export from such a build is what to use.
//  - kNic: OS devices of type Network ("eth0", "ib0") or OpenFabrics
//    ("mlx5_0", "hfi1_0").
// Devices come in hwloc's order of OS devices (PCI bus order on most
// machines). A device's locality is the cpuset of its first non-I/O ancestor
// (hwloc_get_non_io_ancestor_obj), e.g. the package its PCI root sits under.
//
//   ASSIGN_OR_RETURN(std::vector<IoDevice> gpus,
//                    IoDevicesOf("dgx.xml", DeviceClass::kGpu));
//   // gpus[0].name == "nvml0", gpus[0].locality == "Package:0",
//   // gpus[0].pus == {0, 1}
#ifndef RANKMAP_TOPOLOGY_IO_DEVICES_H_
#define RANKMAP_TOPOLOGY_IO_DEVICES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::topology {

enum class DeviceClass { kGpu, kNic };

// "gpu" or "nic". Error: anything else (the message names the value).
absl::StatusOr<DeviceClass> ParseDeviceClass(std::string_view name);
// "gpu" or "nic".
std::string_view DeviceClassName(DeviceClass c);
// What counts, for messages: "GPU (hwloc OS devices of type GPU/CoProcessor)".
std::string_view DeviceClassDescription(DeviceClass c);

struct IoDevice {
  std::string name;                     // first OS device, e.g. "cuda0"
  std::vector<std::string> os_devices;  // all of the class, hwloc's order
  std::string pci_busid;                // "0000:03:00.0"; empty: not PCI
  std::string locality;                 // non-I/O ancestor, "Package:1"
  std::vector<int32_t> pus;             // its PU os indexes, ascending
};

// The devices of `cls` in an hwloc XML export held in memory; `source` names
// it in errors. An empty list when the machine has none (exports made without
// I/O objects have none). Errors: XML that topology/hwloc_guard.h or hwloc
// refuses. O(objects).
absl::StatusOr<std::vector<IoDevice>> IoDevicesFromXmlBuffer(
    std::string_view xml, std::string_view source, DeviceClass cls);

// The devices of `cls` of "this" (the running machine) or of an hwloc XML
// export given by path. Errors: a description that is neither (tleaf,
// synthetic, network spec, ...: only hwloc machines list devices; the message
// names it), an unreadable file, XML hwloc refuses.
absl::StatusOr<std::vector<IoDevice>> IoDevicesOf(std::string_view description,
                                                  DeviceClass cls);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_IO_DEVICES_H_
