// Links fitted from what sim/link_probe measured under a job's own launcher
// (`rankmap calibrate`): the latency and bandwidth between rank 0 and a rank
// at each distance, what shared links carry, and from them the links of a
// network spec (topology/network.h) that map, advise and simulate read.
//
//   ASSIGN_OR_RETURN(LinkProbe probe, ParseLinkProbe(text, "probe.txt"));
//   ASSIGN_OR_RETURN(LinkFit fit, FitLinks(probe, {}, core::LinkModel::kSmpi));
//   // fit.node, fit.cluster, fit.network: "link node|cluster|network" lines
//
// Per measured distance (a ping-pong between rank 0 and one peer over small
// messages of at most 128 bytes and large ones of at least 256 KiB): the
// latency is the intercept of the line through the small messages' one-way
// times, the bandwidth the inverse slope of the line through the large ones
// (FitLine, models/cost_model_fit.h). The distances: inside rank 0's host
// (each peer there, named by the caller: the level of the host's hardware
// the two ranks share, or "intranode"), a host under the same switch
// ("switch": the route crosses two host links) and one under another switch
// ("network": two host links and two switch links).
//
// The links of a network spec: a host's loopback from the slowest distance
// inside the host; a host's link (`link cluster`) with half the switch
// distance's latency and the larger of its bandwidth and what its host's
// ranks streamed to another host at once; a switch's link (`link network`)
// with half the latency the network distance adds, and the bandwidth its
// hosts streamed at once to another switch's (when that fell short of what
// their host links carry; otherwise the switch link is at least that fast,
// which a note says). Under LinkModel::kSmpi the values are nominal, as
// SimGrid's default (calibrated) model reads a platform: latencies divided
// by its small-message latency factor, bandwidths by its large-message
// bandwidth factor (core/objective/link_load.h), and a shared loopback's by the 5% its
// acknowledgements take; the model then gives back what was measured. Under
// kExact they are the measured values.
#ifndef RANKMAP_MODELS_LINK_FIT_H_
#define RANKMAP_MODELS_LINK_FIT_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/objective/link_load.h"
#include "topology/link.h"

namespace rankmap::models {

struct ProbePingPong {
  int32_t a = 0, b = 0;
  double bytes = 0, seconds = 0;  // one way
};

struct ProbeStream {
  std::string kind;  // host, switch, loopback
  int32_t flows = 0;
  double bytes = 0, seconds = 0;  // in all, until the last arrived
};

// The probe's output (sim/link_probe.cc describes the format).
struct LinkProbe {
  std::vector<std::string> host_of;  // per rank
  std::vector<std::string> cpus_of;  // per rank, "0-3,8"
  std::vector<std::string> hosts;    // distinct, in order of their first rank
  std::vector<int32_t> group;        // switch number per host
  std::vector<ProbePingPong> pingpongs;
  std::vector<ProbeStream> streams;
};

// Errors name `name`, the line and what was wrong: a bad header, an unknown
// record, bad numbers, ranks or hosts out of range, a host without a group.
// O(size of text).
absl::StatusOr<LinkProbe> ParseLinkProbe(std::string_view text,
                                         std::string_view name);

// One distance from rank 0, as measured.
struct MeasuredLevel {
  std::string name;  // a level of the host's hardware, intranode, switch, network
  int32_t peer = 0;
  double latency = 0;    // seconds, one way
  double bandwidth = 0;  // bytes per second
  // The intercept of the large messages' line: what a bulk transfer waits
  // before its bytes flow (SMPI's model multiplies latencies by up to 11.6
  // for them), left out of the streams' rates.
  double bulk_latency = 0;
  // The large messages' times did not grow with their size (noise): the
  // bandwidth is the largest message's rate.
  bool noisy = false;
};

struct LinkFit {
  std::vector<MeasuredLevel> levels;  // nearest first
  // Bytes per second carried at once: a host's link, a switch's link (by
  // switch_flows hosts), the loopback; 0 when not measured.
  double host_stream = 0, switch_stream = 0, loopback_stream = 0;
  int32_t host_flows = 0, switch_flows = 0;
  // The links of a network spec; network is not given with one switch.
  topology::Link node, cluster, network;
  std::vector<std::string> notes;
};

// intra_level[r]: the name of the level rank 0 and rank r share on rank 0's
// host (absent: "intranode"). Errors: a distance with too few sizes to fit, a
// probe whose ranks all ran on one host. Noise that makes large messages no
// slower than smaller ones is a note, not an error.
absl::StatusOr<LinkFit> FitLinks(const LinkProbe& probe,
                                 const std::map<int32_t, std::string>& intra_level,
                                 core::LinkModel model);

// "level <selector> hockney alpha=<s> beta=<s/B>" per measured distance
// (models/channel_params.h), as measured.
std::string FormatHockneyParams(const LinkFit& fit);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_LINK_FIT_H_
