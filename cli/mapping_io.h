// Mapping files: the `plain` format (line i holds the logical leaf index of
// process i; blank lines and `#` comments ignored) and JSON. What launchers
// read (rankfiles, hostfiles) is written by launch/ (cli/launch_output.h).
#ifndef RANKMAP_CLI_MAPPING_IO_H_
#define RANKMAP_CLI_MAPPING_IO_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli {

enum class MappingFormat { kPlain, kJson };

absl::StatusOr<MappingFormat> ParseMappingFormat(std::string_view name);

// Parses the plain format; `name` is used in errors ("m.txt:3: expected a leaf
// index, found 'x'"). Does not validate against a tree (use
// core::ValidateMapping).
absl::StatusOr<core::Mapping> ParseMapping(std::string_view text,
                                           std::string_view name);
absl::StatusOr<core::Mapping> ReadMappingFile(const std::string& path);

// The mapping as text in `format`; json also holds the algorithm and J ("j"
// is null when J is not finite: JSON has no inf or nan; core::Map refuses
// inputs where it could be).
std::string FormatMapping(const topology::Tree& tree,
                          const core::Mapping& mapping, MappingFormat format,
                          std::string_view algorithm, double j);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_MAPPING_IO_H_
