#include "topology/simgrid_read.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/host_name.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "topology/link.h"
#include "topology/shown.h"
#include "topology/tree_size.h"

namespace rankmap::topology {
namespace {

// SimGrid's network/loopback-bw and network/loopback-lat defaults: what a host
// of a routed zone uses for its own traffic when no route says otherwise.
constexpr Link kDefaultLoopback{10e9, 0.0};
constexpr int kMaxNesting = 64;
constexpr int32_t kMaxTreeDepth = 256;
constexpr int64_t kMaxCores = int64_t{1} << 20;
// Children joined pairwise (zones of zones, Full zones of hosts) need a k x k
// matrix: bounded so a hostile file cannot exhaust memory.
constexpr int32_t kMaxPairwise = 2048;

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

PNode HostNode(const std::string& id, int64_t cores, const Link& loopback) {
  PNode h;
  h.kind = "host";
  h.host = id;
  h.cores = cores;
  h.loopback = loopback;
  return h;
}

// A cluster's radical: ranges [a, b] of host numbers.
struct Radicals {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int64_t count = 0;  // hosts
  size_t digits = 1;  // of the largest number
};

// One level of a FAT_TREE or DRAGONFLY cluster, top-down.
struct Level {
  std::string kind;
  int64_t arity;  // children per node of the level above
  Link link;      // the uplink of the level's nodes
};

// A zone's hosts and routers (vertices) and the routes between them (edges).
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

struct RouteGraph {
  std::vector<Vertex> vertex;
  std::map<std::string, int32_t> index;  // by id
  std::vector<Edge> edges;
  int32_t num_hosts = 0;
};

using Adjacency = std::vector<std::vector<std::pair<int32_t, Link>>>;

// The route tree rooted: parents (-1 at the root), BFS order from the root,
// each vertex's link to its parent.
struct RootedTree {
  int32_t root = -1;
  std::vector<int32_t> parent, order;
  std::vector<Link> up;
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

// True when the attribute is there and not empty.
bool HasValue(const xmlNode* n, const char* name) {
  return HasAttr(n, name) && !Attr(n, name).empty();
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

using XmlDoc = std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)>;

// The document libxml2 parses from `xml` without network access; errors
// carry libxml2's first message and its line.
absl::StatusOr<XmlDoc> ParseXml(std::string_view xml,
                                const std::string& source) {
  if (xml.size() > static_cast<size_t>(INT_MAX)) {
    return absl::ResourceExhaustedError(
        absl::StrCat(source, ": larger than 2 GiB"));
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
  XmlDoc doc(xmlReadMemory(xml.data(), static_cast<int>(xml.size()),
                           source.c_str(), nullptr, XML_PARSE_NONET),
             xmlFreeDoc);
  xmlSetStructuredErrorFunc(nullptr, nullptr);
  if (doc == nullptr || !errors.message.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        source, ":", std::max(errors.line, 1), ": ",
        errors.message.empty() ? "malformed XML" : OneLine(errors.message)));
  }
  return doc;
}

// The centre of a tree (the node whose farthest node is nearest); of two,
// the one added first.
int32_t Centre(const Adjacency& adj) {
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

// The root of a route tree without a gateway: the one vertex that is never
// the source of a route when routes are written child to parent, else the
// centre.
int32_t UngatedRoot(const RouteGraph& g, const Adjacency& adj) {
  const int32_t nv = static_cast<int32_t>(g.vertex.size());
  std::vector<int32_t> as_src(nv, 0);
  for (const Edge& e : g.edges) ++as_src[e.src];
  int32_t root = -1, roots = 0;
  bool oriented = true;
  for (int32_t v = 0; v < nv; ++v) {
    if (as_src[v] == 0) {
      root = v;
      ++roots;
    }
    oriented &= as_src[v] <= 1;
  }
  return oriented && roots == 1 ? root : Centre(adj);
}

// Folds a route tree bottom-up into PNodes (reverse BFS order), keeping the
// branches that hold hosts; `top` is the node returned, with `top_uplink`.
PNode FoldRouteTree(const RouteGraph& g, const RootedTree& t,
                    const std::vector<std::vector<int32_t>>& kids,
                    const std::vector<bool>& has_host, int32_t top,
                    const Link& top_uplink) {
  std::vector<PNode> built(g.vertex.size());
  for (size_t i = t.order.size(); i-- > 0;) {
    const int32_t v = t.order[i];
    if (!has_host[v]) continue;
    PNode& p = built[v];
    const Vertex& x = g.vertex[v];
    if (x.host) {
      p = HostNode(x.id, x.cores, x.loopback);
    } else {
      p.kind = "switch";
      for (int32_t c : kids[v]) p.children.push_back(std::move(built[c]));
    }
    p.uplink = v == top ? top_uplink : t.up[v];
    if (v == top) break;
  }
  return std::move(built[top]);
}

class PlatformReader {
 public:
  PlatformReader(std::string source, int64_t max_leaves, int64_t budget)
      : source_(std::move(source)), max_leaves_(max_leaves), budget_(budget) {}

  absl::StatusOr<Tree> Read(std::string_view xml) {
    ASSIGN_OR_RETURN(const XmlDoc doc, ParseXml(xml, source_));
    const xmlNode* root = xmlDocGetRootElement(doc.get());
    if (root == nullptr || Name(root) != "platform") {
      return absl::InvalidArgumentError(absl::StrCat(
          source_, ":", root ? xmlGetLineNo(root) : 1,
          ": not a SimGrid platform (the first element is not <platform>)"));
    }
    double version = 0;
    if (!absl::SimpleAtod(Attr(root, "version"), &version) || version < 4) {
      return Err(root, absl::StrCat("version '", Shown(Attr(root, "version")),
                                    "': rankmap reads SimGrid platforms of "
                                    "version 4 and later (simgrid_update_xml "
                                    "upgrades older ones)"));
    }
    RETURN_IF_ERROR(CollectLinks(root, 0));
    ASSIGN_OR_RETURN(const xmlNode* top_element, TopElement(root));
    ASSIGN_OR_RETURN(PNode top, Element(top_element, "", 1));
    return Build(top);
  }

 private:
  // ------------------------------------------------------------ messages --

  absl::Status Err(const xmlNode* n, std::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(n), ": ", OneLine(message)));
  }

