// platform_check: loads a SimGrid platform with SimGrid itself (libsimgrid,
// no SMPI) and checks what a simulation needs, so that a platform SMPI would
// refuse or abort on is reported before a run, in one line naming the file:
//
//   platform_check PLATFORM [HOSTS]
//   platform.xml: 16 hosts, 34 links
//
// HOSTS, when given, is a file of host names, one per line (the hosts a
// hostfile will name): each must be a host of the platform. Checked: the file
// loads (SimGrid's own parser and its own error, e.g. a missing DOCTYPE);
// every link's bandwidth lies in [kMinBandwidth, kMaxBandwidth] and its
// latency in [0, kMaxLatency]; every host's speed in [kMinSpeed, kMaxSpeed].
// SMPI's calibrated model aborts mid-run ("The Impossible Did Happen") on a
// link below 1 byte/s among faster ones, and times near 1e300 s are noise
// rather than answers; the bounds stay far outside real machines. Errors: one
// line on stderr, exit status 2. Sets no SimGrid option: logs below
// "critical" are off.
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "simgrid/s4u/Engine.hpp"
#include "simgrid/s4u/Host.hpp"
#include "simgrid/s4u/Link.hpp"

namespace {

constexpr double kMinBandwidth = 1e3;   // bytes/s: 1 kB/s
constexpr double kMaxBandwidth = 1e15;  // 1 PB/s
constexpr double kMaxLatency = 10;      // seconds
constexpr double kMinSpeed = 1e3;       // flop/s
constexpr double kMaxSpeed = 1e18;

// The text as one line: newlines become spaces.
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

bool Fail(const std::string& platform, const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", platform.c_str(), OneLine(what).c_str());
  return false;
}

// SimGrid refuses a platform without its DOCTYPE line with a parser message
// that does not say so.
std::string DoctypeHint(const std::string& platform) {
  std::ifstream in(platform);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.find("<!DOCTYPE") != std::string::npos) return "";
  return " (the file has no <!DOCTYPE platform SYSTEM "
         "\"https://simgrid.org/simgrid.dtd\"> line, which SimGrid requires "
         "after the <?xml ...?> declaration)";
}

bool InRange(double v, double lo, double hi) {
  return std::isfinite(v) && v >= lo && v <= hi;
}

bool CheckLinks(const simgrid::s4u::Engine& e, const std::string& platform) {
  for (const simgrid::s4u::Link* l : e.get_all_links()) {
    char buf[256];
    if (!InRange(l->get_bandwidth(), kMinBandwidth, kMaxBandwidth)) {
      std::snprintf(buf, sizeof(buf),
                    "link '%.80s': bandwidth %g bytes/s, outside [%g, %g] "
                    "(SMPI aborts on or misprices such links)",
                    l->get_cname(), l->get_bandwidth(), kMinBandwidth,
                    kMaxBandwidth);
      return Fail(platform, buf);
    }
    if (!InRange(l->get_latency(), 0, kMaxLatency)) {
      std::snprintf(buf, sizeof(buf),
                    "link '%.80s': latency %g s, outside [0, %g]",
                    l->get_cname(), l->get_latency(), kMaxLatency);
      return Fail(platform, buf);
    }
  }
  return true;
}

bool CheckHosts(const simgrid::s4u::Engine& e, const std::string& platform,
                const std::string& hosts_file) {
  for (const simgrid::s4u::Host* h : e.get_all_hosts()) {
    if (!InRange(h->get_speed(), kMinSpeed, kMaxSpeed)) {
      char buf[256];
      std::snprintf(buf, sizeof(buf),
                    "host '%.80s': speed %g flop/s, outside [%g, %g]",
                    h->get_cname(), h->get_speed(), kMinSpeed, kMaxSpeed);
      return Fail(platform, buf);
    }
  }
  if (hosts_file.empty()) return true;
  std::ifstream in(hosts_file);
  if (!in) return Fail(hosts_file, "cannot read the host list");
  std::string name;
  while (std::getline(in, name)) {
    if (!name.empty() && e.host_by_name_or_null(name) == nullptr) {
      return Fail(platform, "no host '" + name.substr(0, 80) +
                                "', which the placement names");
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: platform_check PLATFORM [HOSTS]\n");
    return 2;
  }
  const std::string platform = argv[1];
  const std::string hosts = argc == 3 ? argv[2] : "";
  std::string log = "--log=root.thresh:critical";
  int engine_argc = 2;
  char* engine_argv[] = {argv[0], log.data(), nullptr};
  simgrid::s4u::Engine e(&engine_argc, engine_argv);
  try {
    e.load_platform(platform);
  } catch (const std::exception& ex) {
    Fail(platform, std::string("SimGrid cannot load it: ") + ex.what() +
                       DoctypeHint(platform));
    return 2;
  }
  if (!CheckLinks(e, platform) || !CheckHosts(e, platform, hosts)) return 2;
  std::printf("%s: %zu hosts, %zu links\n", platform.c_str(),
              e.get_all_hosts().size(), e.get_all_links().size());
  return 0;
}
