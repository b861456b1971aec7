// The spellings launchers use for a set of CPUs (PU os indexes).
//
//   HexMask({0, 5})        "0x21"          Slurm --cpu-bind=mask_cpu: entries
//   HwlocCpuset({0, 33})   "0x00000002,0x00000001"  hwloc-bind's bitmap syntax
//   JoinPus({0, 8}, "+")   "0+8"           Hydra -bind-to user: entries
//
// Inputs need not be sorted; duplicates are ignored; indexes are >= 0.
#ifndef RANKMAP_LAUNCH_CPU_SETS_H_
#define RANKMAP_LAUNCH_CPU_SETS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace rankmap::launch {

// Lowercase hex, "0x" prefix, no leading zeros ("0x0" for the empty set).
// O(max index).
std::string HexMask(std::span<const int32_t> pus);

// hwloc's bitmap syntax (what hwloc-bind and hwloc_bitmap_sscanf read):
// 32-bit words as "0x%08x", most significant first, separated by commas,
// leading zero words dropped ("0x0" when empty). O(max index).
std::string HwlocCpuset(std::span<const int32_t> pus);

// The indexes in ascending order joined by `separator`.
std::string JoinPus(std::span<const int32_t> pus, std::string_view separator);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_CPU_SETS_H_