  // "p.xml:12: <cluster id='c'>" for messages about element n.
  std::string Where(const xmlNode* n) const {
    std::string what = absl::StrCat("<", Name(n));
    if (HasAttr(n, "id"))
      absl::StrAppend(&what, " id='", Shown(Attr(n, "id")), "'");
    what += ">";
    return absl::StrCat(source_, ":", xmlGetLineNo(n), ": ", what);
  }

  absl::Status Unsupported(const xmlNode* n) const {
    return Err(n,
               "element not read by rankmap (it reads clusters, zones, "
               "hosts, routers, links and routes)");
  }

  // ---------------------------------------------------------- attributes --

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
                                 "], found '", Shown(text), "'"));
    }
    return v;
  }

  // `core` of a host or cluster, 1 when absent.
  absl::StatusOr<int64_t> Cores(const xmlNode* n) const {
    if (!HasAttr(n, "core")) return 1;
    return Count(n, Attr(n, "core"), "attribute core", kMaxCores);
  }

  // --------------------------------------------------------------- links --

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
          return Err(c, absl::StrCat("a second link named '", Shown(id), "'"));
      } else {
        RETURN_IF_ERROR(CollectLinks(c, depth + 1));
      }
    }
    return absl::OkStatus();
  }

  // The link a <link_ctn> names (a split-duplex link may be named with _UP or
  // _DOWN).
  absl::StatusOr<Link> LinkOf(const xmlNode* ctn) const {
    ASSIGN_OR_RETURN(std::string id, Required(ctn, "id"));
    auto it = links_.find(id);
    for (const char* suffix : {"_UP", "_DOWN"}) {
      const std::string s(suffix);
      if (it == links_.end() && id.size() > s.size() &&
          id.compare(id.size() - s.size(), s.size(), s) == 0) {
        it = links_.find(id.substr(0, id.size() - s.size()));
      }
    }
    if (it == links_.end())
      return Err(ctn, absl::StrCat("link '", Shown(id), "' is not defined"));
    return it->second;
  }

  // The links of a <route> or <zoneRoute>, folded.
  absl::StatusOr<Route> RouteOf(const xmlNode* route) const {
    Route r;
    int links = 0;
    for (xmlNode* c : Elements(route)) {
      if (Name(c) != "link_ctn") return Unsupported(c);
      ASSIGN_OR_RETURN(const Link link, LinkOf(c));
      r.Add(link);
      ++links;
    }
    if (links == 0) return Err(route, "a route without links");
    return r;
  }

  // ---------------------------------------------------------- structure --

  // Counts `hosts` hosts of `cores` cores each and `switches` nodes above
  // them, named with `name_length` characters, into the tree to be built:
  // refused above max_leaves cores or the memory budget, before any of it
  // is built.
  absl::Status CountTree(const xmlNode* n, int64_t hosts, int64_t cores,
                         int64_t name_length, int64_t switches = 0) {
    const int64_t leaves = base::SaturatingMulAdd(hosts, cores);
    leaves_ = base::SaturatingMulAdd(1, leaves_, leaves);
    if (leaves_ > max_leaves_) {
      return Err(
          n, absl::StrCat("more than ", max_leaves_, " cores in the platform"));
    }
    const int64_t nodes = base::SaturatingMulAdd(hosts, cores + 1, switches);
    nodes_ = base::SaturatingMulAdd(1, nodes_, nodes);
    name_bytes_ = base::SaturatingMulAdd(
        1, name_bytes_, HostNameBytes(nodes - switches, name_length));
    return CheckTreeSize(absl::StrCat(Where(n), ": platform"), nodes_, leaves_,
                         budget_, name_bytes_);
  }

  // A host id: a host name (base/host_name.h), once in the platform.
  absl::Status AddHostId(const xmlNode* n, const std::string& id) {
    if (absl::Status st = base::CheckHostName(id); !st.ok())
      return Err(n, std::string(st.message()));
    if (!host_ids_.insert(id).second)
      return Err(n, absl::StrCat("a second host named '", id, "'"));
    return absl::OkStatus();
  }

  // The one zone or cluster under <platform>.
  absl::StatusOr<const xmlNode*> TopElement(const xmlNode* root) const {
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
    return tops[0];
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

  // The ranges of `radical` ("0-99,200"), counted without expanding them:
  // "0-9223372036854775807" is one range of too many hosts, not a loop.
  absl::StatusOr<Radicals> ParseRadicals(const xmlNode* n) const {
    ASSIGN_OR_RETURN(const std::string text, Required(n, "radical"));
    Radicals out;
    for (absl::string_view piece : absl::StrSplit(text, ',')) {
      const std::string p(piece);
      const size_t dash = p.find('-', 1);
      int64_t a = 0, b = 0;
      const bool ok = dash == std::string::npos
                          ? absl::SimpleAtoi(p, &a) && (b = a, true)
                          : absl::SimpleAtoi(p.substr(0, dash), &a) &&
                                absl::SimpleAtoi(p.substr(dash + 1), &b);
      if (!ok || a < 0 || b < a) {
        return Err(n, absl::StrCat("attribute radical: bad range '", Shown(p),
                                   "' (expected a, a-b or a list of them)"));
      }
      // b - a cannot overflow (0 <= a <= b); b - a + 1 can.
      if (static_cast<uint64_t>(b - a) >=
          static_cast<uint64_t>(max_leaves_ - out.count)) {
        return Err(n, absl::StrCat("attribute radical: more than ", max_leaves_,
                                   " hosts"));
      }
      out.count += b - a + 1;
      out.ranges.emplace_back(a, b);
      out.digits = std::max(out.digits, absl::StrCat(b).size());
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
          return Err(n, absl::StrCat("attribute topo_parameters '", Shown(text),
                                     "': '", Shown(std::string(v)),
                                     "' is not a positive integer"));
        }
        out.back().push_back(x);
      }
    }
    return out;
  }

  // FLAT, FAT_TREE or DRAGONFLY (TORUS and others refused).
  absl::StatusOr<std::string> ClusterTopology(const xmlNode* n) const {
    const std::string topology =
        HasAttr(n, "topology") ? Attr(n, "topology") : "FLAT";
    if (topology == "TORUS") {
      return Err(n,
                 "topology TORUS: a torus is not a tree; rankmap reads "
                 "FLAT, FAT_TREE and DRAGONFLY clusters");
    }
    if (topology != "FLAT" && topology != "FAT_TREE" &&
        topology != "DRAGONFLY") {
      return Err(n, absl::StrCat("unknown topology '", Shown(topology),
                                 "' (FLAT, FAT_TREE, DRAGONFLY)"));
    }
    return topology;
  }

  // A cluster host's link (bw/lat bounded by limiter_link) and loopback.
  absl::StatusOr<std::pair<Link, Link>> ClusterHostLinks(
      const xmlNode* n) const {
    Link host_link;
    ASSIGN_OR_RETURN(host_link.bandwidth, Bandwidth(n, "bw"));
    ASSIGN_OR_RETURN(host_link.latency, Latency(n, "lat"));
    if (HasValue(n, "limiter_link")) {
      ASSIGN_OR_RETURN(const double limiter, Bandwidth(n, "limiter_link"));
      host_link.bandwidth = std::min(host_link.bandwidth, limiter);
    }
    // Without a loopback, a host's own traffic goes up and down its link.
    Link loopback{host_link.bandwidth, 2 * host_link.latency};
    if (HasValue(n, "loopback_bw") || HasValue(n, "loopback_lat")) {
      ASSIGN_OR_RETURN(loopback.bandwidth, Bandwidth(n, "loopback_bw"));
      ASSIGN_OR_RETURN(loopback.latency, Latency(n, "loopback_lat", false));
    }
    return std::pair(host_link, loopback);
  }

  // prefix + radical + suffix for every radical, `cores` slots each; counted
  // (cores, nodes and name lengths) before any is made.
  absl::StatusOr<std::vector<PNode>> ClusterHosts(
      const xmlNode* n, const Radicals& radicals, int64_t cores,
      const std::pair<Link, Link>& links) {
    ASSIGN_OR_RETURN(const std::string prefix, Required(n, "prefix"));
    ASSIGN_OR_RETURN(const std::string suffix, Required(n, "suffix"));
    const int64_t name_length =
        static_cast<int64_t>(prefix.size() + radicals.digits + suffix.size());
    if (name_length > static_cast<int64_t>(base::kMaxHostNameLength)) {
      return Err(n, absl::StrCat("host names prefix + radical + suffix of up "
                                 "to ",
                                 name_length,
                                 " characters: a host name has "
                                 "at most ",
                                 base::kMaxHostNameLength));
    }
    RETURN_IF_ERROR(CountTree(n, radicals.count, cores, name_length));
    std::vector<PNode> hosts;
    hosts.reserve(radicals.count);
    for (const auto& [a, b] : radicals.ranges) {
      for (int64_t r = a;; ++r) {
        PNode h =
            HostNode(absl::StrCat(prefix, r, suffix), cores, links.second);
        RETURN_IF_ERROR(AddHostId(n, h.host));
        h.uplink = links.first;
        hosts.push_back(std::move(h));
        if (r == b) break;
      }
    }
    return hosts;
  }

  // A FLAT cluster's backbone folded into its host links.
  absl::Status FoldBackbone(const xmlNode* n, std::vector<PNode>& hosts) const {
    if (!HasValue(n, "bb_bw")) return absl::OkStatus();
    ASSIGN_OR_RETURN(const double bb_bw, Bandwidth(n, "bb_bw"));
    ASSIGN_OR_RETURN(const double bb_lat, Latency(n, "bb_lat", false));
    for (PNode& h : hosts) {
      h.uplink.bandwidth = std::min(h.uplink.bandwidth, bb_bw);
      h.uplink.latency += bb_lat / 2;
    }
    return absl::OkStatus();
  }

  // The levels of a FAT_TREE or DRAGONFLY cluster from its topo_parameters.
  absl::StatusOr<std::vector<Level>> ClusterLevels(
      const xmlNode* n, const std::string& topology,
      const Link& host_link) const {
    ASSIGN_OR_RETURN(const auto params, TopoParameters(n));
    std::vector<Level> levels;
    if (topology == "FAT_TREE") {
      if (params[0][0] > kMaxTreeDepth) {
        return Err(n,
                   absl::StrCat("attribute topo_parameters: a fat tree of ",
                                params[0][0], " levels; rankmap reads at most ",
                                kMaxTreeDepth));
      }
      if (params.size() != 4 || params[0].size() != 1 ||
          params[1].size() != static_cast<size_t>(params[0][0]) ||
          params[2].size() != params[1].size() ||
          params[3].size() != params[1].size()) {
        return Err(n, absl::StrCat("attribute topo_parameters '",
                                   Shown(Attr(n, "topo_parameters")),
                                   "': a fat tree is "
                                   "'L;m1,...,mL;w1,...,wL;p1,...,pL'"));
      }
      const auto& m = params[1];
      for (size_t i = m.size(); i-- > 0;)
        levels.push_back({i == 0 ? "host" : "switch", m[i], host_link});
      return levels;
    }
    if (params.size() != 4 || params[0].size() != 2 || params[1].size() != 2 ||
        params[2].size() != 2 || params[3].size() != 1) {
      return Err(n, absl::StrCat("attribute topo_parameters '",
                                 Shown(Attr(n, "topo_parameters")),
                                 "': a dragonfly is "
                                 "'groups,blue;chassis,black;routers,green;"
                                 "nodes'"));
    }
    auto cable = [&](int64_t count) {
      return Link{host_link.bandwidth * static_cast<double>(count),
                  host_link.latency};
    };
    levels.push_back({"group", params[0][0], cable(params[0][1])});
    levels.push_back({"chassis", params[1][0], cable(params[1][1])});
    levels.push_back({"router", params[2][0], cable(params[2][1])});
    levels.push_back({"host", params[3][0], host_link});
    return levels;
  }

  // The levels filled bottom-up: groups of consecutive hosts under one switch.
  static std::vector<PNode> StackLevels(const std::vector<Level>& levels,
                                        std::vector<PNode> hosts) {
    std::vector<PNode> layer = std::move(hosts);
    for (size_t li = levels.size(); li-- > 0;) {
      const Level& level = levels[li];
      for (PNode& x : layer) x.uplink = level.link;
      if (li == 0) break;
      std::vector<PNode> above(layer.size() / level.arity);
      for (size_t i = 0; i < above.size(); ++i) {
        above[i].kind = levels[li - 1].kind;
        for (int64_t k = 0; k < level.arity; ++k)
          above[i].children.push_back(std::move(layer[i * level.arity + k]));
      }
      layer = std::move(above);
    }
    for (PNode& x : layer) x.kind = x.host.empty() ? x.kind : "host";
    return layer;
  }

  absl::StatusOr<PNode> Cluster(const xmlNode* n, const std::string& gateway) {
    ASSIGN_OR_RETURN(const std::string id, Required(n, "id"));
    RETURN_IF_ERROR(Required(n, "prefix").status());
    RETURN_IF_ERROR(Required(n, "suffix").status());
    RETURN_IF_ERROR(Required(n, "speed").status());
    ASSIGN_OR_RETURN(const std::string topology, ClusterTopology(n));
    const std::string router =
        HasValue(n, "router_id")
            ? Attr(n, "router_id")
            : absl::StrCat(Attr(n, "prefix"), id, "_router", Attr(n, "suffix"));
    if (!gateway.empty() && gateway != router) {
      return Err(
          n, absl::StrCat("reached through '", Shown(gateway),
                          "', which is not its router '", Shown(router), "'"));
    }
    ASSIGN_OR_RETURN(const int64_t cores, Cores(n));
    ASSIGN_OR_RETURN(const Radicals radicals, ParseRadicals(n));
    ASSIGN_OR_RETURN(const auto links, ClusterHostLinks(n));
    ASSIGN_OR_RETURN(std::vector<PNode> hosts,
                     ClusterHosts(n, radicals, cores, links));
    PNode cluster;
    cluster.kind = "cluster";
    if (topology == "FLAT") {
      RETURN_IF_ERROR(FoldBackbone(n, hosts));
      cluster.children = std::move(hosts);
      return cluster;
    }
    ASSIGN_OR_RETURN(const std::vector<Level> levels,
                     ClusterLevels(n, topology, links.first));
    int64_t expected = 1;
    for (const Level& level : levels) {
      expected *= level.arity;
      if (expected > max_leaves_) break;
    }
    if (expected != static_cast<int64_t>(hosts.size())) {
      return Err(
          n, absl::StrCat("topology ", topology, " '",
                          Shown(Attr(n, "topo_parameters")), "' has ", expected,
                          " nodes but the radical gives ", hosts.size()));
    }
    int64_t switches = 0, above = 1;
    for (size_t i = 0; i + 1 < levels.size(); ++i) {
      above *= levels[i].arity;  // <= the hosts, checked above
      switches += above;
    }
    RETURN_IF_ERROR(CountTree(n, 0, 0, 0, switches));
    cluster.children = StackLevels(levels, std::move(hosts));
    return cluster;
  }

  // ------------------------------------------------------ zones of zones --

  // The zones and clusters of a zone of zones, by id, and its zoneRoutes.
  struct ZoneChildren {
    std::vector<xmlNode*> subs;
    std::map<std::string, int32_t> index;
    std::vector<xmlNode*> routes;
  };

  absl::StatusOr<ZoneChildren> ChildrenOfZone(const xmlNode* n) const {
    ZoneChildren z;
    for (xmlNode* c : Elements(n)) {
      const std::string name = Name(c);
      if (IsZone(name) || name == "cluster") {
        ASSIGN_OR_RETURN(const std::string id, Required(c, "id"));
        if (!z.index.emplace(id, static_cast<int32_t>(z.subs.size())).second)
          return Err(c, absl::StrCat("a second zone named '", Shown(id), "'"));
        z.subs.push_back(c);
      } else if (name == "zoneRoute" || name == "ASroute") {
        z.routes.push_back(c);
      } else if (name != "link" && name != "backbone" && !Ignored(name)) {
        return Unsupported(c);
      }
    }
    return z;
  }

  // One zoneRoute: the two zones it joins must agree with the gateways seen
  // so far; its links become the pair's link.
  absl::Status ZoneRoute(const xmlNode* n, const xmlNode* r,
                         const ZoneChildren& z, std::vector<std::string>& gw,
                         std::vector<Link>& pair, std::vector<bool>& seen) {
    const size_t k = z.subs.size();
    ASSIGN_OR_RETURN(const std::string src, Required(r, "src"));
    ASSIGN_OR_RETURN(const std::string dst, Required(r, "dst"));
    ASSIGN_OR_RETURN(const std::string gw_src, Required(r, "gw_src"));
    ASSIGN_OR_RETURN(const std::string gw_dst, Required(r, "gw_dst"));
    auto a = z.index.find(src), b = z.index.find(dst);
    if (a == z.index.end() || b == z.index.end()) {
      return Err(
          r, absl::StrCat("'", Shown(a == z.index.end() ? src : dst),
                          "' is not a zone of '", Shown(Attr(n, "id")), "'"));
    }
    if (a->second == b->second) return Err(r, "a zone route to itself");
    for (auto [zone, g] :
         {std::pair{a->second, gw_src}, std::pair{b->second, gw_dst}}) {
      if (gw[zone].empty()) {
        gw[zone] = g;
      } else if (gw[zone] != g) {
        return Err(r, absl::StrCat("zone '", Shown(Attr(z.subs[zone], "id")),
                                   "' is reached through '", Shown(gw[zone]),
                                   "' and '", Shown(g),
                                   "'; rankmap needs one gateway per zone"));
      }
    }
    const size_t ab = static_cast<size_t>(a->second) * k + b->second;
    const size_t ba = static_cast<size_t>(b->second) * k + a->second;
    // The reverse of a route declared symmetrical="NO" is fine.
    if (seen[ab]) return absl::OkStatus();
    ASSIGN_OR_RETURN(const Route route, RouteOf(r));
    pair[ab] = pair[ba] = Link{route.bandwidth, route.latency};
    seen[ab] = seen[ba] = true;
    return absl::OkStatus();
  }

  absl::StatusOr<PNode> ZoneOfZones(const xmlNode* n,
                                    const std::string& gateway, int depth) {
    ASSIGN_OR_RETURN(const ZoneChildren z, ChildrenOfZone(n));
    const int32_t k = static_cast<int32_t>(z.subs.size());
    if (k == 1 && z.routes.empty())
      return Element(z.subs[0], gateway, depth + 1);
    if (k > kMaxPairwise) {
      return Err(n, absl::StrCat("more than ", kMaxPairwise,
                                 " zones joined pairwise"));
    }
    if (!gateway.empty()) {
      return Err(
          n, absl::StrCat("reached through '", Shown(gateway),
                          "' but it joins several zones: rankmap reads zones "
                          "of zones only at the top of the platform"));
    }
    std::vector<std::string> gw(k);
    std::vector<Link> pair(static_cast<size_t>(k) * k);
    std::vector<bool> seen(static_cast<size_t>(k) * k, false);
    for (xmlNode* r : z.routes)
      RETURN_IF_ERROR(ZoneRoute(n, r, z, gw, pair, seen));
    for (int32_t i = 0; i < k; ++i) {
      for (int32_t j = i + 1; j < k; ++j) {
        if (!seen[static_cast<size_t>(i) * k + j]) {
          return Err(n, absl::StrCat("no zoneRoute between '",
                                     Shown(Attr(z.subs[i], "id")), "' and '",
                                     Shown(Attr(z.subs[j], "id")),
                                     "' (rankmap needs one per pair)"));
        }
      }
    }
    PNode zone;
    zone.kind = "zone";
    for (int32_t i = 0; i < k; ++i) {
      ASSIGN_OR_RETURN(PNode child, Element(z.subs[i], gw[i], depth + 1));
      zone.children.push_back(std::move(child));
    }
    zone.pair_links = std::move(pair);
    return zone;
  }

  // ------------------------------------------------------ zones of hosts --

  // A <host> or <router> of a zone.
  absl::StatusOr<Vertex> VertexOf(const xmlNode* c) {
    Vertex v;
    ASSIGN_OR_RETURN(v.id, Required(c, "id"));
    v.host = Name(c) == "host";
    v.element = c;
    if (v.host) {
      RETURN_IF_ERROR(Required(c, "speed").status());
      ASSIGN_OR_RETURN(v.cores, Cores(c));
      RETURN_IF_ERROR(AddHostId(c, v.id));
      RETURN_IF_ERROR(CountTree(c, 1, v.cores, v.id.size()));
    } else {
      RETURN_IF_ERROR(CountTree(c, 0, 0, 0, 1));
    }
    return v;
  }

  // The zone's hosts and routers into g; its <route>s returned.
  absl::StatusOr<std::vector<xmlNode*>> Vertices(const xmlNode* n,
                                                 RouteGraph& g) {
    std::vector<xmlNode*> routes;
    for (xmlNode* c : Elements(n)) {
      const std::string name = Name(c);
      if (name == "host" || name == "router") {
        ASSIGN_OR_RETURN(Vertex v, VertexOf(c));
        if (!g.index.emplace(v.id, static_cast<int32_t>(g.vertex.size()))
                 .second)
          return Err(c, absl::StrCat("a second host or router named '",
                                     Shown(v.id), "'"));
        g.num_hosts += v.host;
        g.vertex.push_back(std::move(v));
      } else if (name == "route") {
        routes.push_back(c);
      } else if (name != "link" && name != "backbone" && !Ignored(name)) {
        return Unsupported(c);
      }
    }
    if (g.num_hosts == 0) return Err(n, "no hosts");
    return routes;
  }

  // The routes as edges (one per pair; the reverse of an asymmetric route is
  // skipped) and loopbacks (a host's route to itself).
  absl::Status Edges(const xmlNode* n, const std::vector<xmlNode*>& routes,
                     RouteGraph& g) const {
    std::map<std::pair<int32_t, int32_t>, size_t> edge_of;
    for (xmlNode* r : routes) {
      ASSIGN_OR_RETURN(const std::string src, Required(r, "src"));
      ASSIGN_OR_RETURN(const std::string dst, Required(r, "dst"));
      auto a = g.index.find(src), b = g.index.find(dst);
      if (a == g.index.end() || b == g.index.end()) {
        return Err(r, absl::StrCat("'", Shown(a == g.index.end() ? src : dst),
                                   "' is not a host or router of zone '",
                                   Shown(Attr(n, "id")), "'"));
      }
      ASSIGN_OR_RETURN(const Route route, RouteOf(r));
      const Link link{route.bandwidth, route.latency};
      if (a->second == b->second) {
        if (g.vertex[a->second].host) g.vertex[a->second].loopback = link;
        continue;
      }
      const auto key = std::minmax(a->second, b->second);
      if (edge_of.count(key)) {
        const Edge& e = g.edges[edge_of[key]];
        if (e.src == b->second && e.dst == a->second &&
            Attr(r, "symmetrical") != "YES" && Attr(r, "symmetrical") != "yes")
          continue;  // the reverse of an asymmetric route
        return Err(r, absl::StrCat("a second route between '", Shown(src),
                                   "' and '", Shown(dst), "'"));
      }
      edge_of[key] = g.edges.size();
      g.edges.push_back({a->second, b->second, link, r});
    }
    return absl::OkStatus();
  }

  // A Full zone whose routes join every pair of hosts directly.
  static bool JoinsEveryPair(const RouteGraph& g) {
    const int32_t nv = static_cast<int32_t>(g.vertex.size());
    return nv == g.num_hosts && g.num_hosts > 1 &&
           g.num_hosts <= kMaxPairwise &&
           static_cast<int64_t>(g.edges.size()) ==
               static_cast<int64_t>(g.num_hosts) * (g.num_hosts - 1) / 2;
  }

  absl::StatusOr<PNode> PairwiseZone(const xmlNode* n, const RouteGraph& g,
                                     const std::string& gateway) const {
    const size_t nv = g.vertex.size();
    PNode sw;
    sw.kind = "zone";
    sw.pair_links.assign(nv * nv, Link{});
    for (const Vertex& v : g.vertex)
      sw.children.push_back(HostNode(v.id, v.cores, v.loopback));
    for (const Edge& e : g.edges) {
      sw.pair_links[static_cast<size_t>(e.src) * nv + e.dst] = e.link;
      sw.pair_links[static_cast<size_t>(e.dst) * nv + e.src] = e.link;
    }
    if (!gateway.empty()) {
      return Err(n, absl::StrCat("reached through '", Shown(gateway),
                                 "' but its hosts are joined pairwise"));
    }
    return sw;
  }

  // The root of the route tree: the gateway, else UngatedRoot.
  absl::StatusOr<int32_t> RouteRoot(const xmlNode* n, const RouteGraph& g,
                                    const Adjacency& adj,
                                    const std::string& gateway) const {
    if (gateway.empty()) return UngatedRoot(g, adj);
    auto it = g.index.find(gateway);
    if (it == g.index.end()) {
      return Err(n, absl::StrCat("its gateway '", Shown(gateway),
                                 "' is not one of its hosts or routers"));
    }
    return it->second;
  }

  // The route tree rooted at `root` (BFS); every vertex must be reached, and
  // none deeper than kMaxTreeDepth.
  absl::StatusOr<RootedTree> RootAt(const RouteGraph& g, const Adjacency& adj,
                                    int32_t root) const {
    const int32_t nv = static_cast<int32_t>(g.vertex.size());
    RootedTree t;
    t.root = root;
    t.parent.assign(nv, -2);
    t.order = {root};
    t.up.assign(nv, Link{});
    t.parent[root] = -1;
    for (size_t i = 0; i < t.order.size(); ++i) {
      for (const auto& [w, link] : adj[t.order[i]]) {
        if (t.parent[w] != -2) continue;
        t.parent[w] = t.order[i];
        t.up[w] = link;
        t.order.push_back(w);
      }
    }
    for (int32_t v = 0; v < nv && static_cast<int32_t>(t.order.size()) != nv;
         ++v) {
      if (t.parent[v] == -2) {
        return Err(
            g.vertex[v].element,
            absl::StrCat("no route joins it to '", Shown(g.vertex[root].id),
                         "': the routes do not form a tree"));
      }
    }
    std::vector<int32_t> depth(nv, 0);
    for (int32_t v : t.order) {
      if (t.parent[v] >= 0) depth[v] = depth[t.parent[v]] + 1;
      if (depth[v] > kMaxTreeDepth) {
        return Err(g.vertex[v].element,
                   absl::StrCat("more than ", kMaxTreeDepth, " routers deep"));
      }
    }
    return t;
  }

  // Which subtrees hold hosts, and each vertex's children among them; hosts
  // must be at the leaves.
  absl::Status HostBranches(const RouteGraph& g, const RootedTree& t,
                            std::vector<bool>& has_host,
                            std::vector<std::vector<int32_t>>& kids) const {
    const int32_t nv = static_cast<int32_t>(g.vertex.size());
    has_host.assign(nv, false);
    for (size_t i = t.order.size(); i-- > 0;) {
      const int32_t v = t.order[i];
      has_host[v] = has_host[v] || g.vertex[v].host;
      if (t.parent[v] >= 0 && has_host[v]) has_host[t.parent[v]] = true;
    }
    kids.assign(nv, {});
    for (int32_t v : t.order) {
      if (t.parent[v] >= 0 && has_host[v]) kids[t.parent[v]].push_back(v);
    }
    for (int32_t v = 0; v < nv; ++v) {
      if (g.vertex[v].host && !kids[v].empty()) {
        return Err(g.vertex[v].element,
                   absl::StrCat("routes lead through this host to '",
                                Shown(g.vertex[kids[v][0]].id),
                                "'; rankmap needs hosts at the leaves of the "
                                "route tree"));
      }
    }
    return absl::OkStatus();
  }

  // A zone whose routes form a tree, rooted as the header says.
  absl::StatusOr<PNode> RoutedZone(const xmlNode* n, const RouteGraph& g,
                                   const std::string& gateway) const {
    const int32_t nv = static_cast<int32_t>(g.vertex.size());
    Adjacency adj(nv);
    for (const Edge& e : g.edges) {
      adj[e.src].push_back({e.dst, e.link});
      adj[e.dst].push_back({e.src, e.link});
    }
    if (static_cast<int32_t>(g.edges.size()) != nv - 1) {
      return Err(
          n, absl::StrCat("its routes do not form a tree (", nv,
                          " hosts and routers, ", g.edges.size(),
                          " routes between them; a tree has one route fewer "
                          "than nodes)"));
    }
    ASSIGN_OR_RETURN(const int32_t root, RouteRoot(n, g, adj, gateway));
    ASSIGN_OR_RETURN(const RootedTree t, RootAt(g, adj, root));
    std::vector<bool> has_host;
    std::vector<std::vector<int32_t>> kids;
    RETURN_IF_ERROR(HostBranches(g, t, has_host, kids));
    // A gateway router above a single child: the child is the top, and the
    // gateway's link its uplink (the form WriteSimGridPlatform writes).
    int32_t top = root;
    Link top_uplink;
    if (!gateway.empty() && !g.vertex[root].host && kids[root].size() == 1) {
      top = kids[root][0];
      top_uplink = t.up[top];
    }
    return FoldRouteTree(g, t, kids, has_host, top, top_uplink);
  }

  absl::StatusOr<PNode> ZoneOfHosts(const xmlNode* n,
                                    const std::string& gateway) {
    RouteGraph g;
    ASSIGN_OR_RETURN(const std::vector<xmlNode*> routes, Vertices(n, g));
    RETURN_IF_ERROR(Edges(n, routes, g));
    if (JoinsEveryPair(g)) return PairwiseZone(n, g, gateway);
    return RoutedZone(n, g, gateway);
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
  int64_t budget_;
  // What the tree will hold, counted before each part is built.
  int64_t leaves_ = 0;
  int64_t nodes_ = 1;       // a root above the top element
  int64_t name_bytes_ = 0;  // host names (topology/tree_size.h)
  std::map<std::string, Link> links_;
  std::set<std::string> host_ids_;
};

}  // namespace

