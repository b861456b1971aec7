#include "topology/simgrid_platform.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/xml_escape.h"
#include "topology/link.h"

namespace rankmap::topology {
namespace {

using base::XmlEscape;

// SimGrid's network/loopback-bw and network/loopback-lat defaults: what a host
// of a routed zone uses for its own traffic when no route says otherwise.
constexpr Link kDefaultLoopback{10e9, 0.0};
constexpr int kMaxNesting = 64;
constexpr int32_t kMaxTreeDepth = 256;
constexpr int64_t kMaxCores = int64_t{1} << 20;
// Children joined pairwise (zones of zones, Full zones of hosts) need a k x k
// matrix: bounded so a hostile file cannot exhaust memory.
constexpr int32_t kMaxPairwise = 2048;

// ---------------------------------------------------------------- writing --

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

// ---------------------------------------------------------------- reading --

// A node of the tree being read, before it becomes a Tree.
struct PNode {
  std::string kind;
  std::string host;   // hosts: the host id
  int64_t cores = 0;  // hosts: number of leaves
  Link uplink, loopback;
  std::vector<PNode> children;
  std::vector<Link> pair_links;  // children^2 entries when the children are
                                 // joined pairwise
};

std::string Attr(const xmlNode* n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  if (v == nullptr) return "";
  std::string s(reinterpret_cast<const char*>(v));
  xmlFree(v);
  return s;
}

bool HasAttr(const xmlNode* n, const char* name) {
  return xmlHasProp(n, reinterpret_cast<const xmlChar*>(name)) != nullptr;
}

std::string Name(const xmlNode* n) {
  return reinterpret_cast<const char*>(n->name);
}

std::vector<xmlNode*> Elements(const xmlNode* n) {
  std::vector<xmlNode*> out;
  for (xmlNode* c = n->children; c != nullptr; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) out.push_back(c);
  }
  return out;
}

bool Ignored(const std::string& name) {
  static const std::set<std::string> kIgnored = {
      "prop",    "config",   "trace", "trace_connect", "actor",
      "process", "argument", "disk",  "mount"};
  return kIgnored.count(name) > 0;
}

bool IsZone(const std::string& name) { return name == "zone" || name == "AS"; }

class PlatformReader {
 public:
  PlatformReader(std::string source, int64_t max_leaves)
      : source_(std::move(source)), max_leaves_(max_leaves) {}

