// Link: the physical parameters of one network link (bandwidth, latency), the
// text forms users write them in, and the rule that turns the links of a route
// into the engine's cost.
//
// Units follow SimGrid's platform files, so a value copies between a tleaf
// line, a network spec and a SimGrid platform unchanged:
//   bandwidth  bytes/s: "Bps", "kBps", "MBps", "GBps", "TBps" (powers of 10),
//              "KiBps", "MiBps", "GiBps", "TiBps" (powers of 2); bits/s:
//              "bps", "kbps", "Mbps", "Gbps", "Tbps", "Kibps", ...; a bare
//              number is bytes/s. Must be finite and > 0.
//   latency    "s", "ms", "us", "ns", "ps"; a bare number is seconds. Must be
//              finite and >= 0.
//   link       "<bandwidth>:<latency>", e.g. "12.5GBps:1.5us".
//
// Cost rule (RouteCost): the cost between two leaves is the time, in
// microseconds, that a message of kReferenceBytes (64 KiB) takes on the route
// between them on an idle network: the sum of the latencies of the route's
// links plus 64 KiB over the smallest bandwidth among them. This is the time
// SimGrid's CM02 network model gives one such message with SMPI's correction
// factors set to 1. Latency enters the cost because the objective counts bytes,
// not messages: a 64 KiB message is where a 10 us latency and a 10 Gbps
// bandwidth weigh about the same, and two links with the same bandwidth but a
// 1 ms and a 1 us latency must not cost the same.
//
//   ASSIGN_OR_RETURN(Link l, ParseLink("10Gbps:2us"));   // 1.25e9 B/s, 2e-6 s
//   Route r;
//   r.Add(l);
//   r.Add(l);
//   double c = RouteCost(r);  // 4 + 65536 / 1.25e9 * 1e6 = 56.4288 us
#ifndef RANKMAP_TOPOLOGY_LINK_H_
#define RANKMAP_TOPOLOGY_LINK_H_

#include <limits>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::topology {

// Bytes of the message the cost rule prices.
inline constexpr double kReferenceBytes = 65536.0;

struct Link {
  double bandwidth = 0.0;  // bytes/s; 0 means "not given"
  double latency = 0.0;    // seconds

  bool given() const { return bandwidth > 0.0; }
  friend bool operator==(const Link&, const Link&) = default;
};

// The links a message crosses, folded: latencies add, the smallest bandwidth
// limits. An empty route has latency 0 and infinite bandwidth.
struct Route {
  double latency = 0.0;
  double bandwidth = std::numeric_limits<double>::infinity();

  // Links that are not given are skipped (a connection without a link).
  void Add(const Link& link);
  void Add(const Route& other);
};

// The cost rule above, in microseconds. A route without any link costs 0.
double RouteCost(const Route& route);

// Parse the text forms above; `what` names the field in messages, e.g.
// "bandwidth: expected a number with a unit like 10Gbps or 1.25GBps, found
// 'fast'". Errors: no number, unknown unit, negative, zero (bandwidth) or
// non-finite values.
absl::StatusOr<double> ParseBandwidth(std::string_view text,
                                      std::string_view what = "bandwidth");
absl::StatusOr<double> ParseLatency(std::string_view text,
                                    std::string_view what = "latency");
// "<bandwidth>:<latency>".
absl::StatusOr<Link> ParseLink(std::string_view text,
                               std::string_view what = "link");

// Shortest forms that parse back to exactly the same double: the largest
// decimal unit that keeps the value >= 1 when that round-trips ("12.5GBps",
// "1.5us"), else bytes/s or seconds with up to 17 digits.
std::string FormatBandwidth(double bytes_per_second);
std::string FormatLatency(double seconds);
std::string FormatLink(const Link& link);  // "12.5GBps:1.5us"

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_LINK_H_
