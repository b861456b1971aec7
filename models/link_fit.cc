#include "models/link_fit.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "models/cost_model_fit.h"

namespace rankmap::models {
namespace {

constexpr double kSmallBytes = 128;     // at most: latency samples
constexpr double kLargeBytes = 262144;  // at least: bandwidth samples
// What a shared link's acknowledgements take under SMPI's model
// (core/objective/link_load.h).
constexpr double kSmpiSharedAcks = 1.05;

absl::StatusOr<double> Number(std::string_view name, const base::Line& l,
                              size_t k, double lo) {
  double v = 0;
  if (k >= l.tokens.size() || !absl::SimpleAtod(l.tokens[k].text, &v) ||
      !std::isfinite(v) || v < lo) {
    return base::LineError(name, l.number,
                           absl::StrCat("field ", k + 1, ": expected a number ",
                                        lo == 0 ? ">= 0" : "> 0"));
  }
  return v;
}

absl::StatusOr<int32_t> Rank(std::string_view name, const base::Line& l,
                             size_t k, int64_t ranks) {
  int32_t r = 0;
  if (k >= l.tokens.size() || !absl::SimpleAtoi(l.tokens[k].text, &r) ||
      r < 0 || r >= ranks) {
    return base::LineError(
        name, l.number,
        absl::StrCat("field ", k + 1, ": expected a rank below ", ranks));
  }
  return r;
}

absl::Status ParseRecord(std::string_view name, const base::Line& l,
                         int64_t ranks, LinkProbe* p) {
  const std::string& what = l.tokens[0].text;
  auto want = [&](size_t n) {
    return l.tokens.size() >= n
               ? absl::OkStatus()
               : base::LineError(name, l.number,
                                 absl::StrCat("'", what, "' needs ", n - 1,
                                              " fields"));
  };
  if (what == "rank") {
    RETURN_IF_ERROR(want(4));
    ASSIGN_OR_RETURN(const int32_t r, Rank(name, l, 1, ranks));
    p->host_of[r] = l.tokens[2].text;
    p->cpus_of[r] = l.tokens[3].text;
  } else if (what == "group") {
    RETURN_IF_ERROR(want(3));
    auto it = std::find(p->hosts.begin(), p->hosts.end(), l.tokens[1].text);
    if (it == p->hosts.end())
      return base::LineError(name, l.number, "a group of a host no rank ran on");
    ASSIGN_OR_RETURN(const int32_t g, Rank(name, l, 2, ranks));
    p->group[it - p->hosts.begin()] = g;
  } else if (what == "pingpong") {
    RETURN_IF_ERROR(want(5));
    ProbePingPong pp;
    ASSIGN_OR_RETURN(pp.a, Rank(name, l, 1, ranks));
    ASSIGN_OR_RETURN(pp.b, Rank(name, l, 2, ranks));
    ASSIGN_OR_RETURN(pp.bytes, Number(name, l, 3, 0));
    ASSIGN_OR_RETURN(pp.seconds, Number(name, l, 4, 0));
    p->pingpongs.push_back(pp);
  } else if (what == "stream") {
    RETURN_IF_ERROR(want(5));
    ProbeStream s;
    s.kind = l.tokens[1].text;
    ASSIGN_OR_RETURN(const double flows, Number(name, l, 2, 1));
    s.flows = static_cast<int32_t>(std::min<double>(flows, ranks));
    ASSIGN_OR_RETURN(s.bytes, Number(name, l, 3, 0));
    ASSIGN_OR_RETURN(s.seconds, Number(name, l, 4, 1e-300));
    p->streams.push_back(s);
  } else {
    return base::LineError(name, l.number,
                           absl::StrCat("unknown record '", what.substr(0, 32), "'"));
  }
  return absl::OkStatus();
}

// The hosts in order of their first rank, once every rank is read.
void ListHosts(LinkProbe* p) {
  for (const std::string& h : p->host_of)
    if (std::find(p->hosts.begin(), p->hosts.end(), h) == p->hosts.end())
      p->hosts.push_back(h);
  p->group.assign(p->hosts.size(), -1);
}

// Latency and bandwidth of the ping-pongs between rank 0 and `peer`.
absl::StatusOr<MeasuredLevel> FitPeer(const LinkProbe& p, int32_t peer,
                                      std::string level) {
  std::vector<Sample> small, large;
  for (const ProbePingPong& pp : p.pingpongs) {
    if (pp.a != 0 || pp.b != peer) continue;
    if (pp.bytes <= kSmallBytes) small.push_back({pp.bytes, pp.seconds});
    if (pp.bytes >= kLargeBytes) large.push_back({pp.bytes, pp.seconds});
  }
  auto fail = [&](const absl::Status& s) {
    return absl::InvalidArgumentError(absl::StrCat(
        "calibrate: rank 0 and rank ", peer, " (", level, "): ", s.message()));
  };
  absl::StatusOr<LinearFit> a = FitLine(small);
  if (!a.ok()) return fail(a.status());
  absl::StatusOr<LinearFit> b = FitLine(large);
  if (!b.ok()) return fail(b.status());
  MeasuredLevel m;
  m.name = std::move(level);
  m.peer = peer;
  double fastest = small.front().seconds;
  for (const Sample& s : small) fastest = std::min(fastest, s.seconds);
  m.latency = a->intercept > 0 ? a->intercept : fastest;
  if (b->slope > 0) {
    m.bandwidth = 1 / b->slope;
    m.bulk_latency = std::max(b->intercept, 0.0);
  } else {
    // Noise (a busy machine): the largest message's own rate.
    const Sample* big = &large.front();
    for (const Sample& s : large)
      if (s.bytes > big->bytes) big = &s;
    m.bandwidth = big->bytes / std::max(big->seconds - m.latency, 0.5 * big->seconds);
    m.noisy = true;
  }
  return m;
}

// Bytes per second a stream of `kind` carried, its route's latency left out.
double StreamRate(const LinkProbe& p, std::string_view kind, double latency,
                  int32_t* flows) {
  for (const ProbeStream& s : p.streams) {
    if (s.kind != kind) continue;
    *flows = s.flows;
    return s.bytes / std::max(s.seconds - latency, 0.5 * s.seconds);
  }
  return 0;
}

}  // namespace

absl::StatusOr<LinkProbe> ParseLinkProbe(std::string_view text,
                                         std::string_view name) {
  const std::vector<base::Line> lines = base::SplitLines(text);
  if (lines.empty() || lines[0].tokens.size() != 3 ||
      lines[0].tokens[0].text != "link-probe" || lines[0].tokens[1].text != "1") {
    return base::LineError(name, lines.empty() ? 1 : lines[0].number,
                           "expected 'link-probe 1 <ranks>' (sim/link_probe)");
  }
  int64_t ranks = 0;
  if (!absl::SimpleAtoi(lines[0].tokens[2].text, &ranks) || ranks < 1 ||
      ranks > (1 << 24)) {
    return base::LineError(name, lines[0].number, "a rank count in [1, 2^24]");
  }
  LinkProbe p;
  p.host_of.resize(ranks);
  p.cpus_of.resize(ranks);
  size_t k = 1;
  for (; k < lines.size() && lines[k].tokens[0].text == "rank"; ++k)
    RETURN_IF_ERROR(ParseRecord(name, lines[k], ranks, &p));
  for (int64_t r = 0; r < ranks; ++r) {
    if (p.host_of[r].empty())
      return base::LineError(name, lines[0].number,
                             absl::StrCat("no 'rank ", r, "' line"));
  }
  ListHosts(&p);
  for (; k < lines.size(); ++k) {
    if (lines[k].tokens[0].text == "rank")
      return base::LineError(name, lines[k].number, "'rank' after the others");
    RETURN_IF_ERROR(ParseRecord(name, lines[k], ranks, &p));
  }
  for (size_t h = 0; h < p.hosts.size(); ++h) {
    if (p.group[h] < 0) {
      return base::LineError(name, lines.back().number,
                             absl::StrCat("no group for host ", p.hosts[h]));
    }
  }
  return p;
}

absl::StatusOr<LinkFit> FitLinks(
    const LinkProbe& p, const std::map<int32_t, std::string>& intra_level,
    core::LinkModel model) {
  LinkFit fit;
  auto host = [&](int32_t r) {
    return std::find(p.hosts.begin(), p.hosts.end(), p.host_of[r]) -
           p.hosts.begin();
  };
  std::vector<int32_t> peers;
  for (const ProbePingPong& pp : p.pingpongs)
    if (pp.a == 0 && std::find(peers.begin(), peers.end(), pp.b) == peers.end())
      peers.push_back(pp.b);
  const MeasuredLevel* widest_inside = nullptr;
  for (int32_t peer : peers) {
    std::string level = "network";
    if (host(peer) == 0) {
      auto it = intra_level.find(peer);
      level = it == intra_level.end() ? "intranode" : it->second;
    } else if (p.group[host(peer)] == p.group[0]) {
      level = "switch";
    }
    ASSIGN_OR_RETURN(MeasuredLevel m, FitPeer(p, peer, std::move(level)));
    if (m.noisy) {
      fit.notes.push_back(absl::StrFormat(
          "rank 0 and rank %d (%s): larger messages were not slower (a busy "
          "machine?); the bandwidth is the largest message's rate",
          m.peer, m.name));
    }
    fit.levels.push_back(std::move(m));
  }
  std::sort(fit.levels.begin(), fit.levels.end(),
            [](const MeasuredLevel& a, const MeasuredLevel& b) {
              return a.latency < b.latency;
            });
  const MeasuredLevel *near = nullptr, *far = nullptr;
  for (const MeasuredLevel& m : fit.levels) {
    if (m.name == "switch") near = near ? near : &m;
    else if (m.name == "network") far = far ? far : &m;
    else widest_inside = &m;
  }
  if (near == nullptr) std::swap(near, far);  // every host alone: one tier
  if (near == nullptr) {
    return absl::FailedPreconditionError(
        "calibrate: every rank ran on one host; run ranks on two hosts or "
        "more to measure the network");
  }
  const double lat = model == core::LinkModel::kSmpi
                         ? core::SmpiLatencyFactor(kSmallBytes)
                         : 1.0;
  const double bw = model == core::LinkModel::kSmpi
                        ? core::SmpiBandwidthFactor(kLargeBytes)
                        : 1.0;
  fit.host_stream = StreamRate(p, "host", near->bulk_latency, &fit.host_flows);
  fit.cluster = {std::max(near->bandwidth, fit.host_stream) / bw,
                 near->latency / 2 / lat};
  if (far != nullptr) {
    fit.switch_stream =
        StreamRate(p, "switch", far->bulk_latency, &fit.switch_flows);
    // A switch link is revealed when the hosts' streams fell short of what
    // their own links carry.
    const double hosts_carry =
        fit.switch_flows * std::max(near->bandwidth, fit.host_stream);
    double uplink = std::min(far->bandwidth, near->bandwidth) < 0.9 * near->bandwidth
                        ? far->bandwidth
                        : 0.0;
    if (fit.switch_stream > 0 && fit.switch_stream < 0.9 * hosts_carry) {
      uplink = uplink > 0 ? std::min(uplink, fit.switch_stream)
                          : fit.switch_stream;
    } else if (uplink == 0) {
      uplink = std::max(fit.switch_stream, far->bandwidth);
      fit.notes.push_back(absl::StrFormat(
          "the switch links carried all that %d hosts sent at once: they are "
          "at least that fast (%.4g B/s)",
          fit.switch_flows, uplink));
    }
    fit.network = {uplink / bw,
                   std::max(far->latency - near->latency, 0.0) / 2 / lat};
  }
  if (widest_inside != nullptr) {
    int32_t pairs = 0;
    fit.loopback_stream =
        StreamRate(p, "loopback", widest_inside->bulk_latency, &pairs);
    const double acks = model == core::LinkModel::kSmpi ? kSmpiSharedAcks : 1.0;
    fit.node = {std::max(widest_inside->bandwidth, fit.loopback_stream) * acks / bw,
                widest_inside->latency / lat};
  } else {
    fit.node = {10 * fit.cluster.bandwidth, fit.cluster.latency / 10};
    fit.notes.push_back(
        "no two ranks shared a host: each host's loopback is taken 10 times "
        "faster than its link");
  }
  return fit;
}

std::string FormatHockneyParams(const LinkFit& fit) {
  std::string out =
      "# Hockney per distance, as measured by rankmap calibrate (one-way "
      "seconds, seconds per byte)\n";
  std::vector<std::string> seen;  // the nearest peer of each level
  for (const MeasuredLevel& m : fit.levels) {
    if (std::find(seen.begin(), seen.end(), m.name) != seen.end()) continue;
    seen.push_back(m.name);
    absl::StrAppend(&out, absl::StrFormat("level %s hockney alpha=%.6g beta=%.6g\n",
                                          m.name, m.latency, 1 / m.bandwidth));
  }
  return out;
}

}  // namespace rankmap::models
