#include "models/level_classes.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace rankmap::models {
namespace {

using topology::NodeId;

constexpr uint8_t Bit(LevelClass c) {
  return static_cast<uint8_t>(1u << static_cast<int>(c));
}
constexpr uint8_t kNodeOrAbove = Bit(LevelClass::kNode) |
                                 Bit(LevelClass::kCluster) |
                                 Bit(LevelClass::kNetwork);
constexpr uint8_t kNetworkLike =
    Bit(LevelClass::kCluster) | Bit(LevelClass::kNetwork);

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsCache(const std::string& part) {
  return part.find("cache") != std::string::npos;
}

// Class of one part of a kind (lower case); nullopt when it says nothing.
std::optional<LevelClass> PartClass(const std::string& part) {
  if (part == "pu" || part == "core") return LevelClass::kCore;
  if (part.size() >= 2 && part[0] == 'l' &&
      std::isdigit(static_cast<unsigned char>(part[1])) && IsCache(part)) {
    // L1 and L2 are private to a core; L3 and beyond are shared in a socket.
    return part[1] <= '2' ? LevelClass::kCore : LevelClass::kSocket;
  }
  if (part == "package" || part == "socket" || part == "die" ||
      part.rfind("group", 0) == 0) {
    return LevelClass::kSocket;
  }
  if (part == "numanode") return LevelClass::kNuma;
  if (part == "machine" || part == "system") return LevelClass::kNode;
  if (part == "cluster" || part == "switch") return LevelClass::kCluster;
  if (part == "network") return LevelClass::kNetwork;
  return std::nullopt;
}

DefaultGroup GroupOf(LevelClass c) {
  switch (c) {
    case LevelClass::kCore:
      return DefaultGroup::kCache;
    case LevelClass::kSocket:
    case LevelClass::kNuma:
      return DefaultGroup::kSocket;
    case LevelClass::kNode:
      return DefaultGroup::kNode;
    case LevelClass::kCluster:
    case LevelClass::kNetwork:
      return DefaultGroup::kNetwork;
  }
  return DefaultGroup::kCache;
}

std::vector<std::string> Parts(const std::string& kind) {
  std::vector<std::string> parts = absl::StrSplit(Lower(kind), '+');
  return parts;
}

}  // namespace

std::optional<LevelClass> ParseLevelClass(std::string_view name) {
  const std::string n = Lower(name);
  for (LevelClass c :
       {LevelClass::kCore, LevelClass::kSocket, LevelClass::kNuma,
        LevelClass::kNode, LevelClass::kCluster, LevelClass::kNetwork}) {
    if (n == LevelClassName(c)) return c;
  }
  return std::nullopt;
}

const char* LevelClassName(LevelClass c) {
  switch (c) {
    case LevelClass::kCore:
      return "core";
    case LevelClass::kSocket:
      return "socket";
    case LevelClass::kNuma:
      return "numa";
    case LevelClass::kNode:
      return "node";
    case LevelClass::kCluster:
      return "cluster";
    case LevelClass::kNetwork:
      return "network";
  }
  return "?";
}

