// `rankmap map --format openfoam`: the mapping of a cell graph (from
// `rankmap frontend openfoam`) written as the dataFile of OpenFOAM's `manual`
// decomposition method, a labelList of one processor per cell, and the
// decomposeParDict lines that use it.
//
// Processor p is leaf p of the mapped tree (with --threads-per-process k, the
// p-th group of k leaves; with --allowed, the p-th allowed leaf), so the
// decomposition keeps its placement when MPI rank p runs on that leaf, as
// launchers place ranks in order by default (`mpirun --map-by core
// --bind-to core`). numberOfSubdomains is the number of leaves.
//
//   RETURN_IF_ERROR(WriteOpenFoamDecomposition(tree, mapping,
//                                              "cavity/constant/rankmap.decomp",
//                                              std::cout));
//   // writes the labelList, prints "openfoam: ..." lines with the
//   // decomposeParDict entries
#ifndef RANKMAP_CLI_OPENFOAM_OUTPUT_H_
#define RANKMAP_CLI_OPENFOAM_OUTPUT_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli {

// With `output`: checks that its file name is a word OpenFOAM reads as a
// dataFile (letters, digits, '.', '_', '-', '+'; not starting with '.'),
// writes the labelList there (its `object` is that name) and prints the
// dictionary lines on `notes`. Without: the labelList goes to `out`, the
// lines to `notes`. Errors: a file name OpenFOAM cannot take, an unwritable
// file.
absl::Status WriteOpenFoamDecomposition(const topology::Tree& tree,
                                        const core::Mapping& mapping,
                                        const std::string& output,
                                        std::ostream& out, std::ostream& notes);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_OPENFOAM_OUTPUT_H_
