#include "topology/io_devices.h"

#include <hwloc.h>

#include <cstdio>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/hwloc_guard.h"

namespace rankmap::topology {
namespace {

// Owns an hwloc topology handle loaded with its important I/O objects.
class IoTopo {
 public:
  IoTopo() {
    ok_ = hwloc_topology_init(&t_) == 0;
    if (ok_)
      hwloc_topology_set_io_types_filter(t_, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
  }
  ~IoTopo() {
    if (ok_) hwloc_topology_destroy(t_);
  }
  IoTopo(const IoTopo&) = delete;
  IoTopo& operator=(const IoTopo&) = delete;
  bool ok() const { return ok_; }
  hwloc_topology_t get() const { return t_; }

 private:
  hwloc_topology_t t_ = nullptr;
  bool ok_ = false;
};

// DRM nodes name display adapters as well as GPUs; see the header.
bool IsDrmNode(hwloc_obj_t os) {
  const std::string name = os->name != nullptr ? os->name : "";
  return (os->subtype != nullptr && std::string(os->subtype) == "DRM") ||
         name.rfind("card", 0) == 0 || name.rfind("renderD", 0) == 0 ||
         name.rfind("controlD", 0) == 0;
}

bool OfClass(hwloc_obj_t os, DeviceClass cls) {
  const hwloc_obj_osdev_type_t t = os->attr->osdev.type;
  if (cls == DeviceClass::kNic) {
    return t == HWLOC_OBJ_OSDEV_NETWORK || t == HWLOC_OBJ_OSDEV_OPENFABRICS;
  }
  return (t == HWLOC_OBJ_OSDEV_GPU || t == HWLOC_OBJ_OSDEV_COPROC) &&
         !IsDrmNode(os);
}

std::string BusId(hwloc_obj_t pci) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%01x",
                static_cast<unsigned>(pci->attr->pcidev.domain),
                static_cast<unsigned>(pci->attr->pcidev.bus),
                static_cast<unsigned>(pci->attr->pcidev.dev),
                static_cast<unsigned>(pci->attr->pcidev.func));
  return buf;
}

std::vector<IoDevice> Collect(hwloc_topology_t topo, DeviceClass cls) {
  std::vector<IoDevice> out;
  std::map<hwloc_obj_t, size_t> index;  // by PCI device (or OS device)
  for (hwloc_obj_t os = hwloc_get_next_osdev(topo, nullptr); os != nullptr;
       os = hwloc_get_next_osdev(topo, os)) {
    if (os->name == nullptr || !OfClass(os, cls)) continue;
    const bool on_pci =
        os->parent != nullptr && os->parent->type == HWLOC_OBJ_PCI_DEVICE;
    const hwloc_obj_t key = on_pci ? os->parent : os;
    auto [it, added] = index.emplace(key, out.size());
    if (!added) {
      out[it->second].os_devices.push_back(os->name);
      continue;
    }
    IoDevice d;
    d.name = os->name;
    d.os_devices = {os->name};
    if (on_pci) d.pci_busid = BusId(os->parent);
    const hwloc_obj_t local = hwloc_get_non_io_ancestor_obj(topo, os);
    if (local != nullptr) {
      d.locality = absl::StrCat(hwloc_obj_type_string(local->type), ":",
                                local->logical_index);
      unsigned pu;
      hwloc_bitmap_foreach_begin(pu, local->cpuset) {
        d.pus.push_back(static_cast<int32_t>(pu));
      }
      hwloc_bitmap_foreach_end();
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

absl::StatusOr<DeviceClass> ParseDeviceClass(std::string_view name) {
  if (name == "gpu") return DeviceClass::kGpu;
  if (name == "nic") return DeviceClass::kNic;
  return absl::InvalidArgumentError(absl::StrCat(
      "--near: expected gpu or nic, found '", std::string(name), "'"));
}

std::string_view DeviceClassName(DeviceClass c) {
  return c == DeviceClass::kGpu ? "gpu" : "nic";
}

std::string_view DeviceClassDescription(DeviceClass c) {
  return c == DeviceClass::kGpu
             ? "GPU (hwloc OS devices of type GPU/CoProcessor)"
             : "NIC (hwloc OS devices of type Network/OpenFabrics)";
}

absl::StatusOr<std::vector<IoDevice>> IoDevicesFromXmlBuffer(
    std::string_view xml, std::string_view source, DeviceClass cls) {
  ASSIGN_OR_RETURN(const HwlocCost cost, CheckHwlocXml(xml, source));
  RETURN_IF_ERROR(
      CheckHwlocCost(source, cost, base::MemoryBudget(0), kMaxHwlocWork));
  const std::string text(xml);
  IoTopo topo;
  if (!topo.ok())
    return absl::InternalError("topology/hwloc: hwloc_topology_init failed");
  if (text.size() > (size_t{1} << 30) ||
      hwloc_topology_set_xmlbuffer(topo.get(), text.c_str(),
                                   static_cast<int>(text.size() + 1)) != 0 ||
      hwloc_topology_load(topo.get()) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(source), ": hwloc refuses this XML topology"));
  }
  return Collect(topo.get(), cls);
}

absl::StatusOr<std::vector<IoDevice>> IoDevicesOf(std::string_view description,
                                                  DeviceClass cls) {
  const std::string desc(description);
  if (desc == "this") {
    IoTopo topo;
    if (!topo.ok() || hwloc_topology_load(topo.get()) != 0)
      return absl::InternalError("topology/hwloc: cannot load this machine");
    return Collect(topo.get(), cls);
  }
  // hwloc exports have a <topology> root; SimGrid platforms are XML too.
  if (base::IsRegularFile(desc)) {
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(desc, "hwloc XML file"));
    if (text.find("<topology") != std::string::npos)
      return IoDevicesFromXmlBuffer(text, desc, cls);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "--near ", std::string(DeviceClassName(cls)), ": '", desc,
      "' is not an hwloc machine (an XML export or 'this'); only those list "
      "I/O devices"));
}

}  // namespace rankmap::topology
