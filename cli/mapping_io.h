// Mapping files: the `plain` format (line i holds the logical leaf index of
// process i; blank lines and `#` comments ignored), JSON and SMPI hostfiles.
// What launchers read (rankfiles, hostfiles) is written by launch/
// (cli/launch_output.h).
#ifndef RANKMAP_CLI_MAPPING_IO_H_
#define RANKMAP_CLI_MAPPING_IO_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli {

enum class MappingFormat { kPlain, kJson, kSmpi };

absl::StatusOr<MappingFormat> ParseMappingFormat(std::string_view name);

// Parses the plain format; `name` is used in errors ("m.txt:3: expected a leaf
// index, found 'x'"). Does not validate against a tree (use
// core::ValidateMapping).
absl::StatusOr<core::Mapping> ParseMapping(std::string_view text,
                                           std::string_view name);
absl::StatusOr<core::Mapping> ReadMappingFile(const std::string& path);

// The mapping as text in `format`. JSON: {"algorithm", "j", "processes",
// "mapping", "version" (base/version.h: the build that wrote it)}; "j" is null
// when j is not finite (JSON has no inf or nan; core::Map refuses inputs where
// it could be). SMPI hostfiles (sim/smpi_hostfile.h): line r is the host of
// rank r, for `smpirun -hostfile F`; error: a leaf without a host name.
// `device`, when not empty, holds one entry per process (map --near): JSON gets
// a "device" array with null for processes without one ("").
absl::StatusOr<std::string> FormatMapping(
    const topology::Tree& tree, const core::Mapping& mapping,
    MappingFormat format, std::string_view algorithm, double j,
    const std::vector<std::string>& device = {});

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_MAPPING_IO_H_
