#include "topology/link.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "topology/shown.h"

namespace rankmap::topology {
namespace {

// value = number * mul / div. Dividing by an exact power of ten (instead of
// multiplying by an inexact 1e-6) makes "5us" the same double as 5e-6.
struct Unit {
  std::string_view suffix;
  double mul;
  double div;
};

constexpr double kKi = 1024.0, kMi = kKi * kKi, kGi = kMi * kKi,
                 kTi = kGi * kKi, kPi = kTi * kKi, kEi = kPi * kKi;

// Longest suffixes first so that "Gbps" is not read as "bps" after "G".
constexpr Unit kBandwidthUnits[] = {
    {"EiBps", kEi, 1}, {"PiBps", kPi, 1}, {"TiBps", kTi, 1}, {"GiBps", kGi, 1},
    {"MiBps", kMi, 1}, {"KiBps", kKi, 1}, {"Eibps", kEi, 8}, {"Pibps", kPi, 8},
    {"Tibps", kTi, 8}, {"Gibps", kGi, 8}, {"Mibps", kMi, 8}, {"Kibps", kKi, 8},
    {"EBps", 1e18, 1}, {"PBps", 1e15, 1}, {"TBps", 1e12, 1}, {"GBps", 1e9, 1},
    {"MBps", 1e6, 1},  {"kBps", 1e3, 1},  {"KBps", 1e3, 1},  {"Ebps", 1e18, 8},
    {"Pbps", 1e15, 8}, {"Tbps", 1e12, 8}, {"Gbps", 1e9, 8},  {"Mbps", 1e6, 8},
    {"kbps", 1e3, 8},  {"Kbps", 1e3, 8},  {"Bps", 1, 1},     {"bps", 1, 8},
};

constexpr Unit kLatencyUnits[] = {
    {"ms", 1, 1e3},  {"us", 1, 1e6}, {"ns", 1, 1e9},
    {"ps", 1, 1e12}, {"s", 1, 1},
};

// Decimal units the formatter may choose, largest first.
constexpr Unit kBandwidthOut[] = {{"TBps", 1e12, 1},
                                  {"GBps", 1e9, 1},
                                  {"MBps", 1e6, 1},
                                  {"kBps", 1e3, 1},
                                  {"Bps", 1, 1}};
constexpr Unit kLatencyOut[] = {
    {"s", 1, 1}, {"ms", 1, 1e3}, {"us", 1, 1e6}, {"ns", 1, 1e9}};

double Apply(double number, const Unit& u) { return number * u.mul / u.div; }

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

// A number followed by one of `units` (or nothing: factor 1). Returns false
// when the number or the unit is not recognised.
bool ParseWithUnit(std::string_view text, std::span<const Unit> units,
                   double& value) {
  Unit unit{"", 1, 1};
  std::string_view number = text;
  for (const Unit& u : units) {
    if (EndsWith(text, u.suffix)) {
      unit = u;
      number = text.substr(0, text.size() - u.suffix.size());
      break;
    }
  }
  if (number.empty()) return false;
  const std::string s(number);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE) return false;
  value = Apply(v, unit);
  return true;
}

// The shortest %g form (at most 17 digits) that reads back as `v`.
std::string ShortestDouble(double v) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// The shortest text "<mantissa><unit>" (no exponent) over `units` that reads
// back as exactly `value`, a mantissa below 1 counting one character more;
// else the bare number with `base_suffix`.
std::string FormatWithUnit(double value, std::span<const Unit> units,
                           std::string_view base_suffix) {
  std::string best;
  size_t best_score = 0;
  if (value > 0 && std::isfinite(value)) {
    for (const Unit& u : units) {
      const double m = value * u.div / u.mul;
      if (m >= 1e15 || m < 1e-3) continue;
      char buf[64];
      for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof(buf), "%.*g", precision, m);
        if (std::strchr(buf, 'e') != nullptr) continue;
        if (Apply(std::strtod(buf, nullptr), u) != value) continue;
        std::string text = absl::StrCat(buf, std::string(u.suffix));
        const size_t score = text.size() + (m < 1 ? 1 : 0);
        if (best.empty() || score < best_score) {
          best = std::move(text);
          best_score = score;
        }
        break;
      }
    }
  }
  if (!best.empty()) return best;
  return absl::StrCat(ShortestDouble(value), std::string(base_suffix));
}

}  // namespace

void Route::Add(const Link& link) {
  if (!link.given()) return;
  latency += link.latency;
  bandwidth = std::min(bandwidth, link.bandwidth);
}

void Route::Add(const Route& other) {
  latency += other.latency;
  bandwidth = std::min(bandwidth, other.bandwidth);
}

double RouteCost(const Route& route) {
  const double transfer =
      std::isinf(route.bandwidth) ? 0.0 : kReferenceBytes / route.bandwidth;
  return (route.latency + transfer) * 1e6;
}

absl::StatusOr<double> ParseBandwidth(std::string_view text,
                                      std::string_view what) {
  double v = 0;
  if (!ParseWithUnit(text, kBandwidthUnits, v) || !std::isfinite(v) || v <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what),
        ": expected a positive bandwidth like 10Gbps, 1.25GBps or 1.25e9 "
        "(bytes/s), found '",
        Shown(text), "'"));
  }
  return v;
}

absl::StatusOr<double> ParseLatency(std::string_view text,
                                    std::string_view what) {
  double v = 0;
  if (!ParseWithUnit(text, kLatencyUnits, v) || !std::isfinite(v) || v < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what),
        ": expected a non-negative latency like 1.5us, 0.2ms or 1e-6 (s), "
        "found '",
        Shown(text), "'"));
  }
  return v;
}

absl::StatusOr<Link> ParseLink(std::string_view text, std::string_view what) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(what),
        ": expected <bandwidth>:<latency> like 10Gbps:2us, found '",
        Shown(text), "'"));
  }
  Link link;
  auto bw = ParseBandwidth(text.substr(0, colon),
                           absl::StrCat(std::string(what), " bandwidth"));
  if (!bw.ok()) return bw.status();
  auto lat = ParseLatency(text.substr(colon + 1),
                          absl::StrCat(std::string(what), " latency"));
  if (!lat.ok()) return lat.status();
  link.bandwidth = *bw;
  link.latency = *lat;
  return link;
}

std::string FormatBandwidth(double bytes_per_second) {
  return FormatWithUnit(bytes_per_second, kBandwidthOut, "Bps");
}

std::string FormatLatency(double seconds) {
  if (seconds == 0) return "0s";
  return FormatWithUnit(seconds, kLatencyOut, "s");
}

std::string FormatLink(const Link& link) {
  return absl::StrCat(FormatBandwidth(link.bandwidth), ":",
                      FormatLatency(link.latency));
}

}  // namespace rankmap::topology
