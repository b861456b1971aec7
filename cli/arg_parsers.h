// Parsers of flag values that exist only for the command line: grid shapes
// ("64x64x64"), process grids, periodicity, number lists, integers, the
// --speeds flag and the names of the front ends' choices ("ring",
// "square-corner", ...). This is the one place where `rankmap frontend`'s flag
// spellings become values; the libraries take typed options. The file formats
// behind some flags (speed files, graphs, mappings) are parsed by the packages
// that own them.
//
//   ASSIGN_OR_RETURN(std::vector<int64_t> grid, ParseGridShape("64x64x64"));
//   ASSIGN_OR_RETURN(std::vector<bool> periodic, ParsePeriodic("1,0,1", 3));
//   ASSIGN_OR_RETURN(graphs::PivotFlow flow, ParsePivotFlow("one-to-all"));
//
// Every error is InvalidArgument and quotes the offending text.
#ifndef RANKMAP_CLI_ARG_PARSERS_H_
#define RANKMAP_CLI_ARG_PARSERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/frontends/matrix_frontend.h"
#include "tiling/arrangement.h"
#include "tiling/network_volume.h"
#include "tiling/partition.h"

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
// (whole numbers within T's range for integer types); `flag` names the flag in
// errors ("--clusters: expected a number, found 'x'"). Empty text gives an
// empty list. Instantiated for int32_t and double.
template <typename T>
absl::StatusOr<std::vector<T>> ParseList(std::string_view text,
                                         std::string_view flag);

// --speeds: the speeds file at that path when one can be opened (see
// tiling::ReadSpeedsFile), else an inline list "8,1,1". Empty: no speeds.
absl::StatusOr<std::vector<double>> LoadSpeeds(const std::string& speeds);

// A decimal integer flag value ("4500", "-1"); `flag` names the flag in errors
// ("--n: expected an integer, found 'x'").
absl::StatusOr<int64_t> ParseInteger(std::string_view text,
                                     std::string_view flag);

// The names of the front ends' choices; errors list the accepted names
// ("frontend: unknown flow 'x' (ring, one-to-all)").
// --partitioner column-dp | grid
absl::StatusOr<graphs::SummaPartitioner> ParseSummaPartitioner(
    std::string_view s);
// --flow ring | one-to-all
absl::StatusOr<graphs::PivotFlow> ParsePivotFlow(std::string_view s);
// --link serial | duplex (or full-duplex)
absl::StatusOr<tiling::LinkModel> ParseLinkModel(std::string_view s);
// --shape hybrid (unset: Becker's choice) | square-corner | straight-line
absl::StatusOr<std::optional<tiling::MatrixShape>> ParseMatrixShape(
    std::string_view s);
// --arrange auto (unset: by the platform) | hop | bandwidth | exhaustive
absl::StatusOr<std::optional<tiling::ArrangeAlgorithm>> ParseArrangeAlgorithm(
    std::string_view s);
// --hop-norm sum | euclid
absl::StatusOr<tiling::HopNorm> ParseHopNorm(std::string_view s);
// --network fully-connected (or full) | star
absl::StatusOr<tiling::Network::Kind> ParseNetworkKind(std::string_view s);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_ARG_PARSERS_H_
