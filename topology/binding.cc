#include "topology/binding.h"

#include <hwloc.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/cpu_list.h"

namespace rankmap::topology {
namespace {

// Owns a loaded hwloc topology and frees it on scope exit.
class LoadedTopology {
 public:
  absl::Status Load() {
    if (hwloc_topology_init(&topo_) != 0) {
      return absl::InternalError(
          "topology/binding: hwloc_topology_init failed");
    }
    initialized_ = true;
    if (hwloc_topology_load(topo_) != 0) {
      return absl::InternalError(
          "topology/binding: hwloc_topology_load failed");
    }
    return absl::OkStatus();
  }
  ~LoadedTopology() {
    if (initialized_) hwloc_topology_destroy(topo_);
  }
  hwloc_topology_t get() const { return topo_; }

 private:
  hwloc_topology_t topo_ = nullptr;
  bool initialized_ = false;
};

struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* b) const { hwloc_bitmap_free(b); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

std::vector<int32_t> ToList(hwloc_const_bitmap_t set) {
  std::vector<int32_t> out;
  for (int i = hwloc_bitmap_first(set); i >= 0; i = hwloc_bitmap_next(set, i)) {
    out.push_back(i);
  }
  return out;
}

absl::Status CheckPu(hwloc_topology_t topo, int32_t os_index) {
  if (os_index < 0 || hwloc_get_pu_obj_by_os_index(
                          topo, static_cast<unsigned>(os_index)) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology/binding: this machine has no PU with os index ", os_index));
  }
  return absl::OkStatus();
}

absl::Status Bind(hwloc_topology_t topo, hwloc_const_bitmap_t set) {
  if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0) {
    char buf[256];
    hwloc_bitmap_list_snprintf(buf, sizeof(buf), set);
    return absl::PermissionDeniedError(
        absl::StrCat("topology/binding: cannot bind to PUs ", buf));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<int32_t>> CurrentBindingPus() {
  LoadedTopology topo;
  if (absl::Status s = topo.Load(); !s.ok()) return s;
  Bitmap set(hwloc_bitmap_alloc());
  if (hwloc_get_cpubind(topo.get(), set.get(), HWLOC_CPUBIND_PROCESS) != 0) {
    // Some systems cannot report a binding: the process may then run anywhere
    // it is allowed.
    hwloc_bitmap_copy(set.get(), hwloc_topology_get_allowed_cpuset(topo.get()));
  }
  hwloc_bitmap_and(set.get(), set.get(),
                   hwloc_topology_get_allowed_cpuset(topo.get()));
  if (hwloc_bitmap_iszero(set.get())) {
    hwloc_bitmap_copy(set.get(),
                      hwloc_topology_get_topology_cpuset(topo.get()));
  }
  return ToList(set.get());
}

absl::Status BindToNumaOf(int32_t pu_os_index) {
  LoadedTopology topo;
  if (absl::Status s = topo.Load(); !s.ok()) return s;
  if (absl::Status s = CheckPu(topo.get(), pu_os_index); !s.ok()) return s;
  hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(
      topo.get(), static_cast<unsigned>(pu_os_index));
  // In hwloc 2 NUMA nodes are memory children: the first ancestor with a
  // non-empty nodeset smaller than the machine's is the locality of that NUMA
  // node.
  hwloc_obj_t obj = pu;
  while (obj->parent != nullptr && obj->memory_arity == 0) obj = obj->parent;
  return Bind(topo.get(), obj->cpuset);
}

absl::StatusOr<BindWhat> ParseBindWhat(std::string_view name) {
  if (name == "none") return BindWhat::kNone;
  if (name == "cpu") return BindWhat::kCpu;
  if (name == "cpu+mem") return BindWhat::kCpuMem;
  return absl::InvalidArgumentError(
      absl::StrCat("topology/binding: unknown binding '", std::string(name),
                   "' (none, cpu or cpu+mem)"));
}

std::string FormatBindReport(const BindReport& report) {
  if (report.pus.empty()) return "not bound";
  std::string out = absl::StrCat("cpus ", base::FormatCpuList(report.pus));
  if (report.asked != BindWhat::kCpuMem) return out;
  if (report.numa_nodes.empty()) {
    absl::StrAppend(&out, " memory not bound: ", report.memory_note);
  } else {
    absl::StrAppend(&out, " memory numa ",
                    base::FormatCpuList(report.numa_nodes),
                    report.migrated ? " (bind, migrate)" : " (bind)");
  }
  return out;
}

absl::StatusOr<BindReport> BindProcess(std::span<const int32_t> pu_os_indexes,
                                       BindWhat what) {
  BindReport report;
  report.asked = what;
  if (what == BindWhat::kNone) return report;
  if (pu_os_indexes.empty()) {
    return absl::InvalidArgumentError("topology/binding: empty PU list");
  }
  LoadedTopology topo;
  if (absl::Status s = topo.Load(); !s.ok()) return s;
  Bitmap cpus(hwloc_bitmap_alloc());
  for (int32_t pu : pu_os_indexes) {
    if (absl::Status s = CheckPu(topo.get(), pu); !s.ok()) return s;
    hwloc_bitmap_set(cpus.get(), static_cast<unsigned>(pu));
  }
  if (absl::Status s = Bind(topo.get(), cpus.get()); !s.ok()) return s;
  report.pus = ToList(cpus.get());
  if (what != BindWhat::kCpuMem) return report;

  Bitmap nodes(hwloc_bitmap_alloc());
  hwloc_cpuset_to_nodeset(topo.get(), cpus.get(), nodes.get());
  if (hwloc_bitmap_iszero(nodes.get())) {
    report.memory_note = "no NUMA node is local to these PUs";
    return report;
  }
  const hwloc_topology_support* support =
      hwloc_topology_get_support(topo.get());
  const int flags = HWLOC_MEMBIND_BYNODESET;
  // Migration moves what the process (or the launcher before exec) already
  // touched; where the kernel refuses it, binding future allocations is still
  // worth having.
  if (support->membind->migrate_membind &&
      hwloc_set_membind(topo.get(), nodes.get(), HWLOC_MEMBIND_BIND,
                        flags | HWLOC_MEMBIND_MIGRATE) == 0) {
    report.migrated = true;
  } else if (hwloc_set_membind(topo.get(), nodes.get(), HWLOC_MEMBIND_BIND,
                               flags) != 0) {
    report.memory_note =
        errno == ENOSYS || errno == EXDEV
            ? std::string("memory binding is not supported here")
            : absl::StrCat("the OS refused (", std::strerror(errno), ")");
    return report;
  }
  report.numa_nodes = ToList(nodes.get());
  return report;
}

absl::StatusOr<MemoryBinding> CurrentMemoryBinding() {
  LoadedTopology topo;
  if (absl::Status s = topo.Load(); !s.ok()) return s;
  Bitmap nodes(hwloc_bitmap_alloc());
  hwloc_membind_policy_t policy;
  if (hwloc_get_membind(topo.get(), nodes.get(), &policy,
                        HWLOC_MEMBIND_BYNODESET) != 0) {
    return absl::UnavailableError(
        absl::StrCat("topology/binding: cannot read the memory binding (",
                     std::strerror(errno), ")"));
  }
  MemoryBinding out;
  out.numa_nodes = ToList(nodes.get());
  switch (policy) {
    case HWLOC_MEMBIND_DEFAULT:
      out.policy = "default";
      break;
    case HWLOC_MEMBIND_FIRSTTOUCH:
      out.policy = "firsttouch";
      break;
    case HWLOC_MEMBIND_BIND:
      out.policy = "bind";
      break;
    case HWLOC_MEMBIND_INTERLEAVE:
      out.policy = "interleave";
      break;
    case HWLOC_MEMBIND_NEXTTOUCH:
      out.policy = "nexttouch";
      break;
    default:
      out.policy = "mixed";
      break;
  }
  return out;
}

}  // namespace rankmap::topology