  absl::StatusOr<Tree> Read(std::string_view xml) {
    if (xml.size() > static_cast<size_t>(INT_MAX)) {
      return absl::ResourceExhaustedError(
          absl::StrCat(source_, ": larger than 2 GiB"));
    }
    struct Errors {
      std::string message;
      int line = 0;
    } errors;
    xmlSetStructuredErrorFunc(&errors, [](void* ctx, xmlErrorPtr e) {
      auto* x = static_cast<Errors*>(ctx);
      if (!x->message.empty() || e == nullptr) return;
      x->message = e->message != nullptr ? e->message : "malformed XML";
      while (!x->message.empty() &&
             (x->message.back() == '\n' || x->message.back() == ' '))
        x->message.pop_back();
      x->line = e->line;
    });
    std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> doc(
        xmlReadMemory(xml.data(), static_cast<int>(xml.size()), source_.c_str(),
                      nullptr, XML_PARSE_NONET),
        xmlFreeDoc);
    xmlSetStructuredErrorFunc(nullptr, nullptr);
    if (doc == nullptr || !errors.message.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          source_, ":", std::max(errors.line, 1), ": ",
          errors.message.empty() ? "malformed XML" : errors.message));
    }
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    if (root == nullptr || Name(root) != "platform") {
      return absl::InvalidArgumentError(absl::StrCat(
          source_, ":", root ? xmlGetLineNo(root) : 1,
          ": not a SimGrid platform (the first element is not <platform>)"));
    }
    double version = 0;
    if (!absl::SimpleAtod(Attr(root, "version"), &version) || version < 4) {
      return Err(root, absl::StrCat("version '", Attr(root, "version"),
                                    "': rankmap reads SimGrid platforms of "
                                    "version 4 and later (simgrid_update_xml "
                                    "upgrades older ones)"));
    }
    RETURN_IF_ERROR(CollectLinks(root, 0));
    std::vector<xmlNode*> tops;
    for (xmlNode* c : Elements(root)) {
      const std::string name = Name(c);
      if (IsZone(name) || name == "cluster") {
        tops.push_back(c);
      } else if (!Ignored(name)) {
        return Unsupported(c);
      }
    }
    if (tops.empty()) return Err(root, "no <zone> or <cluster>");
    if (tops.size() > 1)
      return Err(tops[1], "a second top-level zone; a platform has one root");
    ASSIGN_OR_RETURN(PNode top, Element(tops[0], "", 1));
    return Build(top);
  }

 private:
  absl::Status Err(const xmlNode* n, std::string_view message) const {
    std::string what = absl::StrCat("<", Name(n));
    if (HasAttr(n, "id")) absl::StrAppend(&what, " id='", Attr(n, "id"), "'");
    what += ">";
    return absl::InvalidArgumentError(absl::StrCat(
        source_, ":", xmlGetLineNo(n), ": ", what, ": ", std::string(message)));
  }

  absl::Status Unsupported(const xmlNode* n) const {
    return Err(n,
               "element not read by rankmap (it reads clusters, zones, "
               "hosts, routers, links and routes)");
  }

  absl::StatusOr<std::string> Required(const xmlNode* n,
                                       const char* name) const {
    if (!HasAttr(n, name))
      return Err(n, absl::StrCat("missing attribute '", name, "'"));
    return Attr(n, name);
  }

  absl::StatusOr<double> Bandwidth(const xmlNode* n, const char* name) const {
    ASSIGN_OR_RETURN(const std::string text, Required(n, name));
    absl::StatusOr<double> v =
        ParseBandwidth(text, absl::StrCat("attribute ", name));
    if (!v.ok()) return Err(n, std::string(v.status().message()));
    return *v;
  }

  absl::StatusOr<double> Latency(const xmlNode* n, const char* name,
                                 bool required = true) const {
    if (!required && !HasAttr(n, name)) return 0.0;
    ASSIGN_OR_RETURN(const std::string text, Required(n, name));
    absl::StatusOr<double> v =
        ParseLatency(text, absl::StrCat("attribute ", name));
    if (!v.ok()) return Err(n, std::string(v.status().message()));
    return *v;
  }

  absl::StatusOr<int64_t> Count(const xmlNode* n, const std::string& text,
                                const char* what, int64_t limit) const {
    int64_t v = 0;
    if (!absl::SimpleAtoi(text, &v) || v < 1 || v > limit) {
      return Err(n, absl::StrCat(what, ": expected an integer in [1, ", limit,
                                 "], found '", text, "'"));
    }
    return v;
  }

  // Every <link> and <backbone> of the document, by id (SimGrid's link names
  // are global).
  absl::Status CollectLinks(const xmlNode* n, int depth) {
    if (depth > kMaxNesting)
      return Err(n, absl::StrCat("nested more than ", kMaxNesting, " deep"));
    for (xmlNode* c : Elements(n)) {
      const std::string name = Name(c);
      if (name == "link" || name == "backbone") {
        ASSIGN_OR_RETURN(const std::string id, Required(c, "id"));
        Link l;
        ASSIGN_OR_RETURN(l.bandwidth, Bandwidth(c, "bandwidth"));
        ASSIGN_OR_RETURN(l.latency, Latency(c, "latency", name == "backbone"));
        if (!links_.emplace(id, l).second)
          return Err(c, absl::StrCat("a second link named '", id, "'"));
      } else {
        RETURN_IF_ERROR(CollectLinks(c, depth + 1));
      }
    }
    return absl::OkStatus();
  }

  // The links of a <route> or <zoneRoute>, folded.
  absl::StatusOr<Route> RouteOf(const xmlNode* route) const {
    Route r;
    int links = 0;
    for (xmlNode* c : Elements(route)) {
      if (Name(c) != "link_ctn") return Unsupported(c);
      ASSIGN_OR_RETURN(std::string id, Required(c, "id"));
      auto it = links_.find(id);
      for (const char* suffix : {"_UP", "_DOWN"}) {
        const std::string s(suffix);
        if (it == links_.end() && id.size() > s.size() &&
            id.compare(id.size() - s.size(), s.size(), s) == 0) {
          it = links_.find(id.substr(0, id.size() - s.size()));
        }
      }
      if (it == links_.end())
        return Err(c, absl::StrCat("link '", id, "' is not defined"));
      r.Add(it->second);
      ++links;
    }
    if (links == 0) return Err(route, "a route without links");
    return r;
  }

  absl::Status CountLeaves(const xmlNode* n, int64_t leaves) {
    leaves_ += leaves;
    if (leaves_ > max_leaves_) {
      return Err(
          n, absl::StrCat("more than ", max_leaves_, " cores in the platform"));
    }
    return absl::OkStatus();
  }

  absl::Status AddHostId(const xmlNode* n, const std::string& id) {
    if (!host_ids_.insert(id).second)
      return Err(n, absl::StrCat("a second host named '", id, "'"));
    return absl::OkStatus();
  }

  absl::StatusOr<PNode> Element(const xmlNode* n, const std::string& gateway,
                                int depth) {
    if (depth > kMaxNesting)
      return Err(n, absl::StrCat("nested more than ", kMaxNesting, " deep"));
    if (Name(n) == "cluster") return Cluster(n, gateway);
    RETURN_IF_ERROR(Required(n, "id").status());
    bool zones = false, hosts = false;
    for (xmlNode* c : Elements(n)) {
      const std::string name = Name(c);
      zones |= IsZone(name) || name == "cluster";
      hosts |= name == "host" || name == "router";
    }
    if (zones && hosts)
      return Err(n, "holds both zones and hosts (the DTD allows one kind)");
    if (zones) return ZoneOfZones(n, gateway, depth);
    return ZoneOfHosts(n, gateway);
  }

  // ------------------------------------------------------------ clusters --

  absl::StatusOr<std::vector<int64_t>> Radicals(const xmlNode* n) const {
    ASSIGN_OR_RETURN(const std::string text, Required(n, "radical"));
    std::vector<int64_t> out;
    for (absl::string_view piece : absl::StrSplit(text, ',')) {
      const std::string p(piece);
      const size_t dash = p.find('-', 1);
      int64_t a = 0, b = 0;
      const bool ok = dash == std::string::npos
                          ? absl::SimpleAtoi(p, &a) && (b = a, true)
                          : absl::SimpleAtoi(p.substr(0, dash), &a) &&
                                absl::SimpleAtoi(p.substr(dash + 1), &b);
      if (!ok || a < 0 || b < a) {
        return Err(n, absl::StrCat("attribute radical: bad range '", p,
                                   "' (expected a, a-b or a list of them)"));
      }
      if (b - a + 1 > max_leaves_ - static_cast<int64_t>(out.size())) {
        return Err(n, absl::StrCat("attribute radical: more than ", max_leaves_,
                                   " hosts"));
      }
      for (int64_t i = a; i <= b; ++i) out.push_back(i);
    }
    return out;
  }

  // "a;b,c;..." as groups of positive integers.
  absl::StatusOr<std::vector<std::vector<int64_t>>> TopoParameters(
      const xmlNode* n) const {
    const std::string text = Attr(n, "topo_parameters");
    std::vector<std::vector<int64_t>> out;
    for (absl::string_view group : absl::StrSplit(text, ';')) {
      out.emplace_back();
      for (absl::string_view v : absl::StrSplit(group, ',')) {
        int64_t x = 0;
        if (!absl::SimpleAtoi(v, &x) || x < 1 || x > kMaxCores) {
          return Err(
              n, absl::StrCat("attribute topo_parameters '", text, "': '",
                              std::string(v), "' is not a positive integer"));
        }
        out.back().push_back(x);
      }
    }
    return out;
  }

  absl::StatusOr<PNode> Cluster(const xmlNode* n, const std::string& gateway) {
    ASSIGN_OR_RETURN(const std::string id, Required(n, "id"));
    ASSIGN_OR_RETURN(const std::string prefix, Required(n, "prefix"));
    ASSIGN_OR_RETURN(const std::string suffix, Required(n, "suffix"));
    RETURN_IF_ERROR(Required(n, "speed").status());
    const std::string topology =
        HasAttr(n, "topology") ? Attr(n, "topology") : "FLAT";
    if (topology == "TORUS") {
      return Err(n,
                 "topology TORUS: a torus is not a tree; rankmap reads "
                 "FLAT, FAT_TREE and DRAGONFLY clusters");
    }
    if (topology != "FLAT" && topology != "FAT_TREE" &&
        topology != "DRAGONFLY") {
      return Err(n, absl::StrCat("unknown topology '", topology,
                                 "' (FLAT, FAT_TREE, DRAGONFLY)"));
    }
    const std::string router =
        HasAttr(n, "router_id") && !Attr(n, "router_id").empty()
            ? Attr(n, "router_id")
            : absl::StrCat(prefix, id, "_router", suffix);
    if (!gateway.empty() && gateway != router) {
      return Err(n, absl::StrCat("reached through '", gateway,
                                 "', which is not its router '", router, "'"));
    }
    int64_t cores = 1;
    if (HasAttr(n, "core")) {
      ASSIGN_OR_RETURN(cores,
                       Count(n, Attr(n, "core"), "attribute core", kMaxCores));
    }
    ASSIGN_OR_RETURN(const std::vector<int64_t> radicals, Radicals(n));
    Link host_link;
    ASSIGN_OR_RETURN(host_link.bandwidth, Bandwidth(n, "bw"));
    ASSIGN_OR_RETURN(host_link.latency, Latency(n, "lat"));
    if (HasAttr(n, "limiter_link") && !Attr(n, "limiter_link").empty()) {
      ASSIGN_OR_RETURN(const double limiter, Bandwidth(n, "limiter_link"));
      host_link.bandwidth = std::min(host_link.bandwidth, limiter);
    }
    // Without a loopback, a host's own traffic goes up and down its link.
    Link loopback{host_link.bandwidth, 2 * host_link.latency};
    if ((HasAttr(n, "loopback_bw") && !Attr(n, "loopback_bw").empty()) ||
        (HasAttr(n, "loopback_lat") && !Attr(n, "loopback_lat").empty())) {
      ASSIGN_OR_RETURN(loopback.bandwidth, Bandwidth(n, "loopback_bw"));
      ASSIGN_OR_RETURN(loopback.latency, Latency(n, "loopback_lat", false));
    }
    RETURN_IF_ERROR(
        CountLeaves(n, static_cast<int64_t>(radicals.size()) * cores));
    std::vector<PNode> hosts;
    hosts.reserve(radicals.size());
    for (int64_t r : radicals) {
      PNode h;
      h.kind = "host";
      h.host = absl::StrCat(prefix, r, suffix);
      RETURN_IF_ERROR(AddHostId(n, h.host));
      h.cores = cores;
      h.uplink = host_link;
      h.loopback = loopback;
      hosts.push_back(std::move(h));
    }
    PNode cluster;
    cluster.kind = "cluster";
    if (topology == "FLAT") {
      if (HasAttr(n, "bb_bw") && !Attr(n, "bb_bw").empty()) {
        ASSIGN_OR_RETURN(const double bb_bw, Bandwidth(n, "bb_bw"));
        ASSIGN_OR_RETURN(const double bb_lat, Latency(n, "bb_lat", false));
        for (PNode& h : hosts) {
          h.uplink.bandwidth = std::min(h.uplink.bandwidth, bb_bw);
          h.uplink.latency += bb_lat / 2;
        }
      }
      cluster.children = std::move(hosts);
      return cluster;
    }
    ASSIGN_OR_RETURN(const auto params, TopoParameters(n));
    // Levels top-down: (kind, children per node, link of the children).
    std::vector<std::tuple<std::string, int64_t, Link>> levels;
    if (topology == "FAT_TREE") {
      if (params.size() != 4 || params[0].size() != 1 ||
          params[1].size() != static_cast<size_t>(params[0][0]) ||
          params[2].size() != params[1].size() ||
          params[3].size() != params[1].size()) {
        return Err(n, absl::StrCat("attribute topo_parameters '",
                                   Attr(n, "topo_parameters"),
                                   "': a fat tree is "
                                   "'L;m1,...,mL;w1,...,wL;p1,...,pL'"));
      }
      const auto& m = params[1];
      for (size_t i = m.size(); i-- > 0;)
        levels.emplace_back(i == 0 ? "host" : "switch", m[i], host_link);
    } else {
      if (params.size() != 4 || params[0].size() != 2 ||
          params[1].size() != 2 || params[2].size() != 2 ||
          params[3].size() != 1) {
        return Err(n, absl::StrCat("attribute topo_parameters '",
                                   Attr(n, "topo_parameters"),
                                   "': a dragonfly is "
                                   "'groups,blue;chassis,black;routers,green;"
                                   "nodes'"));
      }
      auto cable = [&](int64_t count) {
        return Link{host_link.bandwidth * static_cast<double>(count),
                    host_link.latency};
      };
      levels.emplace_back("group", params[0][0], cable(params[0][1]));
      levels.emplace_back("chassis", params[1][0], cable(params[1][1]));
      levels.emplace_back("router", params[2][0], cable(params[2][1]));
      levels.emplace_back("host", params[3][0], host_link);
    }
    int64_t expected = 1;
    for (const auto& level : levels) {
      expected *= std::get<1>(level);
      if (expected > max_leaves_) break;
    }
    if (expected != static_cast<int64_t>(hosts.size())) {
      return Err(n,
                 absl::StrCat("topology ", topology, " '",
                              Attr(n, "topo_parameters"), "' has ", expected,
                              " nodes but the radical gives ", hosts.size()));
    }
    // Fill bottom-up: groups of consecutive hosts under one switch.
    std::vector<PNode> layer = std::move(hosts);
    for (size_t li = levels.size(); li-- > 0;) {
      const auto& [kind, arity, link] = levels[li];
      for (PNode& x : layer) x.uplink = link;
      if (li == 0) break;
      std::vector<PNode> above(layer.size() / arity);
      for (size_t i = 0; i < above.size(); ++i) {
        above[i].kind = std::get<0>(levels[li - 1]);
        for (int64_t k = 0; k < arity; ++k)
          above[i].children.push_back(std::move(layer[i * arity + k]));
      }
      layer = std::move(above);
    }
    for (PNode& x : layer) x.kind = x.host.empty() ? x.kind : "host";
    cluster.children = std::move(layer);
    return cluster;
  }

  // ------------------------------------------------------ zones of zones --

  absl::StatusOr<PNode> ZoneOfZones(const xmlNode* n,
                                    const std::string& gateway, int depth) {
    std::vector<xmlNode*> subs;
    std::map<std::string, int32_t> index;
    std::vector<xmlNode*> routes;
    for (xmlNode* c : Elements(n)) {
      const std::string name = Name(c);
      if (IsZone(name) || name == "cluster") {
        ASSIGN_OR_RETURN(const std::string id, Required(c, "id"));
        if (!index.emplace(id, static_cast<int32_t>(subs.size())).second)
          return Err(c, absl::StrCat("a second zone named '", id, "'"));
        subs.push_back(c);
      } else if (name == "zoneRoute" || name == "ASroute") {
        routes.push_back(c);
      } else if (name != "link" && name != "backbone" && !Ignored(name)) {
        return Unsupported(c);
      }
    }
    const int32_t k = static_cast<int32_t>(subs.size());
    if (k == 1 && routes.empty()) return Element(subs[0], gateway, depth + 1);
    if (k > kMaxPairwise) {
      return Err(n, absl::StrCat("more than ", kMaxPairwise,
                                 " zones joined pairwise"));
    }
    if (!gateway.empty()) {
      return Err(
          n, absl::StrCat("reached through '", gateway,
                          "' but it joins several zones: rankmap reads zones "
                          "of zones only at the top of the platform"));
    }
    std::vector<std::string> gw(k);
    std::vector<Link> pair(static_cast<size_t>(k) * k);
    std::vector<bool> seen(static_cast<size_t>(k) * k, false);
    for (xmlNode* r : routes) {
      ASSIGN_OR_RETURN(const std::string src, Required(r, "src"));
      ASSIGN_OR_RETURN(const std::string dst, Required(r, "dst"));
      ASSIGN_OR_RETURN(const std::string gw_src, Required(r, "gw_src"));
      ASSIGN_OR_RETURN(const std::string gw_dst, Required(r, "gw_dst"));
      auto a = index.find(src), b = index.find(dst);
      if (a == index.end() || b == index.end()) {
        return Err(r, absl::StrCat("'", a == index.end() ? src : dst,
                                   "' is not a zone of '", Attr(n, "id"), "'"));
      }
      if (a->second == b->second) return Err(r, "a zone route to itself");
      for (auto [z, g] :
           {std::pair{a->second, gw_src}, std::pair{b->second, gw_dst}}) {
        if (gw[z].empty()) {
          gw[z] = g;
        } else if (gw[z] != g) {
          return Err(r,
                     absl::StrCat("zone '", Attr(subs[z], "id"),
                                  "' is reached through '", gw[z], "' and '", g,
                                  "'; rankmap needs one gateway per zone"));
        }
      }
      const size_t ab = static_cast<size_t>(a->second) * k + b->second;
      const size_t ba = static_cast<size_t>(b->second) * k + a->second;
      if (seen[ab]) {
        // The reverse of a route declared symmetrical="NO" is fine.
        continue;
      }
      ASSIGN_OR_RETURN(const Route route, RouteOf(r));
      pair[ab] = pair[ba] = Link{route.bandwidth, route.latency};
      seen[ab] = seen[ba] = true;
    }
    for (int32_t i = 0; i < k; ++i) {
      for (int32_t j = i + 1; j < k; ++j) {
        if (!seen[static_cast<size_t>(i) * k + j]) {
          return Err(n,
                     absl::StrCat("no zoneRoute between '", Attr(subs[i], "id"),
                                  "' and '", Attr(subs[j], "id"),
                                  "' (rankmap needs one per pair)"));
        }
      }
    }
    PNode zone;
    zone.kind = "zone";
    for (int32_t i = 0; i < k; ++i) {
      ASSIGN_OR_RETURN(PNode child, Element(subs[i], gw[i], depth + 1));
      zone.children.push_back(std::move(child));
    }
    zone.pair_links = std::move(pair);
    return zone;
  }

  // ------------------------------------------------------ zones of hosts --

  absl::StatusOr<PNode> ZoneOfHosts(const xmlNode* n,
                                    const std::string& gateway) {
    const std::string routing = Attr(n, "routing");
    struct Vertex {
      std::string id;
      bool host = false;
      int64_t cores = 0;
      Link loopback = kDefaultLoopback;
      const xmlNode* element = nullptr;
    };
    struct Edge {
      int32_t src, dst;
      Link link;
      const xmlNode* element;
    };
    std::vector<Vertex> vertex;
    std::map<std::string, int32_t> index;
    std::vector<xmlNode*> routes;
    for (xmlNode* c : Elements(n)) {
      const std::string name = Name(c);
      if (name == "host" || name == "router") {
        Vertex v;
        ASSIGN_OR_RETURN(v.id, Required(c, "id"));
        v.host = name == "host";
        v.element = c;
        if (v.host) {
          RETURN_IF_ERROR(Required(c, "speed").status());
          v.cores = 1;
          if (HasAttr(c, "core")) {
            ASSIGN_OR_RETURN(v.cores, Count(c, Attr(c, "core"),
                                            "attribute core", kMaxCores));
          }
          RETURN_IF_ERROR(AddHostId(c, v.id));
          RETURN_IF_ERROR(CountLeaves(c, v.cores));
        }
        if (!index.emplace(v.id, static_cast<int32_t>(vertex.size())).second)
          return Err(
              c, absl::StrCat("a second host or router named '", v.id, "'"));
        vertex.push_back(std::move(v));
      } else if (name == "route") {
        routes.push_back(c);
      } else if (name != "link" && name != "backbone" && !Ignored(name)) {
        return Unsupported(c);
      }
    }
    int32_t num_hosts = 0;
    for (const Vertex& v : vertex) num_hosts += v.host;
    if (num_hosts == 0) return Err(n, "no hosts");
    std::vector<Edge> edges;
    std::map<std::pair<int32_t, int32_t>, size_t> edge_of;
    for (xmlNode* r : routes) {
      ASSIGN_OR_RETURN(const std::string src, Required(r, "src"));
      ASSIGN_OR_RETURN(const std::string dst, Required(r, "dst"));
      auto a = index.find(src), b = index.find(dst);
      if (a == index.end() || b == index.end()) {
        return Err(r, absl::StrCat("'", a == index.end() ? src : dst,
                                   "' is not a host or router of zone '",
                                   Attr(n, "id"), "'"));
      }
      ASSIGN_OR_RETURN(const Route route, RouteOf(r));
      const Link link{route.bandwidth, route.latency};
      if (a->second == b->second) {
        if (!vertex[a->second].host) continue;
        vertex[a->second].loopback = link;
        continue;
      }
      const auto key = std::minmax(a->second, b->second);
      if (edge_of.count(key)) {
        const Edge& e = edges[edge_of[key]];
        if (e.src == b->second && e.dst == a->second &&
            Attr(r, "symmetrical") != "YES" && Attr(r, "symmetrical") != "yes")
          continue;  // the reverse of an asymmetric route
        return Err(r, absl::StrCat("a second route between '", src, "' and '",
                                   dst, "'"));
      }
      edge_of[key] = edges.size();
      edges.push_back({a->second, b->second, link, r});
    }
    const int32_t nv = static_cast<int32_t>(vertex.size());
    const bool has_router = nv > num_hosts;
    // A Full zone whose routes join every pair of hosts directly.
    if (!has_router && num_hosts > 1 && num_hosts <= kMaxPairwise &&
        static_cast<int64_t>(edges.size()) ==
            static_cast<int64_t>(num_hosts) * (num_hosts - 1) / 2) {
      PNode sw;
      sw.kind = "zone";
      sw.pair_links.assign(static_cast<size_t>(nv) * nv, Link{});
      for (const Vertex& v : vertex)
        sw.children.push_back(HostNode(v.id, v.cores, v.loopback));
      for (const Edge& e : edges) {
        sw.pair_links[static_cast<size_t>(e.src) * nv + e.dst] = e.link;
        sw.pair_links[static_cast<size_t>(e.dst) * nv + e.src] = e.link;
      }
      if (!gateway.empty()) {
        return Err(n, absl::StrCat("reached through '", gateway,
                                   "' but its hosts are joined pairwise"));
      }
      return sw;
    }
    // Otherwise the routes must form a tree.
    std::vector<std::vector<std::pair<int32_t, Link>>> adj(nv);
    for (const Edge& e : edges) {
      adj[e.src].push_back({e.dst, e.link});
      adj[e.dst].push_back({e.src, e.link});
    }
    if (static_cast<int32_t>(edges.size()) != nv - 1) {
      return Err(
          n, absl::StrCat("its routes do not form a tree (", nv,
                          " hosts and routers, ", edges.size(),
                          " routes between them; a tree has one route fewer "
                          "than nodes)"));
    }
    int32_t root = -1;
    if (!gateway.empty()) {
      auto it = index.find(gateway);
      if (it == index.end()) {
        return Err(n, absl::StrCat("its gateway '", gateway,
                                   "' is not one of its hosts or routers"));
      }
      root = it->second;
    } else {
      // Routes written child -> parent: the root is never a source.
      std::vector<int32_t> as_src(nv, 0);
      for (const Edge& e : edges) ++as_src[e.src];
      int32_t roots = 0;
      bool oriented = true;
      for (int32_t v = 0; v < nv; ++v) {
        if (as_src[v] == 0) {
          root = v;
          ++roots;
        }
        oriented &= as_src[v] <= 1;
      }
      if (!oriented || roots != 1) root = Centre(adj);
    }
    // Root the tree (BFS), check it is connected.
    std::vector<int32_t> parent(nv, -2), order = {root};
    std::vector<Link> up(nv);
    parent[root] = -1;
    for (size_t i = 0; i < order.size(); ++i) {
      for (const auto& [w, link] : adj[order[i]]) {
        if (parent[w] != -2) continue;
        parent[w] = order[i];
        up[w] = link;
        order.push_back(w);
      }
    }
    if (static_cast<int32_t>(order.size()) != nv) {
      for (int32_t v = 0; v < nv; ++v) {
        if (parent[v] == -2) {
          return Err(vertex[v].element,
                     absl::StrCat("no route joins it to '", vertex[root].id,
                                  "': the routes do not form a tree"));
        }
      }
    }
    // Depth, and which subtrees hold hosts (children after parents in BFS).
    std::vector<int32_t> depth(nv, 0);
    for (int32_t v : order) {
      if (parent[v] >= 0) depth[v] = depth[parent[v]] + 1;
      if (depth[v] > kMaxTreeDepth) {
        return Err(vertex[v].element,
                   absl::StrCat("more than ", kMaxTreeDepth, " routers deep"));
      }
    }
    std::vector<bool> has_host(nv, false);
    for (size_t i = order.size(); i-- > 0;) {
      const int32_t v = order[i];
      has_host[v] = has_host[v] || vertex[v].host;
      if (parent[v] >= 0 && has_host[v]) has_host[parent[v]] = true;
    }
    std::vector<std::vector<int32_t>> kids(nv);
    for (int32_t v : order) {
      if (parent[v] >= 0 && has_host[v]) kids[parent[v]].push_back(v);
    }
    for (int32_t v = 0; v < nv; ++v) {
      if (vertex[v].host && !kids[v].empty()) {
        return Err(vertex[v].element,
                   absl::StrCat("routes lead through this host to '",
                                vertex[kids[v][0]].id,
                                "'; rankmap needs hosts at the leaves of the "
                                "route tree"));
      }
    }
    // A gateway router above a single child: the child is the top, and the
    // gateway's link its uplink (the form WriteSimGridPlatform writes).
    int32_t top = root;
    Link top_uplink;
    if (!gateway.empty() && !vertex[root].host && kids[root].size() == 1) {
      top = kids[root][0];
      top_uplink = up[top];
    }
    // Build bottom-up in reverse BFS order.
    std::vector<PNode> built(nv);
    for (size_t i = order.size(); i-- > 0;) {
      const int32_t v = order[i];
      if (!has_host[v]) continue;
      PNode& p = built[v];
      if (vertex[v].host) {
        p = HostNode(vertex[v].id, vertex[v].cores, vertex[v].loopback);
      } else {
        p.kind = "switch";
        for (int32_t c : kids[v]) p.children.push_back(std::move(built[c]));
      }
      p.uplink = v == top ? top_uplink : up[v];
      if (v == top) break;
    }
    return std::move(built[top]);
  }

  static PNode HostNode(const std::string& id, int64_t cores,
                        const Link& loopback) {
    PNode h;
    h.kind = "host";
    h.host = id;
    h.cores = cores;
    h.loopback = loopback;
    return h;
  }

  // The centre of a tree (the node whose farthest node is nearest); of two,
  // the one added first.
  static int32_t Centre(
      const std::vector<std::vector<std::pair<int32_t, Link>>>& adj) {
    const int32_t n = static_cast<int32_t>(adj.size());
    std::vector<int32_t> degree(n), layer;
    for (int32_t v = 0; v < n; ++v) {
      degree[v] = static_cast<int32_t>(adj[v].size());
      if (degree[v] <= 1) layer.push_back(v);
    }
    int32_t left = n;
    while (left > 2) {
      left -= static_cast<int32_t>(layer.size());
      std::vector<int32_t> next;
      for (int32_t v : layer) {
        for (const auto& [w, link] : adj[v]) {
          if (--degree[w] == 1) next.push_back(w);
        }
      }
      layer = std::move(next);
    }
    return *std::min_element(layer.begin(), layer.end());
  }

  // -------------------------------------------------------------- output --

  absl::StatusOr<Tree> Build(const PNode& top) const {
    TreeBuilder b;
    struct Item {
      const PNode* p;
      NodeId parent;
    };
    std::vector<Item> stack = {{&top, -1}};
    while (!stack.empty()) {
      const Item it = stack.back();
      stack.pop_back();
      const PNode& p = *it.p;
      const NodeId v =
          it.parent < 0 ? b.AddRoot(p.kind) : b.AddChild(it.parent, p.kind);
      if (p.uplink.given()) b.SetUplink(v, p.uplink);
      if (p.kind == "host" && !p.host.empty()) {
        b.SetLoopback(v, p.loopback);
        for (int64_t c = 0; c < p.cores; ++c)
          b.SetHost(b.AddChild(v, "core"), p.host);
        continue;
      }
      if (!p.pair_links.empty()) b.SetPairLinks(v, p.pair_links);
      for (size_t k = p.children.size(); k-- > 0;)
        stack.push_back({&p.children[k], v});
    }
    absl::StatusOr<Tree> t = std::move(b).Build();
    if (!t.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source_, ": ", std::string(t.status().message())));
    }
    return t;
  }

  std::string source_;
  int64_t max_leaves_;
  int64_t leaves_ = 0;
  std::map<std::string, Link> links_;
  std::set<std::string> host_ids_;
};

}  // namespace

