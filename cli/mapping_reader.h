// Reads a mapping in any format `rankmap map` writes, detected from the
// content:
//   json      starts with '{': the array under the top-level "mapping" key
//             (other keys skipped; cli/json_mapping.h)
//   rankfile  the first line that is not blank or a comment starts with
//             "rank": Open MPI `rank <i>=<host> slot=<n>[,<n>...]` lines
//   openfoam  a FoamFile labelList (plain or gzip): the processor of each
//             cell, as `map --format openfoam` and `decomposePar -cellDist`
//             write it; processor p is leaf p of `tree` in its own order
//   plain     otherwise: the leaf of process i on line i (cli/mapping_io.h)
//
// Rankfile slots name leaves of `tree` on their host (a leaf without a host
// is on "localhost"), as launch/rankfile.h writes them: the leaf whose PU os
// index is the slot's first number (a core's first PU); on hosts whose leaves
// have no os index, node-local numbers: the host's n-th leaf. A file whose
// comments mention `--map-by rankfile` (Open MPI 5, logical numbers) always
// uses the n-th leaf.
//
//   ASSIGN_OR_RETURN(core::Mapping m, ReadAnyMappingFile("m.rf", tree));
//
// Nothing is validated against the graph (see core::ValidateMapping).
#ifndef RANKMAP_CLI_MAPPING_READER_H_
#define RANKMAP_CLI_MAPPING_READER_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "cli/leaf_numbering.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli {

// Plain and JSON leaf numbers are the caller's (`numbering`: with --allowed,
// numbers in the whole machine). Errors name `name` and the line: malformed
// entries, a rank given twice or missing, a rank beyond the number of rank
// lines (checked before anything is sized by it), a host or slot the tree does
// not have, JSON without a "mapping" array of leaf indexes, a leaf that is not
// allowed.
absl::StatusOr<core::Mapping> ParseAnyMapping(
    std::string_view text, std::string_view name, const topology::Tree& tree,
    const LeafNumbering& numbering = LeafNumbering());

// Reads the file at `path` (errors: unreadable, and those above).
absl::StatusOr<core::Mapping> ReadAnyMappingFile(
    const std::string& path, const topology::Tree& tree,
    const LeafNumbering& numbering = LeafNumbering());

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_MAPPING_READER_H_
