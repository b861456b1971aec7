// Parsers of flag values that exist only for the command line: grid shapes
// ("64x64x64"), process grids, periodicity, number lists and the --speeds flag.
// The file formats behind some flags (speed files, graphs, mappings) are parsed
// by the packages that own them; these only turn flag text into values.
//
//   ASSIGN_OR_RETURN(std::vector<int64_t> grid, ParseGridShape("64x64x64"));
//   ASSIGN_OR_RETURN(std::vector<bool> periodic, ParsePeriodic("1,0,1", 3));
//
// Every error is InvalidArgument and quotes the offending text.
#ifndef RANKMAP_CLI_ARG_PARSERS_H_
#define RANKMAP_CLI_ARG_PARSERS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::cli {

// Parses "1024x1024" or "64x64x64" (2 or 3 positive extents).
absl::StatusOr<std::vector<int64_t>> ParseGridShape(std::string_view text);

// Parses a process grid like "8x8" or "0x4x0" (0 = let tiling::DimsCreate
// choose).
absl::StatusOr<std::vector<int64_t>> ParseProcessGrid(std::string_view text);

// Parses periodicity for `dims` dimensions: "none", "all", or one 0/1 per
// dimension separated by commas ("1,0").
absl::StatusOr<std::vector<bool>> ParsePeriodic(std::string_view text,
                                                int32_t dims);

// Comma- or white-space-separated finite numbers ("0,0,1"), each converted to T
// (truncated for integer types); `flag` names the flag in errors ("--clusters:
// expected a number, found 'x'"). Empty text gives an empty list. Instantiated
// for int32_t and double.
template <typename T>
absl::StatusOr<std::vector<T>> ParseList(std::string_view text,
                                         std::string_view flag);

// --speeds: the speeds file at that path when one can be opened (see
// tiling::ReadSpeedsFile), else an inline list "8,1,1". Empty: no speeds.
absl::StatusOr<std::vector<double>> LoadSpeeds(const std::string& speeds);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_ARG_PARSERS_H_