absl::StatusOr<std::string> WriteSimGridPlatform(
    const Tree& tree, const PlatformWriteOptions& options) {
  return PlatformWriter(tree, options).Write();
}

bool LooksLikeSimGridPlatform(std::string_view text) {
  text = text.substr(0, std::min<size_t>(text.size(), 4096));
  size_t i = 0;
  while (i < text.size()) {
    const size_t lt = text.find('<', i);
    if (lt == std::string_view::npos || lt + 1 >= text.size()) return false;
    const char next = text[lt + 1];
    if (next == '?' || next == '!') {
      // Declaration, comment or DOCTYPE: skip to its end.
      const std::string_view end = text.substr(lt, 4) == "<!--" ? "-->" : ">";
      const size_t close = text.find(end, lt + 2);
      if (close == std::string_view::npos) return false;
      i = close + end.size();
      continue;
    }
    const std::string_view name = text.substr(lt + 1, 8);
    return name == "platform" &&
           (lt + 9 >= text.size() || text[lt + 9] == '>' ||
            std::isspace(static_cast<unsigned char>(text[lt + 9])));
  }
  return false;
}

absl::StatusOr<Tree> ParseSimGridPlatform(std::string_view xml,
                                          std::string_view source,
                                          int64_t max_leaves) {
  return PlatformReader(std::string(source), max_leaves).Read(xml);
}

absl::StatusOr<Tree> ReadSimGridPlatformFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "SimGrid platform"));
  return ParseSimGridPlatform(text, path);
}

}  // namespace rankmap::topology
