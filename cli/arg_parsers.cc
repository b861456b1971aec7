#include "cli/arg_parsers.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <type_traits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tiling/speeds_file.h"

namespace rankmap::cli {
namespace {

// Messages start with "stencil" because the grid flags belong to `rankmap
// frontend stencil`.
absl::Status Invalid(std::string_view context, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(context), ": ", what));
}

absl::StatusOr<int64_t> ParsePositiveInt(std::string_view text,
                                         std::string_view context) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(),
                   [](char ch) { return ch >= '0' && ch <= '9'; })) {
    return Invalid(context, absl::StrCat("expected a positive integer, found '",
                                         std::string(text), "'"));
  }
  int64_t v = 0;
  for (char ch : text) v = v * 10 + (ch - '0');
  if (v < 1) {
    return Invalid(context, absl::StrCat("expected a positive integer, found '",
                                         std::string(text), "'"));
  }
  return v;
}

// The parts of "AxBxC"; each is 0 (when `zero_ok`) or a positive integer.
absl::StatusOr<std::vector<int64_t>> ParseExtents(std::string_view text,
                                                  std::string_view context,
                                                  bool zero_ok) {
  std::vector<int64_t> out;
  size_t start = 0;
  while (true) {
    const size_t x = text.find('x', start);
    const std::string_view part =
        text.substr(start, x == std::string_view::npos ? std::string_view::npos
                                                       : x - start);
    if (zero_ok && part == "0") {
      out.push_back(0);
    } else {
      ASSIGN_OR_RETURN(const int64_t v, ParsePositiveInt(part, context));
      out.push_back(v);
    }
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> ParseGridShape(std::string_view text) {
  ASSIGN_OR_RETURN(
      std::vector<int64_t> out,
      ParseExtents(text,
                   absl::StrCat("stencil: grid '", std::string(text), "'"),
                   /*zero_ok=*/false));
  if (out.size() != 2 && out.size() != 3) {
    return Invalid("stencil",
                   absl::StrCat("grid '", std::string(text),
                                "' needs 2 or 3 extents like 1024x1024"));
  }
  return out;
}

absl::StatusOr<std::vector<int64_t>> ParseProcessGrid(std::string_view text) {
  ASSIGN_OR_RETURN(
      std::vector<int64_t> out,
      ParseExtents(
          text, absl::StrCat("stencil: process grid '", std::string(text), "'"),
          /*zero_ok=*/true));
  if (out.size() != 2 && out.size() != 3) {
    return Invalid("stencil", absl::StrCat("process grid '", std::string(text),
                                           "' needs 2 or 3 entries like 8x8"));
  }
  return out;
}

absl::StatusOr<std::vector<bool>> ParsePeriodic(std::string_view text,
                                                int32_t dims) {
  if (dims < 1) return Invalid("stencil", "periodic: no dimensions");
  if (text == "none") return std::vector<bool>(dims, false);
  if (text == "all") return std::vector<bool>(dims, true);
  std::vector<bool> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view part = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos
                                               : comma - start);
    if (part != "0" && part != "1") {
      return Invalid("stencil", absl::StrCat("periodic '", std::string(text),
                                             "': expected 0 or 1, found '",
                                             std::string(part), "'"));
    }
    out.push_back(part == "1");
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (static_cast<int32_t>(out.size()) != dims) {
    return Invalid("stencil",
                   absl::StrCat("periodic '", std::string(text), "' has ",
                                out.size(), " entries, the grid ", dims));
  }
  return out;
}

template <typename T>
absl::StatusOr<std::vector<T>> ParseList(std::string_view text,
                                         std::string_view flag) {
  std::vector<T> values;
  std::string token;
  auto flush = [&]() -> absl::Status {
    if (token.empty()) return absl::OkStatus();
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0' || !std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", std::string(flag), ": expected a number, found '", token, "'"));
    }
    // Integer lists take whole numbers of their type's range: a cast of 1e10
    // to int32_t would be undefined.
    if (std::is_integral_v<T> &&
        (v != std::trunc(v) ||
         v < static_cast<double>(std::numeric_limits<T>::min()) ||
         v > static_cast<double>(std::numeric_limits<T>::max()))) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", std::string(flag), ": expected an integer from ",
                       std::numeric_limits<T>::min(), " to ",
                       std::numeric_limits<T>::max(), ", found '", token, "'"));
    }
    values.push_back(static_cast<T>(v));
    token.clear();
    return absl::OkStatus();
  };
  for (char ch : text) {
    if (ch == ',' || ch == ' ' || ch == '\t' || ch == '\n') {
      RETURN_IF_ERROR(flush());
    } else {
      token.push_back(ch);
    }
  }
  RETURN_IF_ERROR(flush());
  return values;
}