std::string_view XmlRootElement(std::string_view text) {
  size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // a UTF-8 BOM
  auto skip_past = [&](std::string_view end) {
    const size_t at = text.find(end, i);
    i = at == std::string_view::npos ? text.size() : at + end.size();
    return at != std::string_view::npos;
  };
  for (;;) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i >= text.size() || text[i] != '<') return {};
    const std::string_view rest = text.substr(i);
    bool closed = true;
    if (rest.starts_with("<?")) {
      closed = skip_past("?>");
    } else if (rest.starts_with("<!--")) {
      closed = skip_past("-->");
    } else if (rest.starts_with("<!")) {
      // A DOCTYPE; its internal subset ("[...]") may hold '>'.
      const size_t gt = text.find('>', i), open = text.find('[', i);
      if (open < gt) closed = skip_past("]");
      closed = closed && skip_past(">");
    } else {
      size_t end = i + 1;
      while (end < text.size() &&
             !std::isspace(static_cast<unsigned char>(text[end])) &&
             text[end] != '>' && text[end] != '/')
        ++end;
      return text.substr(i + 1, end - i - 1);
    }
    if (!closed) return {};
  }
}

bool LooksLikeSimGridPlatform(std::string_view text) {
  return XmlRootElement(text) == "platform";
}

absl::StatusOr<Tree> ParseSimGridPlatform(std::string_view xml,
                                          std::string_view source,
                                          int64_t max_leaves,
                                          int64_t max_memory_bytes) {
  return PlatformReader(std::string(source), max_leaves,
                        base::MemoryBudget(max_memory_bytes))
      .Read(xml);
}

absl::StatusOr<Tree> ReadSimGridPlatformFile(const std::string& path,
                                             int64_t max_memory_bytes) {
  ASSIGN_OR_RETURN(const std::string text,
                   base::ReadFile(path, "SimGrid platform"));
  return ParseSimGridPlatform(text, path, int64_t{1} << 26, max_memory_bytes);
}

}  // namespace rankmap::topology
