#include "topology/topology.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "topology/hwloc_import.h"
#include "topology/ibnetdiscover.h"
#include "topology/network.h"
#include "topology/simgrid_platform.h"
#include "topology/slurm_topology.h"
#include "topology/switch_tree.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

namespace rankmap::topology {
namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "0-3,8" as logical leaf indexes of a tree with `n` leaves, each once and in
// order (marked in a mask: repeated ranges cost no memory).
absl::StatusOr<std::vector<LeafId>> ParseLeafList(std::string_view list,
                                                  int32_t n) {
  std::vector<char> allowed(n, 0);
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string_view::npos) end = list.size();
    const std::string item(list.substr(pos, end - pos));
    const size_t dash = item.find('-', 1);
    int64_t a = 0, b = 0;
    bool ok;
    if (dash == std::string::npos) {
      ok = absl::SimpleAtoi(item, &a);
      b = a;
    } else {
      ok = absl::SimpleAtoi(item.substr(0, dash), &a) &&
           absl::SimpleAtoi(item.substr(dash + 1), &b);
    }
    if (!ok || a < 0 || b < a || b >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "topology/allowed: bad leaf range '", item, "' at column ", pos + 1,
          " (leaves are 0..", n - 1, ")"));
    }
    std::fill(allowed.begin() + a, allowed.begin() + b + 1, 1);
    pos = end + 1;
  }
  std::vector<LeafId> out;
  for (LeafId l = 0; l < n; ++l) {
    if (allowed[l]) out.push_back(l);
  }
  return out;
}

absl::StatusOr<Tree> LoadBase(const std::string& desc,
                              const LoadOptions& options, bool& hwloc_input) {
  HwlocImportOptions hw;
  hw.leaf = options.leaf;
  hw.level_costs = options.level_costs;
  hw.allowed_pus = options.allowed_pus;
  hw.max_memory_bytes = options.max_memory_bytes;
  hw.max_hwloc_work = options.max_hwloc_work;
  hwloc_input = false;
  auto no_level_costs = [&](const std::string& what) -> absl::Status {
    if (options.level_costs.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": level costs '", options.level_costs,
        "' apply to hwloc inputs only; a tleaf or a platform carries its own "
        "costs"));
  };
  if (desc == "this") {
    hwloc_input = true;
    return TreeFromThisMachine(hw);
  }
  if (LooksLikeTleaf(desc)) {
    RETURN_IF_ERROR(no_level_costs("topology/tleaf"));
    return ParseTleaf(desc, "topology/tleaf", int64_t{1} << 30,
                      options.max_memory_bytes);
  }
  struct stat st;
  if (stat(desc.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    // base::ReadFile refuses a FIFO or a device by name, before opening it.
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(desc, "topology file"));
    // The root element decides, past comments and a DOCTYPE of any length.
    const std::string_view root = XmlRootElement(text);
    if (root == "platform") {
      RETURN_IF_ERROR(no_level_costs(desc));
      return ParseSimGridPlatform(text, desc, int64_t{1} << 26,
                                  options.max_memory_bytes);
    }
    if (!root.empty() || Trim(text.substr(0, 256)).starts_with('<')) {
      hwloc_input = true;
      return TreeFromXmlBuffer(text, desc, hw);
    }
    if (LooksLikeTleaf(text)) {
      RETURN_IF_ERROR(no_level_costs(desc));
      return ParseTleaf(text, desc, int64_t{1} << 30, options.max_memory_bytes);
    }
    if (LooksLikeNetworkSpec(text)) {
      const size_t slash = desc.rfind('/');
      return ParseNetworkSpec(
          text, desc, slash == std::string::npos ? "" : desc.substr(0, slash),
          options);
    }
    if (LooksLikeSlurmTopology(text)) {
      ASSIGN_OR_RETURN(
          const SwitchTree net,
          ParseSlurmTopology(text, desc, options.max_memory_bytes));
      return AttachNodes(net, desc, options);
    }
    if (LooksLikeIbnetdiscover(text)) {
      ASSIGN_OR_RETURN(const SwitchTree net, ParseIbnetdiscover(text, desc));
      return AttachNodes(net, desc, options);
    }
    return absl::InvalidArgumentError(absl::StrCat(
        desc,
        ":1: not an hwloc XML file (starts with '<'), a SimGrid platform "
        "(first element <platform>), a tleaf (first word 'tleaf'), a network "
        "spec (first directive 'network'), a Slurm topology.conf "
        "(SwitchName=) or an ibnetdiscover dump"));
  }
  if (desc.find('/') != std::string::npos || EndsWith(desc, ".xml") ||
      EndsWith(desc, ".tgt") || EndsWith(desc, ".net")) {
    return absl::NotFoundError(absl::StrCat(desc, ": no such topology file"));
  }
  hwloc_input = true;
  return TreeFromSynthetic(desc, hw);
}

}  // namespace

absl::StatusOr<Tree> LoadTopology(std::string_view description,
                                  const LoadOptions& options) {
  const std::string desc = Trim(description);
  if (desc.empty()) {
    return absl::InvalidArgumentError("topology: empty description");
  }
  if (options.capacity < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "topology: capacity per leaf must be >= 1, got ", options.capacity));
  }
  bool hwloc_input = false;
  ASSIGN_OR_RETURN(Tree tree, LoadBase(desc, options, hwloc_input));
  if (!hwloc_input && !options.allowed_pus.empty()) {
    ASSIGN_OR_RETURN(std::vector<LeafId> allowed,
                     ParseLeafList(options.allowed_pus, tree.num_leaves()));
    ASSIGN_OR_RETURN(tree, Restrict(tree, allowed));
  }
  if (options.capacity != 1) {
    ASSIGN_OR_RETURN(tree, Oversubscribe(tree, options.capacity));
  }
  return tree;
}

}  // namespace rankmap::topology