template absl::StatusOr<std::vector<int32_t>> ParseList<int32_t>(
    std::string_view text, std::string_view flag);
template absl::StatusOr<std::vector<double>> ParseList<double>(
    std::string_view text, std::string_view flag);

absl::StatusOr<std::vector<double>> LoadSpeeds(const std::string& speeds) {
  if (speeds.empty()) return std::vector<double>{};
  if (std::ifstream(speeds).good()) return tiling::ReadSpeedsFile(speeds);
  std::string text = speeds;
  std::replace(text.begin(), text.end(), ',', ' ');
  return tiling::ParseSpeeds(text, "--speeds");
}

absl::StatusOr<int64_t> ParseInteger(std::string_view text,
                                     std::string_view flag) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(std::string(text), &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", std::string(flag), ": expected an integer, found '",
                     std::string(text), "'"));
  }
  return v;
}

namespace {

absl::Status Unknown(std::string_view what, std::string_view s,
                     std::string_view names) {
  return absl::InvalidArgumentError(
      absl::StrCat("frontend: unknown ", std::string(what), " '",
                   std::string(s), "' (", std::string(names), ")"));
}

}  // namespace

absl::StatusOr<graphs::SummaPartitioner> ParseSummaPartitioner(
    std::string_view s) {
  if (s == "column-dp") return graphs::SummaPartitioner::kColumnDp;
  if (s == "grid") return graphs::SummaPartitioner::kGrid;
  return Unknown("partitioner", s, "column-dp, grid");
}

absl::StatusOr<graphs::PivotFlow> ParsePivotFlow(std::string_view s) {
  if (s == "ring") return graphs::PivotFlow::kRing;
  if (s == "one-to-all") return graphs::PivotFlow::kOneToAll;
  return Unknown("flow", s, "ring, one-to-all");
}

absl::StatusOr<tiling::LinkModel> ParseLinkModel(std::string_view s) {
  if (s == "serial") return tiling::LinkModel::kSerial;
  if (s == "duplex" || s == "full-duplex")
    return tiling::LinkModel::kFullDuplex;
  return Unknown("link model", s, "serial, duplex");
}

absl::StatusOr<std::optional<tiling::MatrixShape>> ParseMatrixShape(
    std::string_view s) {
  if (s == "hybrid") return std::nullopt;
  if (s == "square-corner") return tiling::MatrixShape::kSquareCorner;
  if (s == "straight-line") return tiling::MatrixShape::kStraightLine;
  return Unknown("shape", s, "hybrid, square-corner, straight-line");
}

absl::StatusOr<std::optional<tiling::ArrangeAlgorithm>> ParseArrangeAlgorithm(
    std::string_view s) {
  if (s == "auto") return std::nullopt;
  if (s == "hop") return tiling::ArrangeAlgorithm::kHopGreedy;
  if (s == "bandwidth") return tiling::ArrangeAlgorithm::kBandwidthGreedy;
  if (s == "exhaustive") return tiling::ArrangeAlgorithm::kExhaustive;
  return Unknown("arrangement", s, "auto, hop, bandwidth, exhaustive");
}

absl::StatusOr<tiling::HopNorm> ParseHopNorm(std::string_view s) {
  if (s == "sum") return tiling::HopNorm::kSum;
  if (s == "euclid") return tiling::HopNorm::kEuclid;
  return Unknown("hop norm", s, "sum, euclid");
}

absl::StatusOr<tiling::Network::Kind> ParseNetworkKind(std::string_view s) {
  if (s == "full" || s == "fully-connected") {
    return tiling::Network::Kind::kFullyConnected;
  }
  if (s == "star") return tiling::Network::Kind::kStar;
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown network '", std::string(s), "' (fully-connected, star)"));
}

}  // namespace rankmap::cli
