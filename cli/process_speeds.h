// `rankmap map --process-speeds F`: the speed each process's share of the work
// was computed for (what `rankmap frontend summa|square-corner --output G`
// writes to G.speeds: positive numbers, one per process in graph vertex order,
// '#' comments), turned into slot classes against the topology's leaf speeds
// (topology::Tree::speeds) so the mapping keeps each process on a leaf of its
// speed.
//
//   ASSIGN_OR_RETURN(core::SlotClasses c,
//                    LoadProcessClasses("G.speeds", tree, n));
//   ASSIGN_OR_RETURN(core::Mapping m, core::Map(tree, graph, opts, c));
#ifndef RANKMAP_CLI_PROCESS_SPEEDS_H_
#define RANKMAP_CLI_PROCESS_SPEEDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/model/slot_classes.h"
#include "topology/tree.h"

namespace rankmap::cli {

// Errors (each one line naming the file): unreadable or malformed file, a
// count other than num_processes, a speed no leaf has, more processes of a
// speed than slots of it (core::ClassesForTree).
absl::StatusOr<core::SlotClasses> LoadProcessClasses(const std::string& path,
                                                     const topology::Tree& tree,
                                                     int32_t num_processes);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_PROCESS_SPEEDS_H_
