// What rankmap checks before hwloc sees a description. hwloc 2.9 crashes or
// hangs on some malformed XML, and its load time and memory grow with the
// square of the machine: objects x cpuset width (a `core:8192` synthetic
// string takes a minute, `pack:4096 core:4096` hours), so a tiny description
// could stall or exhaust the machine. The checks here refuse such input with
// one line before hwloc is called.
//
//   ASSIGN_OR_RETURN(HwlocCost cost, CheckHwlocXml(text, "node.xml"));
//   RETURN_IF_ERROR(CheckHwlocCost("node.xml", cost, budget));
#ifndef RANKMAP_TOPOLOGY_HWLOC_GUARD_H_
#define RANKMAP_TOPOLOGY_HWLOC_GUARD_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rankmap::topology {

// The size of a topology as hwloc's load cost sees it.
struct HwlocCost {
  int64_t objects = 0;
  // Sum over objects of the number of children of their parent (hwloc
  // compares an inserted object with its siblings).
  int64_t sibling_sum = 0;
  // Width of the cpusets in bits: the highest PU os index + 1.
  int64_t bitmap_bits = 0;
};

// Steps of hwloc's load: sibling_sum x bits + 16 x objects x bits (about
// 0.1 ns each on a 2020s core, fitted on synthetic strings of 2^11 to 2^15
// PUs). Saturates.
int64_t HwlocWork(const HwlocCost& cost);
// Bytes hwloc holds: per object about 512 bytes and two cpusets.
int64_t HwlocBytes(const HwlocCost& cost);

// The most steps hwloc may be given (about 10 s).
inline constexpr int64_t kMaxHwlocWork = int64_t{100} * 1000 * 1000 * 1000;

// OK when the work is at most `max_work` and the bytes fit `budget`;
// otherwise ResourceExhausted naming `what` and the estimates.
absl::Status CheckHwlocCost(std::string_view what, const HwlocCost& cost,
                            int64_t budget, int64_t max_work = kMaxHwlocWork);

// Scans an hwloc XML export without hwloc and returns its cost. Errors
// (InvalidArgument, `source:line: ...`): text that is not well-formed enough
// to find its <object> elements; no object, or more than one top-level
// object; an object with a cpuset but no complete_cpuset, or a nodeset but no
// complete_nodeset (hwloc 2.9 dereferences the missing set); a cpuset or
// nodeset that is not hwloc's bitmap text (with a second root it crashes
// hwloc 2.9); a PU or NUMA node whose os_index is missing, negative or not a
// number (hwloc loops over 2^32 indexes); objects nested more than 256 deep;
// a reference to a declared entity ("&a;", in text or in an attribute) or a
// DOCTYPE that declares any (hwloc's libxml reader crashes on a few hundred
// bytes of them); a HostName info that is not a host name (base/host_name.h:
// it names files and hostfile lines). O(length of the text).
absl::StatusOr<HwlocCost> CheckHwlocXml(std::string_view xml,
                                        std::string_view source);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_HWLOC_GUARD_H_
