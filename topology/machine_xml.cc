#include "topology/machine_xml.h"

#include <hwloc.h>

namespace rankmap::topology {

absl::StatusOr<std::string> ThisMachineXml() {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0)
    return absl::InternalError("topology/hwloc: hwloc_topology_init failed");
  std::string out;
  char* buf = nullptr;
  int len = 0;
  const bool ok = hwloc_topology_load(topo) == 0 &&
                  hwloc_topology_export_xmlbuffer(topo, &buf, &len, 0) == 0;
  if (ok) {
    out.assign(buf, len > 0 ? static_cast<size_t>(len - 1) : 0);
    hwloc_free_xmlbuffer(topo, buf);
  }
  hwloc_topology_destroy(topo);
  if (!ok) {
    return absl::InternalError(
        "topology/hwloc: this machine's topology could not be exported");
  }
  return out;
}

}  // namespace rankmap::topology