LevelClasses ClassifyLevels(const topology::Tree& tree) {
  const int32_t n = tree.num_nodes();
  const int32_t num_leaves = tree.num_leaves();
  std::vector<uint8_t> known(n, 0);
  // Group from the innermost known part (the last one: hwloc joins top-down).
  std::vector<int> innermost(n, -1);
  for (NodeId v = num_leaves; v < n; ++v) {
    for (const std::string& part : Parts(tree.kind(v))) {
      const std::optional<LevelClass> c = PartClass(part);
      if (!c) continue;
      known[v] |= Bit(*c);
      innermost[v] =
          static_cast<int>(IsCache(part) ? DefaultGroup::kCache : GroupOf(*c));
    }
  }
  // Children before parents: heights and known node-or-above levels below.
  std::vector<int32_t> height(n, 0);
  std::vector<char> known_node_below(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    const NodeId p = tree.parent(v);
    if (p < 0) continue;
    height[p] = std::max(height[p], height[v] + 1);
    if (known_node_below[v] || (known[v] & kNodeOrAbove))
      known_node_below[p] = 1;
  }
  // Parents before children: places of the levels whose kind says nothing.
  LevelClasses out;
  out.node_classes = known;
  std::vector<char> under_node(n, 0);
  for (NodeId v = n - 1; v >= num_leaves; --v) {
    const NodeId p = tree.parent(v);
    if (known[v] == 0) {
      LevelClass c;
      if (p >= 0 && (known[p] & kNetworkLike)) {
        c = LevelClass::kNode;
      } else if (known_node_below[v]) {
        c = LevelClass::kNetwork;
      } else {
        static constexpr LevelClass kByHeight[] = {
            LevelClass::kCore, LevelClass::kCore, LevelClass::kSocket,
            LevelClass::kNode, LevelClass::kNetwork};
        c = kByHeight[std::min(height[v], 4)];
        if (under_node[v] && c > LevelClass::kSocket) c = LevelClass::kSocket;
      }
      out.node_classes[v] = Bit(c);
      innermost[v] = static_cast<int>(GroupOf(c));
    }
    const bool node_here = (out.node_classes[v] & Bit(LevelClass::kNode)) ||
                           (known[v] & kNetworkLike);
    for (NodeId c : tree.children(v))
      under_node[c] = under_node[v] || node_here;
  }
  // Any level with a node below it is network.
  std::vector<char> node_below(n, 0);
  for (NodeId v = 0; v < n; ++v) {
    const NodeId p = tree.parent(v);
    if (p >= 0 && (node_below[v] || (out.node_classes[v] & kNodeOrAbove)))
      node_below[p] = 1;
  }
  const int32_t h = tree.height();
  out.depth_classes.assign(h, 0);
  std::vector<int> group(h, 0);
  for (NodeId v = num_leaves; v < n; ++v) {
    const int32_t d = tree.depth(v);
    out.depth_classes[d] |= out.node_classes[v];
    int g = innermost[v];
    if (node_below[v] || (out.node_classes[v] & kNetworkLike))
      g = static_cast<int>(DefaultGroup::kNetwork);
    group[d] = std::max(group[d], g);
  }
  for (int g : group) out.group.push_back(static_cast<DefaultGroup>(g));
  return out;
}

std::vector<char> SelectDepthsByName(const topology::Tree& tree,
                                     const LevelClasses& classes,
                                     std::string_view selector) {
  const std::string want = Lower(selector);
  std::string alias;
  if (want == "pack" || want == "socket") alias = "package";
  if (want == "numa") alias = "numanode";
  if (want == "node") alias = "machine";
  const std::optional<LevelClass> cls = ParseLevelClass(want);
  std::vector<char> on(tree.height(), 0);
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    bool match = cls && (classes.node_classes[v] & Bit(*cls));
    if (!match && Lower(tree.kind(v)) == want) match = true;
    for (const std::string& part : Parts(tree.kind(v))) {
      if (match) break;
      match = part == want || (!alias.empty() && part == alias);
    }
    if (match) on[tree.depth(v)] = 1;
  }
  return on;
}

std::string DescribeLevels(const topology::Tree& tree) {
  std::vector<std::vector<std::string>> kinds(tree.height());
  for (NodeId v = tree.num_nodes() - 1; v >= tree.num_leaves(); --v) {
    auto& k = kinds[tree.depth(v)];
    if (std::find(k.begin(), k.end(), tree.kind(v)) == k.end())
      k.push_back(tree.kind(v));
  }
  std::vector<std::string> out;
  for (size_t d = 0; d < kinds.size(); ++d) {
    out.push_back(
        absl::StrCat(absl::StrJoin(kinds[d], " | "), " (depth ", d, ")"));
  }
  return absl::StrJoin(out, ", ");
}

}  // namespace rankmap::models
