// Partition files: a matrix partition computed elsewhere (FuPerMod, a
// hand-made layout) for the SUMMA front end, and the front end's own
// partitions written back.
//
// Format (text; '#' starts a comment): a `grid` line, then one rectangle per
// line, in cells of the grid (b x b blocks for SUMMA):
//   grid <rows> <cols>
//   <processor> <row> <col> <height> <width>
// e.g. two processors, a 12 x 12 block grid cut after row 7:
//   grid 12 12
//   1 0 0 7 12
//   0 7 0 5 12
// A processor may own several rectangles; processors are 0..P-1 (P = the
// largest id + 1) and each owns at least one. The rectangles must tile the
// grid (ValidatePartition). Errors name file:line:
//   part.txt:4: rectangle overlaps the one on line 3
//
// Usage:
//   ASSIGN_OR_RETURN(Partition p, ReadPartitionFile("fupermod.part"));
//   std::string text = FormatPartition(p);  // parses back to p
#ifndef RANKMAP_TILING_PARTITION_IO_H_
#define RANKMAP_TILING_PARTITION_IO_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tiling/partition.h"

namespace rankmap::tiling {

// Errors: a missing or repeated grid line, a grid of more than 2^62 cells, a
// bad number, a rectangle outside the grid or overlapping another, a
// processor id at or above the number of rectangles, cells left uncovered, a
// processor with no rectangle. The rectangles are counted before they are
// stored: more than base::MemoryBudget(max_memory_bytes) allows is
// ResourceExhausted. O(R log R) for R rectangles.
absl::StatusOr<Partition> ParsePartition(std::string_view text,
                                         std::string_view source,
                                         int64_t max_memory_bytes = 0);
absl::StatusOr<Partition> ReadPartitionFile(const std::string& path,
                                            int64_t max_memory_bytes = 0);

// The format above, rectangles in the partition's order.
std::string FormatPartition(const Partition& p);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_PARTITION_IO_H_
