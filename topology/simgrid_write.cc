#include "topology/simgrid_write.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/xml_escape.h"
#include "topology/link.h"

namespace rankmap::topology {
namespace {

using base::XmlEscape;

std::string FormatSpeed(double flops) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, flops);
    if (std::strtod(buf, nullptr) == flops) break;
  }
  return absl::StrCat(buf, "f");
}

class PlatformWriter {
 public:
  PlatformWriter(const Tree& tree, const PlatformWriteOptions& options)
      : t_(tree), options_(options), netpoint_(tree.num_nodes()) {}

  absl::StatusOr<std::string> Write() {
    if (!t_.has_links()) {
      return absl::InvalidArgumentError(
          "topology/simgrid: the topology has no links (bandwidths and "
          "latencies): describe it as a tleaf with link levels, a network spec "
          "with link directives or a SimGrid platform");
    }
    if (!std::isfinite(options_.host_speed) || options_.host_speed <= 0) {
      return absl::InvalidArgumentError(
          "topology/simgrid: host speed must be finite and > 0");
    }
    RETURN_IF_ERROR(NameHosts());
    const NodeId root = t_.root();
    for (NodeId v = t_.num_leaves(); v < t_.num_nodes(); ++v) {
      if (v != root && t_.has_pair_links(v)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/simgrid: node ", v, " (", t_.kind(v),
            ") has pair links; a platform can only join the root's children "
            "pairwise"));
      }
    }
    std::string out =
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n";
    if (!t_.has_pair_links(root) || t_.is_host(root)) {
      const std::string zone = FreshName("rankmap");
      absl::StrAppend(&out, "  <zone id=\"", XmlEscape(zone),
                      "\" routing=\"Floyd\">\n");
      RETURN_IF_ERROR(WriteSubtree(root, "    ", out));
      out += "  </zone>\n";
    } else {
      RETURN_IF_ERROR(WriteJoinedZones(root, out));
    }
    out += "</platform>\n";
    return out;
  }

 private:
  // Host ids from the leaves' host names; they must be set, agree inside a
  // host and differ between hosts.
  absl::Status NameHosts() {
    for (LeafId l = 0; l < t_.num_leaves(); ++l) {
      const NodeId h = t_.HostOf(l);
      if (h < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("topology/simgrid: leaf ", l, " (", t_.kind(l),
                         ") is in no host (a node with a loopback link)"));
      }
      const std::string& name = t_.host(l);
      if (name.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("topology/simgrid: leaf ", l, " has no host name"));
      }
      if (netpoint_[h].empty()) {
        netpoint_[h] = name;
      } else if (netpoint_[h] != name) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/simgrid: host node ", h, " has leaves named '",
            netpoint_[h], "' and '", name, "'"));
      }
    }
    for (NodeId v = 0; v < t_.num_nodes(); ++v) {
      if (!t_.is_host(v)) continue;
      if (netpoint_[v].empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("topology/simgrid: host node ", v, " has no leaves"));
      }
      if (!used_.insert(netpoint_[v]).second) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/simgrid: two hosts are named '", netpoint_[v], "'"));
      }
    }
    return absl::OkStatus();
  }

  // `base`, or base with a counter when a host already has that name.
  std::string FreshName(const std::string& base) {
    std::string name = base;
    for (int i = 1; used_.count(name); ++i) name = absl::StrCat(base, "-", i);
    used_.insert(name);
    return name;
  }

  static std::string LinkElement(const std::string& indent,
                                 const std::string& id, const Link& l,
                                 const char* sharing) {
    return absl::StrCat(indent, "<link id=\"", XmlEscape(id), "\" bandwidth=\"",
                        FormatBandwidth(l.bandwidth), "\" latency=\"",
                        FormatLatency(l.latency), "\" sharing_policy=\"",
                        sharing, "\"/>\n");
  }

  // Hosts, routers, links and routes of the subtree of `top` (top has no
  // route up; its uplink is its caller's business).
  absl::Status WriteSubtree(NodeId top, const std::string& indent,
                            std::string& out) {
    std::vector<NodeId> nodes;  // preorder, hosts are not entered
    std::vector<NodeId> stack = {top};
    while (!stack.empty()) {
      const NodeId v = stack.back();
      stack.pop_back();
      nodes.push_back(v);
      if (t_.is_host(v)) continue;
      auto kids = t_.children(v);
      for (size_t k = kids.size(); k-- > 0;) stack.push_back(kids[k]);
    }
    std::string decls, links, routes;
    for (NodeId v : nodes) {
      if (t_.is_host(v)) {
        const int64_t cores = std::max<int64_t>(1, t_.Capacity(v));
        absl::StrAppend(&decls, indent, "<host id=\"", XmlEscape(netpoint_[v]),
                        "\" speed=\"", FormatSpeed(options_.host_speed),
                        "\" core=\"", cores, "\"/>\n");
        const std::string lo = absl::StrCat(netpoint_[v], "-loopback");
        links += LinkElement(indent, lo, t_.loopback(v), "SHARED");
        absl::StrAppend(&routes, indent, "<route src=\"",
                        XmlEscape(netpoint_[v]), "\" dst=\"",
                        XmlEscape(netpoint_[v]),
                        "\" symmetrical=\"NO\"><link_ctn id=\"", XmlEscape(lo),
                        "\"/></route>\n");
      } else if (t_.is_leaf(v)) {
        return absl::InvalidArgumentError(
            absl::StrCat("topology/simgrid: leaf ", v, " is in no host"));
      } else {
        netpoint_[v] = FreshName(absl::StrCat("sw", routers_++));
        absl::StrAppend(&decls, indent, "<router id=\"",
                        XmlEscape(netpoint_[v]), "\"/>\n");
      }
      if (v == top) continue;
      if (!t_.uplink(v).given()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "topology/simgrid: node ", v, " (", t_.kind(v),
            ") has no uplink; SimGrid needs a link on every route (network "
            "specs: add 'link network <bandwidth>:<latency>' or a 'links' "
            "matrix)"));
      }
      const std::string up = absl::StrCat(netpoint_[v], "-up");
      links += LinkElement(indent, up, t_.uplink(v), "SPLITDUPLEX");
      absl::StrAppend(&routes, indent, "<route src=\"", XmlEscape(netpoint_[v]),
                      "\" dst=\"", XmlEscape(netpoint_[t_.parent(v)]),
                      "\"><link_ctn id=\"", XmlEscape(up),
                      "\" direction=\"UP\"/></route>\n");
    }
    absl::StrAppend(&out, decls, links, routes);
    return absl::OkStatus();
  }

  // The root's children as zones joined pairwise by zoneRoutes.
  absl::Status WriteJoinedZones(NodeId root, std::string& out) {
    const std::string top = FreshName("rankmap");
    absl::StrAppend(&out, "  <zone id=\"", XmlEscape(top),
                    "\" routing=\"Full\">\n");
    auto kids = t_.children(root);
    const int32_t k = static_cast<int32_t>(kids.size());
    std::vector<std::string> zone(k), gateway(k);
    for (int32_t i = 0; i < k; ++i) {
      zone[i] = FreshName(absl::StrCat("z", i));
      absl::StrAppend(&out, "    <zone id=\"", XmlEscape(zone[i]),
                      "\" routing=\"Floyd\">\n");
      RETURN_IF_ERROR(WriteSubtree(kids[i], "      ", out));
      gateway[i] = netpoint_[kids[i]];
      if (t_.uplink(kids[i]).given()) {
        gateway[i] = FreshName(absl::StrCat(zone[i], "-gw"));
        const std::string up = absl::StrCat(netpoint_[kids[i]], "-up");
        absl::StrAppend(&out, "      <router id=\"", XmlEscape(gateway[i]),
                        "\"/>\n");
        out += LinkElement("      ", up, t_.uplink(kids[i]), "SPLITDUPLEX");
        absl::StrAppend(&out, "      <route src=\"",
                        XmlEscape(netpoint_[kids[i]]), "\" dst=\"",
                        XmlEscape(gateway[i]), "\"><link_ctn id=\"",
                        XmlEscape(up), "\" direction=\"UP\"/></route>\n");
      }
      out += "    </zone>\n";
    }
    std::string routes;
    for (int32_t i = 0; i < k; ++i) {
      for (int32_t j = i + 1; j < k; ++j) {
        const std::string id = absl::StrCat(zone[i], "-", zone[j]);
        out += LinkElement("    ", id, t_.pair_link(root, i, j), "SPLITDUPLEX");
        absl::StrAppend(&routes, "    <zoneRoute src=\"", XmlEscape(zone[i]),
                        "\" dst=\"", XmlEscape(zone[j]), "\" gw_src=\"",
                        XmlEscape(gateway[i]), "\" gw_dst=\"",
                        XmlEscape(gateway[j]), "\"><link_ctn id=\"",
                        XmlEscape(id), "\" direction=\"UP\"/></zoneRoute>\n");
      }
    }
    absl::StrAppend(&out, routes, "  </zone>\n");
    return absl::OkStatus();
  }

  const Tree& t_;
  PlatformWriteOptions options_;
  std::vector<std::string> netpoint_;  // host or router id per tree node
  std::set<std::string> used_;         // netpoint and zone ids
  int32_t routers_ = 0;
};

}  // namespace

absl::StatusOr<std::string> WriteSimGridPlatform(
    const Tree& tree, const PlatformWriteOptions& options) {
  return PlatformWriter(tree, options).Write();
}

}  // namespace rankmap::topology
